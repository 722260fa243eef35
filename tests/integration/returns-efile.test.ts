import { rmSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { RETURN_FILE_NAMES, RETURN_MESSAGES } from "~/domain/returns";
import { currentFilingYear } from "~/domain/tax-year";
import { caseState } from "~/server/cases/cases.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, efileEvents, finalCopies } from "~/server/db/schema";
import { listOwnDocuments } from "~/server/documents/listing.server";
import { listRejectedReturns, recordAccepted, recordRejected, recordTransmission } from "~/server/returns/efile.server";
import { releaseFinalCopies } from "~/server/returns/final-copies.server";
import { returnSection } from "~/server/returns/return-section.server";
import { handwrittenUploads } from "~/server/db/schema";
import { caseReturnTimeline, listCasesInReturnFilter, returnFilterCounts } from "~/server/returns/timeline.server";
import { atMoment } from "../helpers/clock";
import { authorisedReturn, dayFromToday, IP, pdf, received } from "../helpers/returns";
import { feeCast } from "../helpers/fees";
import { letterAccepted } from "../helpers/engagement";
import type { Account } from "../helpers/returns";
import { sentMail } from "./helpers";

// E-file events (transmitted, accepted, rejected, transmitted again), the rejected-returns list,
// and the final copies, with the stages they tick.

const Y = currentFilingYear();
const uploadsDir = () => path.join(process.env.DATA_DIR!, "uploads");
const mails = () => sentMail();
const auditOf = async (action: string) => getDb().select().from(auditLog).where(eq(auditLog.action, action as never));
const today = dayFromToday(0);

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  rmSync(uploadsDir(), { recursive: true, force: true });
  ({ admin, preparer, a, b } = await feeCast());
  for (const who of [a, b]) await letterAccepted(admin, who, Y);
});

/** A client's return uploaded, approved and signed by hand (accepted by staff): authorised. */
const authorised = (who: Account) => authorisedReturn(who, { preparer, admin }, Y);

async function transmitted(who: Account, date = today, jurisdiction = "federal"): Promise<string> {
  const t = await recordTransmission(preparer.actor, { clientId: who.id, taxYear: Y }, { date, submissionId: "0012342025123abc", jurisdiction }, IP);
  if (!t.ok) throw new Error(t.error);
  return t.transmissionId;
}

