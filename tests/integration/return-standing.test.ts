import { beforeEach, describe, expect, it } from "vitest";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { efileEvents, signatureRequestEvents } from "~/server/db/schema";
import type { SignatureRequestEventKind } from "~/domain/returns";
import type { EfileEventKind, Jurisdiction } from "~/domain/returns";
import { listRejectedReturns } from "~/server/returns/efile.server";
import { liveRequestsOf, requestStandings } from "~/server/returns/records.server";
import { returnSection } from "~/server/returns/return-section.server";
import { approveReturnVersion } from "~/server/returns/reviews.server";
import { requestSignature } from "~/server/returns/signature-requests.server";
import { listCasesInReturnFilter, returnFilterCounts } from "~/server/returns/timeline.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";
import { feeCast } from "../helpers/fees";
import { letterAccepted } from "../helpers/engagement";
import { IP, pdf, received, UA } from "../helpers/returns";
import type { Account } from "../helpers/returns";

// Where a signature request stands and which rejections are still to be sent again are each
// read in one place (records.server.ts requestStandingSql, efile.server.ts openRejection). The
// pages, the staff list's filters and the dashboard must tell the same story at every step:
// the events are written here directly, in the order and at the moments each step needs.

const Y = currentFilingYear();
let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  // An admin, a preparer and two clients with this season's case.
  ({ admin, preparer, a, b } = await feeCast());
  for (const who of [a, b]) await letterAccepted(admin, who, Y);
});

/** A's return uploaded, approved, and a signature asked for: the request and its version. */
async function requested(who: Account): Promise<{ requestId: string; versionId: string }> {
  const v = await uploadReturnVersion(preparer.actor, { clientId: who.id, taxYear: Y }, { form: "1040-NR", note: "", file: await received("v1.pdf", pdf("v1")) }, IP);
  if (!v.ok) throw new Error(v.error);
  await approveReturnVersion(who.actor, v.versionId, { ip: IP, userAgent: UA, declarationVersion: "d1" });
  const r = await requestSignature(preparer.actor, v.versionId, { formFile: await received("8879.pdf", pdf("8879")), jointReturn: false }, IP);
  if (!r.ok) throw new Error(r.error);
  return { requestId: r.requestId, versionId: v.versionId };
}

const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 12, minute));

describe("a signature request's standing", () => {
  it("is the same for the pages, the Return section and the 'Waiting for a signature' filter at every step", async () => {
    const { requestId, versionId } = await requested(a);
    await requested(b);
    const event = (kind: SignatureRequestEventKind, minute: number) =>
      getDb()
        .insert(signatureRequestEvents)
        .values({ requestId, kind, versionId: kind === "authorised" ? null : versionId, reason: kind === "cancelled" ? "Wrong spouse address" : null, createdAt: at(minute) });

    async function seen() {
      const standing = (await requestStandings([requestId])).get(requestId)!;
      const live = (await liveRequestsOf({ clientId: a.id, taxYear: Y })).map((r) => r.id);
      const section = (await returnSection(admin.actor, { clientId: a.id, taxYear: Y })).requests.find((r) => r.id === requestId)!;
      const listed = (await listCasesInReturnFilter(admin.actor, Y, "awaiting-signature")).map((c) => c.clientId);
      const counted = (await returnFilterCounts(admin.actor, Y))["awaiting-signature"];
      expect({ void: section.void, authorised: section.authorised, voidedBy: section.voidedBy, cancelled: section.cancelled }).toEqual(standing);
      expect(live.includes(requestId)).toBe(!standing.void);
      // B's request, untouched, waits for B throughout.
      expect(listed.includes(b.id)).toBe(true);
      expect(counted).toBe(listed.length);
      return { ...standing, waiting: listed.includes(a.id) };
    }

    expect(await seen()).toEqual({ void: false, authorised: false, voidedBy: null, cancelled: null, waiting: true });
    await event("voided", 1);
    expect(await seen()).toEqual({ void: true, authorised: false, voidedBy: versionId, cancelled: null, waiting: false });
    await event("within-tolerance", 2);
    expect(await seen()).toEqual({ void: false, authorised: false, voidedBy: null, cancelled: null, waiting: true });
    // Voided again, then kept again within the same moment: the later by id decides, as for any tie.
    await event("voided", 3);
    expect(await seen()).toEqual({ void: true, authorised: false, voidedBy: versionId, cancelled: null, waiting: false });
    await event("within-tolerance", 4);
    // Cancelled by staff: void for good, a later declaration within the tolerances does not bring it back.
    await event("cancelled", 5);
    expect(await seen()).toEqual({ void: true, authorised: false, voidedBy: null, cancelled: "Wrong spouse address", waiting: false });
    await event("within-tolerance", 6);
    expect(await seen()).toEqual({ void: true, authorised: false, voidedBy: null, cancelled: "Wrong spouse address", waiting: false });
    expect((await requestStandings(["00000000-0000-4000-8000-000000000000"])).get("00000000-0000-4000-8000-000000000000")).toEqual({
      void: false,
      authorised: false,
      voidedBy: null,
      cancelled: null,
    });
  });
});

describe("a rejection still to be sent again", () => {
  it("is the same for the dashboard's list, the 'Rejected' filter and the Return section at every step", async () => {
    const event = (who: Account, kind: EfileEventKind, jurisdiction: Jurisdiction, minute: number) =>
      getDb().insert(efileEvents).values({ clientId: who.id, taxYear: Y, kind, jurisdiction, eventDate: "2029-12-31", recordedBy: preparer.id, createdAt: at(minute) });

    async function seen() {
      const listed = (await listRejectedReturns(admin.actor)).filter((r) => r.clientId === a.id).map((r) => r.jurisdiction);
      const section = (await returnSection(admin.actor, { clientId: a.id, taxYear: Y })).openRejections.map((r) => r.jurisdiction);
      const filtered = (await listCasesInReturnFilter(admin.actor, Y, "rejected")).map((c) => c.clientId);
      expect(section).toEqual(listed);
      expect(filtered.includes(a.id)).toBe(listed.length > 0);
      expect((await returnFilterCounts(admin.actor, Y)).rejected).toBe(filtered.length);
      return listed;
    }

    await event(a, "transmitted", "federal", 1);
    expect(await seen()).toEqual([]);
    await event(a, "rejected", "federal", 2);
    await event(b, "transmitted", "federal", 3);
    expect(await seen()).toEqual(["federal"]);
    // Another jurisdiction's transmission, or another client's, does not send it again.
    await event(a, "transmitted", "state", 4);
    await event(a, "rejected", "state", 5);
    expect(await seen()).toEqual(["federal", "state"]);
    await event(a, "transmitted", "federal", 6);
    expect(await seen()).toEqual(["state"]);
    await event(a, "transmitted", "state", 7);
    expect(await seen()).toEqual([]);
    // A transmission recorded at the very moment of the rejection does not come after it,
    // whatever the order of their ids.
    await getDb()
      .insert(efileEvents)
      .values([
        { id: "00000000-0000-4000-8000-000000000001", clientId: a.id, taxYear: Y, kind: "rejected", jurisdiction: "state", eventDate: "2029-12-31", recordedBy: preparer.id, createdAt: at(8) },
        { id: "ffffffff-ffff-4fff-bfff-ffffffffffff", clientId: a.id, taxYear: Y, kind: "transmitted", jurisdiction: "state", eventDate: "2029-12-31", recordedBy: preparer.id, createdAt: at(8) },
      ]);
    expect(await seen()).toEqual(["state"]);
  });
});
