import { createHash } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_ENGAGEMENT_TEMPLATES } from "~/content/engagement-templates";
import { ENGAGEMENT_MESSAGES as M } from "~/domain/engagement";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { auditLog, engagementLetters, engagementResponses, engagementTemplateVersions, mailOutbox, returnVersions } from "~/server/db/schema";
import { answerLetter, currentLetter, currentTemplates, draftWaitsForLetter, saveTemplate, sendLetter, setLetterRequired } from "~/server/engagement/letters.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";
import { feeCast } from "../helpers/fees";
import { IP, pdf, received, UA } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome, unwrap } from "../helpers/route";
import { withCookie } from "./helpers";
import { account } from "../helpers/returns";
import { answerConsent, consentPage } from "~/server/consents/consents.server";
import { setWorksOutsideUs } from "~/server/consents/outside-us.server";

// The engagement letter (docs/product/engagement.md): admins' templates, each save a version kept
// for good; a case's letter made from the current version with the client's name, year, service
// and fee; the client's answer, once, with the typed name checked; the draft held while the firm
// requires an accepted letter; the records append-only; every route as a visitor, each client, a
// preparer and an admin.

const Y = currentFilingYear();
const where = { ip: IP, userAgent: UA };
const clientPage = routeModule("routes/portal/filing-engagement.tsx");
const clientPdf = routeModule("routes/portal/filing-engagement-pdf.ts");
const casePage = routeModule("routes/admin/case/engagement.tsx");
const casePdf = routeModule("routes/admin/engagement-letter-file.ts");
const templatesPage = routeModule("routes/admin/engagement.tsx");

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;
beforeEach(async () => {
  ({ admin, preparer, a, b } = await feeCast());
});

const refA = () => ({ clientId: a.id, taxYear: Y });
const letterName = "Ravi Kumar";
const records = async () => ({
  versions: await getDb().select().from(engagementTemplateVersions),
  letters: await getDb().select().from(engagementLetters),
  answers: await getDb().select().from(engagementResponses),
});
const auditOf = (action: string) => getDb().select().from(auditLog).where(eq(auditLog.action, action as never));

async function sentLetter(service = "1040-nr") {
  const sent = await sendLetter(admin.actor, refA(), service, IP);
  if (!sent.ok) throw new Error(JSON.stringify(sent));
  return (await currentLetter(refA()))!;
}

describe("the templates", () => {
  it("start from the product's text (version 0), and each admin's save is a new version kept, audited", async () => {
    const first = (await currentTemplates()).find((t) => t.service === "1040-nr")!;
    expect([first.version, first.body]).toEqual([0, DEFAULT_ENGAGEMENT_TEMPLATES["1040-nr"]]);
    const body = "Dear {{client_name}},\n\nWe prepare your {{tax_year}} {{service}} for {{fee}}.\n\n{{firm_name}}";
    expect(await saveTemplate(admin.actor, "1040-nr", body, IP)).toEqual({ ok: true, version: 1 });
    expect(await saveTemplate(admin.actor, "1040-nr", `${body}\n`, IP)).toEqual({ ok: true, version: 2 });
    const now = (await currentTemplates()).find((t) => t.service === "1040-nr")!;
    expect([now.version, now.body, now.savedBy]).toEqual([2, `${body}\n`, "Sam Admin"]);
    expect((await getDb().select().from(engagementTemplateVersions)).map((v) => v.version).sort()).toEqual([1, 2]);
    expect((await auditOf("engagement-template-saved")).map((e) => e.detail)).toEqual([
      "Federal nonresident return (Form 1040-NR): version 1",
      "Federal nonresident return (Form 1040-NR): version 2",
    ]);
  });

  it("refuse a wrong template with its message, and a preparer, storing nothing", async () => {
    const before = await records();
    const cases: [string, string, Record<string, string>][] = [
      ["1040-nr", "   ", { body: M.templateEmpty }],
      ["1040-nr", "Dear {{client_name}}, {{fee}} {{clientname}}", { body: M.unknownField(["clientname"]) }],
      ["1040-nr", "Dear {{client_name}}, no fee here", { body: M.needsFields }],
      ["1040-nr", "Dear {{client_name}}, {{fee}}\u0007", { body: M.controlCharacters }],
      ["1040-nr", `Dear {{client_name}}, {{fee}} ${"x".repeat(20_001)}`, { body: M.templateTooLong }],
      ["w-2", "Dear {{client_name}}, {{fee}}", { service: M.unknownService }],
    ];
    for (const [service, body, errors] of cases) expect(await saveTemplate(admin.actor, service, body, IP)).toEqual({ ok: false, status: 400, errors });
    expect((await saveTemplate(preparer.actor, "1040-nr", "Dear {{client_name}}, {{fee}}", IP)).ok).toBe(false);
    expect(await records()).toEqual(before);
  });
});