describe("transmissions and the IRS's answers", () => {
  it("refuses a transmission before the return is authorised, and bad input", async () => {
    const ref = { clientId: a.id, taxYear: Y };
    expect(await recordTransmission(preparer.actor, ref, { date: today, submissionId: "S1", jurisdiction: "federal" }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.notAuthorised });
    await authorised(a);
    expect(await recordTransmission(preparer.actor, ref, { date: dayFromToday(1), submissionId: "S1", jurisdiction: "federal" }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.badDate });
    expect(await recordTransmission(preparer.actor, ref, { date: "2025-02-30", submissionId: "S1", jurisdiction: "federal" }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.badDate });
    expect(await recordTransmission(preparer.actor, ref, { date: today, submissionId: "S 1; drop", jurisdiction: "federal" }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.badSubmissionId });
    expect(await recordTransmission(preparer.actor, ref, { date: today, submissionId: "S1", jurisdiction: "county" }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.badJurisdiction });
    await expect(recordTransmission(a.actor, ref, { date: today, submissionId: "S1", jurisdiction: "federal" }, IP)).rejects.toThrow("Only staff may record a transmission.");
    expect(await getDb().select().from(efileEvents)).toEqual([]);
  });

  it("records transmitted then accepted, ticking E-FILING in the acceptance's transaction, and refuses what the history does not allow", async () => {
    await authorised(a);
    await getDb().execute(sql`update client_cases set home = true, taxinfo = true, documents = true, preparation = true, payment = true where user_id = ${a.id}`);
    const t = await transmitted(a);
    expect(await recordTransmission(preparer.actor, { clientId: a.id, taxYear: Y }, { date: today, submissionId: "S2", jurisdiction: "federal" }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.stillWaiting });
    expect(await recordAccepted(preparer.actor, t, dayFromToday(1), IP)).toEqual({ ok: false, error: RETURN_MESSAGES.badDate });
    expect(await recordAccepted(preparer.actor, "nonsense", today, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.noSuchTransmission });
    expect(await recordAccepted(admin.actor, t, today, IP)).toEqual({ ok: true });
    expect(await caseState(a.id, Y)).toMatchObject({ stage: "finalcopies", flags: { efiling: true, finalcopies: false } });
    expect((await auditOf("workflow-saved")).map((e) => e.detail)).toContainEqual(expect.stringContaining("; the IRS accepted the return"));
    expect((await mails()).map((m) => [m.to, m.subject])).toContainEqual(["alice@example.com", `An update on your ${Y} tax filing`]);
    expect(await recordAccepted(admin.actor, t, today, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.noSuchTransmission });
    expect(await recordRejected(admin.actor, t, { date: today, codes: ["IND-031-04"] }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.noSuchTransmission });
    expect(await recordTransmission(preparer.actor, { clientId: a.id, taxYear: Y }, { date: today, submissionId: "S2", jurisdiction: "federal" }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.alreadyAccepted });
    const timeline = await caseReturnTimeline(a.actor, { clientId: a.id, taxYear: Y });
    expect(timeline?.slice(-2).map((e) => [e.kind, e.jurisdiction, e.date])).toEqual([
      ["transmitted", "federal", today],
      ["accepted", "federal", today],
    ]);
    expect(await caseReturnTimeline(b.actor, { clientId: a.id, taxYear: Y })).toBeNull();
  });

  it("records a rejection with its codes, e-mails the client a link at once, and lists it until it is sent again", async () => {
    await authorised(a);
    const t = await transmitted(a, dayFromToday(-1));
    expect(await recordRejected(admin.actor, t, { date: today, codes: [] }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.codesRequired });
    expect(await recordRejected(admin.actor, t, { date: today, codes: ["IND 031"] }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.badRejectCode });
    expect(await recordRejected(admin.actor, t, { date: today, codes: ["IND-031-04", "XYZ-1"] }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.badRejectCode });
    expect(await recordRejected(admin.actor, t, { date: dayFromToday(-2), codes: ["IND-031-04"] }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.badDate });
    expect(await getDb().select().from(efileEvents).where(eq(efileEvents.kind, "rejected"))).toEqual([]);
    expect((await mails()).filter((m) => m.subject.includes("needs a correction"))).toEqual([]);

    expect(await recordRejected(admin.actor, t, { date: today, codes: [" ind-031-04 ", "R0000-500-01"], note: "Prior-year AGI" }, IP)).toEqual({ ok: true });
    const [event] = await getDb().select().from(efileEvents).where(eq(efileEvents.kind, "rejected"));
    expect(event).toMatchObject({ transmissionId: t, rejectCodes: ["IND-031-04", "R0000-500-01"], note: "Prior-year AGI", recordedBy: admin.id });
    const [mail] = (await mails()).filter((m) => m.subject === `Your ${Y} tax return needs a correction`);
    expect(mail?.to).toBe("alice@example.com");
    expect(mail?.text).toContain(`See your filing: http://localhost:3000/my-tax-filing/${Y}`);
    expect(mail?.text).not.toContain("IND-031-04");
    expect(mail?.text).not.toContain("Prior-year AGI");

    expect(await listRejectedReturns(preparer.actor)).toEqual([
      expect.objectContaining({ clientId: a.id, jurisdiction: "federal", transmissionId: t, rejectedOn: today, codes: ["IND-031-04", "R0000-500-01"], resendBy: dayFromToday(5), daysLeft: 5 }),
    ]);
    expect(await returnFilterCounts(admin.actor, Y)).toMatchObject({ rejected: 1 });
    expect((await listCasesInReturnFilter(admin.actor, Y, "rejected")).map((c) => c.clientId)).toEqual([a.id]);
    expect((await caseReturnTimeline(a.actor, { clientId: a.id, taxYear: Y }))?.at(-1)).toMatchObject({ kind: "rejected", codes: ["IND-031-04", "R0000-500-01"], resendBy: dayFromToday(5) });

    await transmitted(a);
    expect(await listRejectedReturns(preparer.actor)).toEqual([]);
    expect(await returnFilterCounts(admin.actor, Y)).toMatchObject({ rejected: 0 });
    await expect(listRejectedReturns(a.actor)).rejects.toThrow("Only staff may");
  });

  it("lists the rejected returns most urgent first, with the days left to send each again", async () => {
    await authorised(a);
    await authorised(b);
    const ta = await transmitted(a, dayFromToday(-3));
    const tb = await transmitted(b, dayFromToday(-4));
    const tState = await transmitted(b, dayFromToday(-4), "state");
    expect((await recordRejected(admin.actor, ta, { date: dayFromToday(-1), codes: ["IND-452"] }, IP)).ok).toBe(true);
    expect((await recordRejected(admin.actor, tb, { date: dayFromToday(-3), codes: ["IND-524"] }, IP)).ok).toBe(true);
    expect((await recordRejected(admin.actor, tState, { date: dayFromToday(-2), codes: ["FW2-502"] }, IP)).ok).toBe(true);
    const list = await listRejectedReturns(admin.actor);
    expect(list.map((r) => [r.clientLabel.endsWith("Bob Bobolink") ? "b" : "a", r.jurisdiction, r.daysLeft])).toEqual([
      ["b", "federal", 2],
      ["b", "state", 3],
      ["a", "federal", 4],
    ]);
    expect(await listRejectedReturns(admin.actor, dayFromToday(3))).toMatchObject([{ daysLeft: -1 }, { daysLeft: 0 }, { daysLeft: 1 }]);
  });

  it("takes today from New York's calendar: the dates staff may enter, and the last day to send again until midnight there", async () => {
    const ref = { clientId: a.id, taxYear: Y };
    await authorised(a);
    // 9:30 pm EST on January 30, 2026: already January 31 in UTC, not yet in New York.
    const evening = "2026-01-31T02:30:00Z";
    expect(await atMoment(evening, () => recordTransmission(preparer.actor, ref, { date: "2026-01-31", submissionId: "S1", jurisdiction: "federal" }, IP))).toEqual({
      ok: false,
      error: RETURN_MESSAGES.badDate,
    });
    const sent = await atMoment(evening, () => recordTransmission(preparer.actor, ref, { date: "2026-01-30", submissionId: "S1", jurisdiction: "federal" }, IP));
    if (!sent.ok) throw new Error(sent.error);
    expect((await recordRejected(admin.actor, sent.transmissionId, { date: "2026-01-30", codes: ["IND-452"] }, IP)).ok).toBe(true);

    // February 4 is the last day: at 7:30 pm EST it still is (UTC is on February 5), until midnight.
    const listed = async (iso: string) => (await atMoment(iso, () => listRejectedReturns(admin.actor))).map((r) => [r.resendBy, r.daysLeft]);
    const section = async (iso: string) => (await atMoment(iso, () => returnSection(admin.actor, ref))).openRejections.map((r) => [r.resendBy, r.daysLeft]);
    expect(await listed("2026-02-05T00:30:00Z")).toEqual([["2026-02-04", 0]]);
    expect(await section("2026-02-05T00:30:00Z")).toEqual([["2026-02-04", 0]]);
    expect(await listed("2026-02-05T04:59:59Z")).toEqual([["2026-02-04", 0]]);
    expect(await listed("2026-02-05T05:00:00Z")).toEqual([["2026-02-04", -1]]);
    expect(await section("2026-02-05T05:00:00Z")).toEqual([["2026-02-04", -1]]);
  });

  it("keeps the e-file history append-only in the database", async () => {
    await authorised(a);
    await transmitted(a);
    await expect(getDb().execute(sql`update efile_events set submission_id = 'X'`)).rejects.toThrow();
    await expect(getDb().execute(sql`delete from efile_events`)).rejects.toThrow();
    expect(await getDb().select().from(efileEvents)).toHaveLength(1);
  });
});

