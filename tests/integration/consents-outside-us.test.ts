import type { RouteConfigEntry } from "@react-router/dev/routes";
import { and, eq } from "drizzle-orm";
import routeConfig from "~/routes";
import { beforeEach, describe, expect, it } from "vitest";
import { currentFilingYear } from "~/domain/tax-year";
import { answerConsent, consentPage, unassignLapsedDisclosures, withdrawConsent } from "~/server/consents/consents.server";
import { OUTSIDE_US_MESSAGES, setWorksOutsideUs } from "~/server/consents/outside-us.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, clientCases, consents, documents, efileEvents, user } from "~/server/db/schema";
import { newYorkDay } from "~/domain/business-days";
import { listRejectedReturns } from "~/server/returns/efile.server";
import { sendMessage } from "~/server/messages/posting.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";
import { feeCast, sentInvoice } from "../helpers/fees";
import { letterAccepted } from "../helpers/engagement";
import { account, IP, pdf, received, UA } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";
import type { RouteOutcome } from "../helpers/route";

// Staff who work outside the United States (docs/product/engagement.md#staff-outside-the-united-states):
// an admin marks them; they reach a client's data only while the client's consent to disclose is
// in force (the list, the export, the inbox, every route of a client, the files, assignment),
// never a full SSN or ITIN, and a withdrawal or the end of a consent counts from the next request.

const Y = currentFilingYear();
const SSN = "123-45-6789";

const r = {
  team: await routeModule("routes/admin/team.tsx"),
  dashboard: await routeModule("routes/admin/dashboard.tsx"),
  csv: await routeModule("routes/admin/clients-csv.ts"),
  inbox: await routeModule("routes/admin/inbox.tsx"),
  download: await routeModule("routes/portal/document-download.ts"),
  taxpayer: await routeModule("routes/admin/case/taxpayer.tsx"),
  overview: await routeModule("routes/admin/case/overview.tsx"),
  workflow: await routeModule("routes/admin/case/workflow.tsx"),
  audit: await routeModule("routes/admin/audit.tsx"),
  payments: await routeModule("routes/admin/payments.tsx"),
  paymentsCsv: await routeModule("routes/admin/payments-csv.ts"),
  notices: await routeModule("routes/admin/notices.tsx"),
  messages: await routeModule("routes/admin/messages.tsx"),
};
const layout = await routeModule("routes/admin/layout.tsx");

/** Every staff route of one client (app/routes.ts: its pattern has :clientId), with the params of client `id`. */
const clientRoutes = async (id: string, ids: { versionId: string; invoiceId: string }) =>
  Promise.all(
    (
      [
        ["routes/admin/case.tsx", `/admin/clients/${id}/${Y}`, {}],
        ["routes/admin/case/overview.tsx", `/admin/clients/${id}/${Y}`, {}],
        ["routes/admin/case/taxpayer.tsx", `/admin/clients/${id}/${Y}/taxpayer`, {}],
        ["routes/admin/case/residency.tsx", `/admin/clients/${id}/${Y}/residency`, {}],
        ["routes/admin/case/residency-history.tsx", `/admin/clients/${id}/${Y}/residency/history`, {}],
        ["routes/admin/case/documents.tsx", `/admin/clients/${id}/${Y}/documents`, {}],
        ["routes/admin/case-requests.tsx", `/admin/clients/${id}/${Y}/requests`, {}],
        ["routes/admin/case-messages.tsx", `/admin/clients/${id}/${Y}/messages`, {}],
        ["routes/admin/case/workflow.tsx", `/admin/clients/${id}/${Y}/workflow`, {}],
        ["routes/admin/case/return.tsx", `/admin/clients/${id}/${Y}/return`, {}],
        ["routes/admin/case/fee.tsx", `/admin/clients/${id}/${Y}/fee`, {}],
        ["routes/admin/case/notes.tsx", `/admin/clients/${id}/${Y}/notes`, {}],
        ["routes/admin/client-documents.tsx", `/admin/clients/${id}/documents`, {}],
        ["routes/admin/document-upload.ts", `/admin/clients/${id}/documents/upload`, {}],
        ["routes/admin/return-version-file.ts", `/admin/clients/${id}/return-versions/${ids.versionId}`, { versionId: ids.versionId }],
        ["routes/admin/invoice-file.ts", `/admin/clients/${id}/invoices/${ids.invoiceId}/invoice.pdf`, { invoiceId: ids.invoiceId, file: "invoice.pdf" }],
      ] as const
    ).map(async ([file, url, extra]) => ({ file, url, params: { clientId: id, year: String(Y), ...extra } as Record<string, string>, route: await routeModule(file) })),
  );