describe("a case's letter", () => {
  it("is the current template with the client's name, year, service and fee, its SHA-256 kept; the client is e-mailed a link", async () => {
    const letter = await sentLetter();
    expect(letter.text).toContain(`Dear ${letterName},`);
    expect(letter.text).toContain(`for the ${Y} tax year`);
    expect(letter.text).toContain("Our fee for this work is $299.00 (Standard Filing (per tax year))");
    expect(letter.text).not.toMatch(/\{\{/);
    expect(letter.sha256).toBe(createHash("sha256").update(letter.text, "utf8").digest("hex"));
    expect([letter.service, letter.feeCents, letter.templateVersion, letter.answer]).toEqual(["1040-nr", 29_900, 1, null]);
    const mails = await getDb().select().from(mailOutbox).where(eq(mailOutbox.kind, "engagement-letter"));
    expect(mails.map((m) => [m.recipient, (m.payload as { url: string }).url])).toEqual([[a.email, `http://localhost:3000/my-tax-filing/${Y}/engagement`]]);
    expect(JSON.stringify(mails[0]!.payload)).not.toContain("299");
    expect((await auditOf("engagement-letter-sent")).map((e) => [e.clientId, e.taxYear])).toEqual([[a.id, Y]]);
  });

  it("is accepted once, with the box ticked and the name the letter gives, keeping when, where and which browser", async () => {
    const letter = await sentLetter();
    const accept = (over: Partial<{ agree: boolean; typedName: string }>) =>
      answerLetter(a.actor, Y, { letterId: letter.id, decision: "accepted", agree: true, typedName: letterName, ...over }, where);
    expect(await accept({ agree: false, typedName: "" })).toEqual({ ok: false, status: 400, errors: { agree: M.mustAgree, typedName: M.nameRequired } });
    expect(await accept({ typedName: "Alice Aardvark" })).toEqual({ ok: false, status: 400, errors: { typedName: M.nameMismatch(letterName) } });
    expect(await getDb().select().from(engagementResponses)).toEqual([]);
    expect(await accept({ typedName: "  ravi   KUMAR " })).toEqual({ ok: true });
    expect(await accept({})).toEqual({ ok: false, status: 409, errors: { form: M.alreadyAnswered } });
    const answered = (await currentLetter(refA()))!.answer!;
    expect([answered.decision, answered.typedName, answered.ip, answered.userAgent, answered.reason]).toEqual(["accepted", "ravi   KUMAR", IP, UA, null]);
    expect((await auditOf("engagement-letter-accepted")).length).toBe(1);
  });

  it("is declined with a reason, which the case's staff member is told of; a replaced letter is not answered", async () => {
    const first = await sentLetter();
    expect(await answerLetter(a.actor, Y, { letterId: first.id, decision: "declined", reason: " " }, where)).toEqual({ ok: false, status: 400, errors: { reason: M.reasonRequired } });
    const second = await sentLetter("1040");
    expect(await answerLetter(a.actor, Y, { letterId: first.id, decision: "declined", reason: "Too dear" }, where)).toEqual({ ok: false, status: 409, errors: { form: M.superseded } });
    expect(await answerLetter(a.actor, Y, { letterId: second.id, decision: "declined", reason: "The fee is more than I expected." }, where)).toEqual({ ok: true });
    const notices = await getDb().select().from(mailOutbox).where(eq(mailOutbox.kind, "return-staff-notice"));
    expect(notices.map((n) => (n.payload as { step: string; url: string }).step)).toEqual(["engagement-declined"]);
    expect((notices[0]!.payload as { url: string }).url).toMatch(new RegExp(`/admin/clients/${a.id}/${Y}/engagement$`));
    // Client B answers nothing of A's, and has no letter of their own.
    expect((await answerLetter(b.actor, Y, { letterId: second.id, decision: "declined", reason: "x" }, where)).ok).toBe(false);
    expect(await currentLetter({ clientId: b.id, taxYear: Y })).toBeNull();
  });
});

describe("the draft waits for the letter", () => {
  it("while the case has no accepted letter (none sent yet, waiting, or declined) and the firm requires it", async () => {
    const draft = async () => uploadReturnVersion(admin.actor, refA(), { form: "1040-NR", note: "", file: await received("v.pdf", pdf("v")) }, IP);
    const drafts = async () => (await getDb().select().from(returnVersions).where(eq(returnVersions.clientId, a.id))).length;
    // No letter yet: the draft is refused, and nothing is kept of it.
    expect(await draftWaitsForLetter(refA())).toBe(true);
    expect(await draft()).toEqual({ ok: false, error: M.draftWaits });
    expect(await drafts()).toBe(0);
    // An admin turns the requirement off, and on again (both audited).
    await setLetterRequired(admin.actor, false, IP);
    expect(await draftWaitsForLetter(refA())).toBe(false);
    await setLetterRequired(admin.actor, true, IP);
    expect((await auditOf("engagement-setting-changed")).length).toBe(2);
    // Sent and waiting, then declined: still refused.
    const first = await sentLetter();
    expect(await draft()).toEqual({ ok: false, error: M.draftWaits });
    await answerLetter(a.actor, Y, { letterId: first.id, decision: "declined", reason: "The fee is more than I expected." }, where);
    expect(await draft()).toEqual({ ok: false, error: M.draftWaits });
    expect(await drafts()).toBe(0);
    // A new letter, accepted: the draft goes. Client B's case, with no letter, still waits.
    const second = await sentLetter();
    await answerLetter(a.actor, Y, { letterId: second.id, decision: "accepted", agree: true, typedName: letterName }, where);
    expect(await draftWaitsForLetter(refA())).toBe(false);
    expect((await draft()).ok).toBe(true);
    expect(await drafts()).toBe(1);
    expect(await draftWaitsForLetter({ clientId: b.id, taxYear: Y })).toBe(true);
  });
});

describe("the client list", () => {
  it("marks each case whose letter the draft waits for (none sent, unsigned, declined) and no other, while the firm requires it", async () => {
    const { loader } = await routeModule("routes/admin/dashboard.tsx");
    const marks = async (who: Account = preparer) => {
      const { body } = unwrap<{ rows: { name: string; letter: string | null }[] }>(await loader(routeArgs(withCookie(`/admin/dashboard?year=${Y}`, who.cookie)) as never));
      return Object.fromEntries(body.rows.map((r) => [r.name, r.letter]));
    };
    expect(await marks()).toEqual({ "Alice Aardvark": "none", "Bob Bobolink": "none" });
    const first = await sentLetter();
    expect(await marks(admin)).toEqual({ "Alice Aardvark": "sent", "Bob Bobolink": "none" });
    await answerLetter(a.actor, Y, { letterId: first.id, decision: "declined", reason: "The fee is more than I expected." }, where);
    expect(await marks()).toEqual({ "Alice Aardvark": "declined", "Bob Bobolink": "none" });
    const second = await sentLetter();
    await answerLetter(a.actor, Y, { letterId: second.id, decision: "accepted", agree: true, typedName: letterName }, where);
    expect(await marks()).toEqual({ "Alice Aardvark": null, "Bob Bobolink": "none" });
    await setLetterRequired(admin.actor, false, IP);
    expect(await marks()).toEqual({ "Alice Aardvark": null, "Bob Bobolink": null });
  });
});

describe("the records", () => {
  it("refuse every UPDATE and DELETE", async () => {
    const letter = await sentLetter();
    await answerLetter(a.actor, Y, { letterId: letter.id, decision: "accepted", agree: true, typedName: letterName }, where);
    const refused = async (statement: ReturnType<typeof sql>) => {
      try {
        await getDb().execute(statement);
        return "changed";
      } catch (error) {
        return String((error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message);
      }
    };
    for (const table of ["engagement_template_versions", "engagement_letters", "engagement_responses"]) {
      expect(await refused(sql.raw(`update ${table} set created_at = created_at`))).toMatch(new RegExp(`${table} is append-only: UPDATE refused`));
      expect(await refused(sql.raw(`delete from ${table}`))).toMatch(new RegExp(`${table} is append-only: DELETE refused`));
    }
    expect((await currentLetter(refA()))!.answer!.decision).toBe("accepted");
  });
});

describe("the routes", () => {
  const req = (url: string, cookie: string, init: RequestInit = {}) => withCookie(url, cookie, init);
  const form = (fields: Record<string, string>) => ({
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });

  it("the client's page: a visitor signs in, each client reads and answers only their own, staff find nothing", async () => {
    const letter = await sentLetter();
    const { loader, action } = await clientPage;
    const load = (cookie: string) =>
      routeOutcome<{ letter: { id: string } | null }>(() => loader({ ...routeArgs(req(`/my-tax-filing/${Y}/engagement`, cookie)), params: { year: String(Y) } } as never));
    expect((await load("")).status).toBe(302);
    expect((await load(a.cookie)).body.letter?.id).toBe(letter.id);
    expect((await load(b.cookie)).body.letter).toBeNull();
    for (const member of [preparer, admin]) expect([302, 404]).toContain((await load(member.cookie)).status);
    // Client B posting A's letter id answers nothing of A's.
    const post = (cookie: string, fields: Record<string, string>) =>
      routeOutcome(() => action({ ...routeArgs(req(`/my-tax-filing/${Y}/engagement`, cookie, form(fields))), params: { year: String(Y) } } as never));
    expect((await post(b.cookie, { intent: "decline", letterId: letter.id, reason: "not mine" })).status).toBe(404);
    expect((await post(a.cookie, { intent: "accept", letterId: letter.id, typedName: letterName })).status).toBe(400);
    const accepted = await post(a.cookie, { intent: "accept", letterId: letter.id, typedName: letterName, agree: "on" });
    expect([accepted.status, accepted.location]).toEqual([302, `/my-tax-filing/${Y}/engagement?done=accepted`]);
  });

  it("the signed letter's PDF: the client's own and staff's of the case; never another client's", async () => {
    const letter = await sentLetter();
    const pdfOf = async (cookie: string) => {
      const { loader } = await clientPdf;
      return routeOutcome(() => loader({ ...routeArgs(req(`/my-tax-filing/${Y}/engagement/${letter.id}/pdf`, cookie)), params: { year: String(Y), letterId: letter.id } } as never));
    };
    expect((await pdfOf(a.cookie)).status).toBe(404); // not accepted yet
    await answerLetter(a.actor, Y, { letterId: letter.id, decision: "accepted", agree: true, typedName: letterName }, where);
    const mine = await pdfOf(a.cookie);
    expect([mine.status, mine.headers.get("content-type")]).toEqual([200, "application/pdf"]);
    expect((await pdfOf(b.cookie)).status).toBe(404);
    expect((await pdfOf("")).status).toBe(302);
    const staffPdf = async (cookie: string, clientId: string) => {
      const { loader } = await casePdf;
      return routeOutcome(() =>
        loader({ ...routeArgs(req(`/admin/clients/${clientId}/engagement-letters/${letter.id}`, cookie)), params: { clientId, letterId: letter.id } } as never),
      );
    };
    expect((await staffPdf(preparer.cookie, a.id)).status).toBe(200);
    expect((await staffPdf(admin.cookie, b.id)).status).toBe(404);
    expect((await staffPdf(a.cookie, a.id)).status).toBe(302);
  });

  it("the signed letter is among the case's documents for both sides, a declined one is not; another client's documents never list it", async () => {
    const { loader: filingLoader } = await routeModule("routes/portal/filing.tsx");
    const { loader: documentsLoader } = await routeModule("routes/admin/case/documents.tsx");
    const clientSees = async (who: Account) =>
      unwrap<{ signedLetters: { id: string }[] }>(await filingLoader({ ...routeArgs(req(`/my-tax-filing/${Y}`, who.cookie)), params: { year: String(Y) } } as never)).body
        .signedLetters.map((l) => l.id);
    const staffSees = async (who: Account, client: Account) =>
      unwrap<{ signedLetters: { id: string }[] }>(
        await documentsLoader({ ...routeArgs(req(`/admin/clients/${client.id}/${Y}/documents`, who.cookie)), params: { clientId: client.id, year: String(Y) } } as never),
      ).body.signedLetters.map((l) => l.id);
    const declined = await sentLetter();
    await answerLetter(a.actor, Y, { letterId: declined.id, decision: "declined", reason: "The fee is more than I expected." }, where);
    expect([await clientSees(a), await staffSees(preparer, a)]).toEqual([[], []]);
    const letter = await sentLetter();
    await answerLetter(a.actor, Y, { letterId: letter.id, decision: "accepted", agree: true, typedName: letterName }, where);
    expect([await clientSees(a), await staffSees(preparer, a), await staffSees(admin, a)]).toEqual([[letter.id], [letter.id], [letter.id]]);
    expect([await clientSees(b), await staffSees(admin, b)]).toEqual([[], []]);
  });

  it("staff's pages: the case section for both roles, the templates for admins only", async () => {
    const { loader: caseLoader, action: caseAction } = await casePage;
    const caseArgs = (cookie: string, init: RequestInit = {}) => ({
      ...routeArgs(req(`/admin/clients/${a.id}/${Y}/engagement`, cookie, init)),
      params: { clientId: a.id, year: String(Y) },
    });
    expect((await routeOutcome(() => caseLoader(caseArgs("") as never))).status).toBe(302);
    expect((await routeOutcome(() => caseLoader(caseArgs(a.cookie) as never))).status).toBe(302);
    expect((await routeOutcome(() => caseLoader(caseArgs(preparer.cookie) as never))).status).toBe(200);
    const sent = await routeOutcome(() => caseAction(caseArgs(preparer.cookie, form({ intent: "send-letter", service: "itin" })) as never));
    expect(sent.status).toBe(302);
    expect((await currentLetter(refA()))!.service).toBe("itin");
    const bad = await routeOutcome<{ errors: Record<string, string> }>(() => caseAction(caseArgs(admin.cookie, form({ intent: "send-letter", service: "nope" })) as never));
    expect([bad.status, bad.body.errors]).toEqual([400, { service: M.unknownService }]);
    // A client's post to the section changes nothing.
    expect((await routeOutcome(() => caseAction(caseArgs(a.cookie, form({ intent: "send-letter", service: "1040" })) as never))).status).toBe(302);
    expect((await getDb().select().from(engagementLetters).orderBy(desc(engagementLetters.createdAt))).length).toBe(1);

    const { loader: tplLoader, action: tplAction } = await templatesPage;
    const tplArgs = (cookie: string, init: RequestInit = {}) => ({ ...routeArgs(req("/admin/engagement", cookie, init)), params: {} });
    expect((await routeOutcome(() => tplLoader(tplArgs(admin.cookie) as never))).status).toBe(200);
    expect((await routeOutcome(() => tplLoader(tplArgs(preparer.cookie) as never))).status).toBe(403);
    expect((await routeOutcome(() => tplLoader(tplArgs(a.cookie) as never))).status).toBe(302);
    expect((await routeOutcome(() => tplAction(tplArgs(preparer.cookie, form({ intent: "set-required" })) as never))).status).toBe(403);
    const off = await routeOutcome(() => tplAction(tplArgs(admin.cookie, form({ intent: "set-required" })) as never));
    expect([off.status, off.location]).toEqual([302, "/admin/engagement?done=setting"]);
    expect(await draftWaitsForLetter(refA())).toBe(false);
  });

  it("a preparer outside the United States: the templates 403, the case's section and the letter's PDF only under the client's consent to disclose, never the client's page", async () => {
    const offshore = await account("omar.offshore@example.com", "Omar Offshore", "preparer");
    expect((await setWorksOutsideUs(admin.actor, offshore.id, true, IP)).outcome).toBe("done");
    const letter = await sentLetter();
    await answerLetter(a.actor, Y, { letterId: letter.id, decision: "accepted", agree: true, typedName: letterName }, where);
    const { loader: tplLoader } = await templatesPage;
    const { loader: caseLoader, action: caseAction } = await casePage;
    const { loader: pdfLoader } = await casePdf;
    const { loader: clientLoader } = await clientPage;
    const caseArgs = (init: RequestInit = {}) => ({ ...routeArgs(req(`/admin/clients/${a.id}/${Y}/engagement`, offshore.cookie, init)), params: { clientId: a.id, year: String(Y) } });
    const pdfArgs = () => ({ ...routeArgs(req(`/admin/clients/${a.id}/engagement-letters/${letter.id}`, offshore.cookie)), params: { clientId: a.id, letterId: letter.id } });
    expect((await routeOutcome(() => tplLoader({ ...routeArgs(req("/admin/engagement", offshore.cookie)), params: {} } as never))).status).toBe(403);
    expect([302, 404]).toContain((await routeOutcome(() => clientLoader({ ...routeArgs(req(`/my-tax-filing/${Y}/engagement`, offshore.cookie)), params: { year: String(Y) } } as never))).status);
    expect((await routeOutcome(() => caseLoader(caseArgs() as never))).status).toBe(403);
    expect((await routeOutcome(() => caseAction(caseArgs(form({ intent: "send-letter", service: "itin" })) as never))).status).toBe(403);
    expect((await routeOutcome(() => pdfLoader(pdfArgs() as never))).status).toBe(403);
    expect((await currentLetter(refA()))!.id).toBe(letter.id);
    // The client consents to disclose: the section and the PDF answer.
    const shown = await consentPage(a.actor, "disclose");
    expect((await answerConsent(a.actor, { kind: "disclose", decision: "given", typedName: a.actor.name, months: 12, shownSha256: shown!.sha256 }, IP, UA)).ok).toBe(true);
    expect((await routeOutcome(() => caseLoader(caseArgs() as never))).status).toBe(200);
    expect((await routeOutcome(() => pdfLoader(pdfArgs() as never))).status).toBe(200);
  });
});
