import { and, asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { clientCode } from "~/domain/admin";
import { TEAM_MESSAGES } from "~/domain/team";
import { currentFilingYear } from "~/domain/tax-year";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { openCase } from "~/server/cases/cases.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, clientCases, staffNotices, user } from "~/server/db/schema";
import { sendMessage } from "~/server/messages/posting.server";
import { NOTICE_QUIET_MS, sendGatheredStaffNotices } from "~/server/notices/notices.server";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { makeStaff, sentMail, signedInClient, withCookie } from "./helpers";

// A deactivated staff member keeps no case and receives no notice: the deactivation unassigns
// their cases (one audit entry each), a reactivation gives none back, and what a client sends
// afterwards is e-mailed to the firm's address (STAFF_EMAIL), never to the deactivated one.

const team = await routeModule("routes/admin/team.tsx");
const taxpayerRoute = await routeModule("routes/portal/taxpayer-information.tsx");
const uploadRoute = await routeModule("routes/portal/filing-documents.ts");

const YEAR = currentFilingYear();
const EARLIER = YEAR - 1;
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");

type Account = { id: string; cookie: string };

async function answer(call: () => Promise<unknown>): Promise<{ status: number; body: unknown }> {
  let result: unknown;
  try {
    result = await call();
  } catch (thrown) {
    if (thrown instanceof Error) throw thrown;
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, body: await result.text() };
  return unwrap(result);
}

const args = (request: Request, params: Record<string, string> = {}) => ({ ...routeArgs(request, { clientIp: "203.0.113.9" }), params }) as never;

const teamAction = (cookie: string, fields: Record<string, string>) =>
  answer(() =>
    team.action(args(withCookie("/admin/team", cookie, { method: "POST", body: new URLSearchParams(fields) }))),
  );

const saveTaxInfo = (client: Account) =>
  answer(() =>
    taxpayerRoute.action(
      args(withCookie(`/dashboard?year=${YEAR}`, client.cookie, { method: "POST", body: new URLSearchParams(sampleTaxpayer) })),
    ),
  );

function uploadDocument(client: Account) {
  const form = new FormData();
  form.append("category", "w-2");
  form.append("files", new Blob([PDF]), "w2.pdf");
  const request = withCookie(`/my-tax-filing/${YEAR}/documents`, client.cookie, { method: "POST", body: form });
  return answer(() => uploadRoute.action(args(request, { year: String(YEAR) })));
}

async function sessionUser(account: Account): Promise<SessionUser> {
  const found = await getSessionUser(withCookie("/", account.cookie));
  if (!found) throw new Error("no session");
  return found;
}

const assigneeOf = async (clientId: string, taxYear = YEAR) =>
  (
    await getDb()
      .select({ assigneeId: clientCases.assigneeId })
      .from(clientCases)
      .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)))
  )[0]?.assigneeId;

const recipients = async () => (await sentMail()).map((m) => [m.to, m.subject]);

let admin: Account;
let preparer: Account;
let other: Account;
let alice: Account;
let bob: Account;

beforeEach(async () => {
  admin = await signedInClient("dana.admin@example.com");
  await makeStaff(admin, "admin");
  preparer = await signedInClient("pat.preparer@example.com");
  await makeStaff(preparer, "preparer");
  other = await signedInClient("olga.preparer@example.com");
  await makeStaff(other, "preparer");
  alice = await signedInClient("alice@example.com");
  bob = await signedInClient("bob@example.com");
  await getDb().update(user).set({ name: "Alice Aardvark" }).where(eq(user.id, alice.id));
  expect(await openCase(await sessionUser(admin), alice.id, EARLIER, "203.0.113.9")).toBe("opened");
});