describe("final copies", () => {
  it("shares the filed return and the signed authorisation with the client and ticks FINAL COPIES in the same transaction", async () => {
    await authorised(a);
    const ref = { clientId: a.id, taxYear: Y };
    const released = await releaseFinalCopies(
      preparer.actor,
      ref,
      { filedReturn: { file: await received("1040-NR filed.pdf", pdf("filed")) }, signedAuthorization: { file: await received("8879 signed.pdf", pdf("signed")) } },
      IP,
    );
    if (!released.ok) throw new Error(released.error);
    const own = await listOwnDocuments(a.id, Y);
    // The filed return is named as the return is, whatever its file was called.
    expect(own.map((d) => d.name).sort()).toEqual(["8879 signed.pdf", RETURN_FILE_NAMES.filed("1040-NR", Y), "scan.jpg"]);
    expect(await listOwnDocuments(b.id, Y)).toEqual([]);
    expect((await caseState(a.id, Y))?.flags.finalcopies).toBe(true);
    expect(await getDb().select().from(finalCopies)).toEqual([expect.objectContaining({ releasedBy: preparer.id, filedReturnDocumentId: released.filedReturnDocumentId })]);
    expect((await auditOf("final-copies-released")).map((e) => e.detail)).toEqual(["filed return and signed authorisation"]);
    expect((await caseReturnTimeline(a.actor, ref))?.at(-1)?.kind).toBe("final-copies-released");
  });

  it("refuses a copy that is not a staff PDF of this case, a client, and keeps nothing", async () => {
    await authorised(a);
    const ref = { clientId: a.id, taxYear: Y };
    const [scan] = await getDb().select({ id: handwrittenUploads.documentId }).from(handwrittenUploads);
    const refusedRelease = await releaseFinalCopies(
      preparer.actor,
      ref,
      { filedReturn: { file: await received("filed.pdf", pdf("filed")) }, signedAuthorization: { documentId: scan!.id } },
      IP,
    );
    expect(refusedRelease).toEqual({ ok: false, error: RETURN_MESSAGES.badFinalCopy });
    expect(await releaseFinalCopies(preparer.actor, ref, { filedReturn: { documentId: "x" }, signedAuthorization: { documentId: "y" } }, IP)).toEqual({
      ok: false,
      error: RETURN_MESSAGES.badFinalCopy,
    });
    await expect(
      releaseFinalCopies(a.actor, ref, { filedReturn: { file: await received("f.pdf", pdf("f")) }, signedAuthorization: { file: await received("s.pdf", pdf("s")) } }, IP),
    ).rejects.toThrow("Only staff may release final copies.");
    expect(await getDb().select().from(finalCopies)).toEqual([]);
    expect((await listOwnDocuments(a.id, Y)).map((d) => d.name)).toEqual(["scan.jpg"]);
    expect((await caseState(a.id, Y))?.flags.finalcopies).toBe(false);
  });
});