type Who = Account | null;
const req = (url: string, who: Who, init: RequestInit = {}) =>
  new Request(`http://localhost:3000${url}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...(who ? { cookie: who.cookie } : {}), "user-agent": UA } });
type Route = { loader: (args: never) => Promise<unknown>; action: (args: never) => Promise<unknown> };
const get = (route: Route, url: string, who: Who, params: Record<string, string> = {}) =>
  routeOutcome(() => route.loader({ ...routeArgs(req(url, who)), params } as never));
const post = (route: Route, url: string, who: Who, fields: Record<string, string> | Array<[string, string]>, params: Record<string, string> = {}) =>
  routeOutcome(() => route.action({ ...routeArgs(req(url, who, { method: "POST", body: new URLSearchParams(fields) })), params } as never));
const text = (got: RouteOutcome<unknown>) => (typeof got.body === "string" ? got.body : JSON.stringify(got.body));

let admin: Account;
let preparer: Account;
let offshore: Account;
let offshoreAdmin: Account;
let a: Account;
let b: Account;
let ids: { a: { versionId: string; invoiceId: string }; b: { versionId: string; invoiceId: string } };
let docs: { a: string; b: string };

async function consentToDisclose(who: Account) {
  const shown = await consentPage(who.actor, "disclose");
  const got = await answerConsent(who.actor, { kind: "disclose", decision: "given", typedName: who.actor.name, months: 12, shownSha256: shown!.sha256 }, IP, UA);
  expect(got.ok).toBe(true);
}

beforeEach(async () => {
  ({ admin, preparer, a, b } = await feeCast());
  for (const who of [a, b]) await letterAccepted(admin, who, Y);
  offshore = await account("omar.offshore@example.com", "Omar Offshore", "preparer");
  offshoreAdmin = await account("ola.offshore@example.com", "Ola Offshore", "admin");
  for (const who of [offshore, offshoreAdmin]) expect((await setWorksOutsideUs(admin.actor, who.id, true, IP)).outcome).toBe("done");
  const made = async (who: Account) => {
    const v = await uploadReturnVersion(preparer.actor, { clientId: who.id, taxYear: Y }, { form: "1040-NR", note: "", file: await received("v1.pdf", pdf(who.email)) }, IP);
    if (!v.ok) throw new Error(v.error);
    const invoice = await sentInvoice(who.id, Y, 29_900);
    const [doc] = await getDb().select({ id: documents.id }).from(documents).where(eq(documents.clientId, who.id));
    return { ids: { versionId: v.versionId, invoiceId: invoice.id }, doc: doc!.id };
  };
  const [ma, mb] = [await made(a), await made(b)];
  ids = { a: ma.ids, b: mb.ids };
  docs = { a: ma.doc, b: mb.doc };
  for (const who of [a, b]) await sendMessage(who.actor, { clientId: who.id, taxYear: Y, body: `Hello from ${who.email}`, category: "other-documents", files: [] }, IP);
  // Alice consents to disclosure; Bob does not answer.
  await consentToDisclose(a);
});

describe("marking staff as working outside the United States", () => {
  it("is an admin's, audited, never on their own account; the team page shows it", async () => {
    const mark = (who: Who, userId: string, outside: "yes" | "no") => post(r.team, "/admin/team", who, { intent: "outside-us", userId, outside });
    expect((await mark(null, preparer.id, "yes")).status).toBe(302);
    expect((await mark(a, preparer.id, "yes")).location).toBe("/dashboard");
    expect((await mark(preparer, preparer.id, "yes")).status).toBe(403);
    expect((await mark(offshore, preparer.id, "yes")).status).toBe(403);
    expect((await mark(admin, admin.id, "yes")).status).toBe(409);
    expect((await mark(admin, a.id, "yes")).status).toBe(404);
    const [before] = await getDb().select({ outside: user.worksOutsideUs }).from(user).where(eq(user.id, preparer.id));
    expect(before!.outside).toBe(false);

    const done = await mark(admin, preparer.id, "yes");
    expect([done.status, (done.body as { message: string }).message]).toEqual([200, OUTSIDE_US_MESSAGES.marked("Pat Preparer")]);
    expect((await mark(admin, preparer.id, "yes")).status).toBe(409);
    const team = (await get(r.team, "/admin/team", admin)).body as { members: Array<{ email: string; worksOutsideUs: boolean }> };
    expect(team.members.find((m) => m.email === preparer.email)!.worksOutsideUs).toBe(true);
    expect((await mark(admin, preparer.id, "no")).status).toBe(200);
    const entries = await getDb().select().from(auditLog).where(eq(auditLog.action, "staff-location-changed"));
    expect(entries.map((e) => e.detail)).toContain(`${preparer.email}: works outside the United States`);
    expect(entries.map((e) => e.detail)).toContain(`${preparer.email}: works in the United States`);
  });

  it("takes them off the cases of clients without the consent to disclose", async () => {
    await getDb().update(clientCases).set({ assigneeId: preparer.id }).where(eq(clientCases.taxYear, Y));
    expect((await setWorksOutsideUs(admin.actor, preparer.id, true, IP)).outcome).toBe("done");
    const cases = await getDb().select({ client: clientCases.userId, assignee: clientCases.assigneeId }).from(clientCases).where(eq(clientCases.taxYear, Y));
    expect(cases.find((c) => c.client === a.id)!.assignee).toBe(preparer.id);
    expect(cases.find((c) => c.client === b.id)!.assignee).toBeNull();
  });
});

describe("what staff outside the United States see", () => {
  const listed = async (who: Account, q = "") =>
    ((await get(r.dashboard, `/admin/dashboard?year=${Y}${q}`, who)).body as { rows: Array<{ id: string }>; matching: number });

  it("the client list, its search, the CSV, the rejected returns and the inbox hold only the clients whose consent to disclose is in force", async () => {
    expect((await listed(preparer)).rows.map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
    const theirs = await listed(offshore);
    expect([theirs.rows.map((x) => x.id), theirs.matching]).toEqual([[a.id], 1]);
    expect((await listed(offshore, "&q=bob")).rows).toEqual([]);
    expect((await listed(offshore, `&q=${b.id}`)).rows).toEqual([]);

    const csv = async (who: Account) => {
      const got = await routeOutcome(() => r.csv.loader({ ...routeArgs(req(`/admin/clients.csv?year=${Y}`, who)), params: {} } as never));
      return text(got);
    };
    expect(await csv(admin)).toContain("Bob Bobolink");
    const offshoreCsv = await csv(offshoreAdmin);
    expect(offshoreCsv).toContain("Alice Aardvark");
    expect(offshoreCsv).not.toContain("Bob Bobolink");

    // The rejected returns above the list: each client's rejection, only Alice's for them.
    for (const who of [a, b]) {
      const [sent] = await getDb()
        .insert(efileEvents)
        .values({ clientId: who.id, taxYear: Y, kind: "transmitted", jurisdiction: "federal", submissionId: "S1", eventDate: newYorkDay(), recordedBy: admin.id })
        .returning({ id: efileEvents.id });
      await getDb()
        .insert(efileEvents)
        .values({ clientId: who.id, taxYear: Y, kind: "rejected", jurisdiction: "federal", transmissionId: sent!.id, eventDate: newYorkDay(), rejectCodes: ["IND-031-04"], recordedBy: admin.id });
    }
    expect((await listRejectedReturns(preparer.actor)).map((x) => x.clientId).sort()).toEqual([a.id, b.id].sort());
    expect((await listRejectedReturns(offshore.actor)).map((x) => x.clientId)).toEqual([a.id]);

    const inbox = async (who: Account) => ((await get(r.inbox, `/admin/inbox?year=${Y}`, who)).body as { rows: Array<{ clientId: string }> }).rows.map((x) => x.clientId);
    expect((await inbox(preparer)).sort()).toEqual([a.id, b.id].sort());
    expect(await inbox(offshore)).toEqual([a.id]);
  });

  it("the panel's counts hold only those clients: the frame's clients and unread messages, the list's counters, no filter counts", async () => {
    type Frame = { totalClients: number; unreadMessages: number };
    type Dashboard = { counters: { total: number }; returnCounts?: unknown; residencyCounts?: unknown };
    const frame = async (who: Account) => (await get(layout, `/admin/dashboard?year=${Y}`, who)).body as Frame;
    const board = async (who: Account) => (await get(r.dashboard, `/admin/dashboard?year=${Y}`, who)).body as Dashboard;
    expect(await frame(preparer)).toMatchObject({ totalClients: 2, unreadMessages: 2 });
    expect(await frame(offshore)).toMatchObject({ totalClients: 1, unreadMessages: 1 });
    const [theirs, everyones] = [await board(offshore), await board(preparer)];
    expect([everyones.counters.total, theirs.counters.total]).toEqual([2, 1]);
    expect(everyones.returnCounts).toBeDefined();
    expect([theirs.returnCounts, theirs.residencyCounts]).toEqual([undefined, undefined]);
  });

  it("every route of a client without that consent answers 403, loader and action alike; with it, the route answers", async () => {
    for (const route of await clientRoutes(b.id, ids.b)) {
      const loaded = await get(route.route, route.url, offshore, route.params);
      expect([route.file, loaded.status, text(loaded)]).toEqual([route.file, 403, OUTSIDE_US_MESSAGES.noConsent]);
      const posted = await post(route.route, route.url, offshore, { intent: "add-note", body: "from abroad" }, route.params);
      expect([route.file, posted.status]).toEqual([route.file, 403]);
      // Other staff are not held back.
      expect([route.file, (await get(route.route, route.url, preparer, route.params)).status]).not.toEqual([route.file, 403]);
    }
    for (const route of await clientRoutes(a.id, ids.a)) {
      if (route.file === "routes/admin/document-upload.ts") continue;
      const loaded = await get(route.route, route.url, offshore, route.params);
      expect([route.file, loaded.status]).toEqual([route.file, 200]);
    }
    expect(await getDb().select().from(auditLog).where(eq(auditLog.detail, "from abroad"))).toEqual([]);
  });

  it("so does every route of app/routes.ts whose address names a client, present and future", async () => {
    const found: Array<{ file: string; path: string }> = [];
    const walk = (entries: readonly RouteConfigEntry[], parent: string) => {
      for (const entry of entries) {
        const path = entry.path === undefined ? parent : `${parent}/${entry.path}`;
        if (path.includes(":clientId")) found.push({ file: entry.file, path });
        walk(entry.children ?? [], path);
      }
    };
    walk(routeConfig, "");
    expect(found.length).toBeGreaterThanOrEqual(16);
    for (const { file, path } of found) {
      const params: Record<string, string> = {};
      for (const [, name] of path.matchAll(/:(\w+)/g)) params[name!] = name === "clientId" ? b.id : name === "year" ? String(Y) : name === "file" ? "invoice.pdf" : "00000000-0000-4000-8000-000000000000";
      const url = path.replace(/:(\w+)/g, (_, name: string) => params[name]!);
      const route = await routeModule(file);
      expect([path, (await get(route, url, offshore, params)).status]).toEqual([path, 403]);
      expect([path, (await post(route, url, offshore, { intent: "x" }, params)).status]).toEqual([path, 403]);
    }
  });

  it("a document's file: 403 without the consent, the file with it", async () => {
    const download = (who: Account, id: string) => get(r.download, `/documents/${id}`, who, { documentId: id });
    const refused = await download(offshore, docs.b);
    expect([refused.status, text(refused)]).toEqual([403, OUTSIDE_US_MESSAGES.noConsent]);
    expect((await download(offshore, docs.a)).status).toBe(200);
    expect((await download(preparer, docs.b)).status).toBe(200);
    expect((await download(offshore, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });

  it("the pages of many clients' records without a filter answer 403", async () => {
    for (const [route, url] of [
      [r.audit, "/admin/audit"],
      [r.payments, "/admin/payments"],
      [r.paymentsCsv, "/admin/payments.csv"],
      [r.notices, "/admin/notices"],
      [r.messages, "/admin/messages"],
    ] as const) {
      expect([url, (await get(route, url, offshoreAdmin)).status]).toEqual([url, 403]);
      expect([url, (await get(route, url, admin)).status]).toEqual([url, 200]);
    }
  });

  it("never a full SSN or ITIN, with or without the consent: no Reveal, and the action answers 403", async () => {
    const url = `/admin/clients/${a.id}/${Y}/taxpayer`;
    const params = { clientId: a.id, year: String(Y) };
    const page = await get(r.taxpayer, url, offshore, params);
    expect(page.status).toBe(200);
    expect((page.body as { mayReveal: boolean }).mayReveal).toBe(false);
    expect(text(page)).not.toContain(SSN);
    const refused = await post(r.taxpayer, url, offshore, { intent: "reveal-ssn" }, params);
    expect([refused.status, refused.body]).toEqual([403, { intent: "reveal-ssn", ok: false, message: OUTSIDE_US_MESSAGES.noReveal }]);
    expect((await post(r.taxpayer, `/admin/clients/${b.id}/${Y}/taxpayer`, offshore, { intent: "reveal-ssn" }, { ...params, clientId: b.id })).status).toBe(403);
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "ssn-revealed"))).toEqual([]);
    // Other staff still reveal it.
    const revealed = await post(r.taxpayer, url, preparer, { intent: "reveal-ssn" }, params);
    expect(revealed.body).toMatchObject({ ok: true, ssn: SSN });
    expect((await get(r.taxpayer, url, preparer, params)).body).toMatchObject({ mayReveal: true });
  });

  it("cannot be assigned a case without the consent, from the list or the case; with it, they can", async () => {
    const assign = (clientId: string, assigneeId: string) => post(r.dashboard, `/admin/dashboard?year=${Y}`, admin, { intent: "assign", clientId, taxYear: String(Y), assigneeId });
    const assigneeOf = async (clientId: string) =>
      (await getDb().select({ id: clientCases.assigneeId }).from(clientCases).where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, Y))))[0]!.id;
    const refused = await assign(b.id, offshore.id);
    expect([refused.status, (refused.body as { message: string }).message]).toEqual([400, OUTSIDE_US_MESSAGES.cannotAssign("Omar Offshore")]);
    expect(await assigneeOf(b.id)).toBeNull();
    const selected = await post(r.dashboard, `/admin/dashboard?year=${Y}`, admin, [
      ["intent", "assign-selected"],
      ["taxYear", String(Y)],
      ["assigneeId", offshore.id],
      ["selected", a.id],
      ["selected", b.id],
    ]);
    expect([selected.status, (selected.body as { message: string }).message]).toEqual([400, OUTSIDE_US_MESSAGES.cannotAssign("Omar Offshore")]);
    expect(await assigneeOf(a.id)).toBeNull();
    const viaCase = await post(r.workflow, `/admin/clients/${b.id}/${Y}/workflow`, admin, { intent: "save-workflow", clientId: b.id, taxYear: String(Y), assigneeId: offshore.id }, { clientId: b.id, year: String(Y) });
    expect([viaCase.status, (viaCase.body as { message: string }).message]).toEqual([400, OUTSIDE_US_MESSAGES.cannotAssign("That staff member")]);
    expect(await assigneeOf(b.id)).toBeNull();
    // Working outside the US, they cannot act on that client from the list either.
    expect((await post(r.dashboard, `/admin/dashboard?year=${Y}`, offshore, { intent: "assign", clientId: b.id, taxYear: String(Y), assigneeId: preparer.id })).status).toBe(404);
    expect((await post(r.dashboard, `/admin/dashboard?year=${Y}`, offshore, { intent: "view-case", clientId: b.id, taxYear: String(Y) })).status).toBe(404);
    expect(await assigneeOf(b.id)).toBeNull();

    expect((await assign(a.id, offshore.id)).status).toBe(200);
    expect(await assigneeOf(a.id)).toBe(offshore.id);
  });

  it("a withdrawal takes effect at the next request: the case leaves their list, its pages answer 403, it is unassigned", async () => {
    await getDb().update(clientCases).set({ assigneeId: offshore.id }).where(and(eq(clientCases.userId, a.id), eq(clientCases.taxYear, Y)));
    const url = `/admin/clients/${a.id}/${Y}`;
    const params = { clientId: a.id, year: String(Y) };
    expect((await get(r.overview, url, offshore, params)).status).toBe(200);
    expect((await withdrawConsent(a.actor, "disclose", IP, UA)).ok).toBe(true);
    expect((await get(r.overview, url, offshore, params)).status).toBe(403);
    expect((await listed(offshore)).rows).toEqual([]);
    expect((await get(r.download, `/documents/${docs.a}`, offshore, { documentId: docs.a })).status).toBe(403);
    const [theCase] = await getDb().select({ id: clientCases.assigneeId }).from(clientCases).where(and(eq(clientCases.userId, a.id), eq(clientCases.taxYear, Y)));
    expect(theCase!.id).toBeNull();
    // Consenting again opens it again.
    await consentToDisclose(a);
    expect((await get(r.overview, url, offshore, params)).status).toBe(200);
  });

  it("a consent past its last day counts as none, and the hourly job takes the client's cases from them", async () => {
    // Assigned while the consent was in force (set directly: the assignment form refuses it now).
    await getDb().update(clientCases).set({ assigneeId: offshore.id }).where(and(eq(clientCases.userId, b.id), eq(clientCases.taxYear, Y)));
    await getDb().update(clientCases).set({ assigneeId: offshore.id }).where(and(eq(clientCases.userId, a.id), eq(clientCases.taxYear, Y)));
    await getDb().insert(consents).values({
      clientId: b.id,
      kind: "disclose",
      decision: "given",
      text: "an older text",
      textSha256: "0".repeat(64),
      textVersion: "older",
      purpose: "p",
      recipient: "r",
      typedName: "Bob Bobolink",
      months: 3,
      inForceThrough: "2025-08-31",
      decidedAt: new Date("2025-06-01T12:00:00Z"),
      retainUntil: new Date("2028-08-31T00:00:00Z"),
    });
    expect((await get(r.overview, `/admin/clients/${b.id}/${Y}`, offshore, { clientId: b.id, year: String(Y) })).status).toBe(403);
    expect((await listed(offshore)).rows.map((x) => x.id)).toEqual([a.id]);
    // The job unassigns the lapsed client's case only (A's consent is in force), audited; run again, nothing.
    expect(await unassignLapsedDisclosures()).toBe(1);
    const assignees = await getDb().select({ id: clientCases.userId, assignee: clientCases.assigneeId }).from(clientCases).where(eq(clientCases.taxYear, Y));
    expect(Object.fromEntries(assignees.map((x) => [x.id, x.assignee]))).toMatchObject({ [a.id]: offshore.id, [b.id]: null });
    const audited = await getDb().select({ client: auditLog.clientId, detail: auditLog.detail, actor: auditLog.actorId }).from(auditLog).where(eq(auditLog.action, "case-assigned"));
    expect(audited).toContainEqual({ client: b.id, detail: "assignee: none (consent to disclose expired)", actor: null });
    expect(await unassignLapsedDisclosures()).toBe(0);
  });
});