describe("deactivating a staff member", () => {
  it("unassigns every case of theirs in every year, with one audit entry per case, and a reactivation gives none back", async () => {
    await getDb().update(clientCases).set({ assigneeId: preparer.id }).where(eq(clientCases.userId, alice.id));
    await getDb().update(clientCases).set({ assigneeId: other.id }).where(eq(clientCases.userId, bob.id));

    const done = await teamAction(admin.cookie, { intent: "deactivate", userId: preparer.id });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ ok: true, message: TEAM_MESSAGES.deactivated });
    expect(await assigneeOf(alice.id, YEAR)).toBeNull();
    expect(await assigneeOf(alice.id, EARLIER)).toBeNull();
    // Another member's case stays theirs.
    expect(await assigneeOf(bob.id)).toBe(other.id);
    const entries = await getDb()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "case-assigned"))
      .orderBy(asc(auditLog.taxYear));
    expect(entries.map((e) => [e.actorId, e.clientId, e.taxYear, e.detail, e.ipAddress])).toEqual([
      [admin.id, alice.id, EARLIER, "assignee: none (pat.preparer@example.com deactivated)", "203.0.113.9"],
      [admin.id, alice.id, YEAR, "assignee: none (pat.preparer@example.com deactivated)", "203.0.113.9"],
    ]);

    const back = await teamAction(admin.cookie, { intent: "reactivate", userId: preparer.id });
    expect(back.body).toMatchObject({ ok: true, message: TEAM_MESSAGES.reactivated });
    expect(await assigneeOf(alice.id, YEAR)).toBeNull();
    expect(await assigneeOf(alice.id, EARLIER)).toBeNull();
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "case-assigned"))).toHaveLength(2);
  });

  it("sends what the client saves, uploads or writes afterwards to STAFF_EMAIL, never to the deactivated address", async () => {
    await getDb().update(clientCases).set({ assigneeId: preparer.id }).where(eq(clientCases.userId, alice.id));
    // While they are active, the assignee is told.
    expect((await saveTaxInfo(alice)).status).toBe(200);
    expect((await recipients()).map(([to]) => to)).toEqual(["pat.preparer@example.com"]);

    expect((await teamAction(admin.cookie, { intent: "deactivate", userId: preparer.id })).status).toBe(200);
    await saveTaxInfo(alice);
    expect((await uploadDocument(alice)).status).toBe(200);
    await sendMessage(await sessionUser(alice), { clientId: alice.id, taxYear: YEAR, body: "A question", category: "other-documents", files: [] }, "203.0.113.9");
    // Within the hour of the first notice, what follows is gathered into one e-mail when it has passed.
    expect((await recipients())).toHaveLength(1);
    await getDb()
      .update(staffNotices)
      .set({ lastSentAt: new Date(Date.now() - NOTICE_QUIET_MS - 1000) })
      .where(eq(staffNotices.clientId, alice.id));
    expect(await sendGatheredStaffNotices()).toBe(1);
    const code = clientCode((await getDb().select({ n: clientCases.number }).from(clientCases).where(eq(clientCases.userId, alice.id)))[0]!.n);
    expect((await recipients()).slice(1)).toEqual([
      ["staff@taxbridge.test", `${code} Alice Aardvark changed their taxpayer information, uploaded a document and sent a message (${YEAR})`],
    ]);
  });

  it("never e-mails a deactivated account still stored as a case's assignee (an assignment kept from before)", async () => {
    await getDb().update(user).set({ deactivatedAt: new Date() }).where(eq(user.id, preparer.id));
    await getDb().update(clientCases).set({ assigneeId: preparer.id }).where(eq(clientCases.userId, alice.id));
    await saveTaxInfo(alice);
    await uploadDocument(alice);
    await sendMessage(await sessionUser(alice), { clientId: alice.id, taxYear: YEAR, body: "A question", category: "other-documents", files: [] }, "203.0.113.9");
    await getDb()
      .update(staffNotices)
      .set({ lastSentAt: new Date(Date.now() - NOTICE_QUIET_MS - 1000) })
      .where(eq(staffNotices.clientId, alice.id));
    await sendGatheredStaffNotices();
    // The first at once, the rest gathered: both to the firm's address.
    expect((await recipients()).map(([to]) => to)).toEqual(["staff@taxbridge.test", "staff@taxbridge.test"]);
  });

  it("refuses to give a case to a deactivated account, with a clear message, and changes nothing", async () => {
    expect((await teamAction(admin.cookie, { intent: "deactivate", userId: preparer.id })).status).toBe(200);
    const dashboard = await routeModule("routes/admin/dashboard.tsx");
    const refused = await answer(() =>
      dashboard.action(
        args(
          withCookie(`/admin/dashboard?year=${YEAR}`, admin.cookie, {
            method: "POST",
            body: new URLSearchParams({ intent: "assign", clientId: alice.id, taxYear: String(YEAR), assigneeId: preparer.id }),
          }),
        ),
      ),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ ok: false, message: "This staff member is not on the active staff. Choose someone from the list." });
    expect(await assigneeOf(alice.id)).toBeNull();
  });
});
