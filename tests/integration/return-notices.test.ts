// The e-mails about a case's return (app/server/notices/return-notices.server.ts): the client is
// told when a draft waits for their review and when a signature is asked for (the spouse gets
// their own link); the case's staff member (else the firm's address) when the client approves,
// asks for changes, or a signer uploads a hand-signed form. Links only, queued in the outbox in
// the event's own transaction. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
import { rmSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { clientCode } from "~/domain/admin";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { clientCases, mailOutbox, user } from "~/server/db/schema";
import { uploadHandwritten } from "~/server/returns/handwritten.server";
import { approveReturnVersion, requestReturnChanges } from "~/server/returns/reviews.server";
import { requestSignature } from "~/server/returns/signature-requests.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";
import { IP, jpeg, pdf, received, UA } from "../helpers/returns";
import { feeCast } from "../helpers/fees";
import { letterAccepted } from "../helpers/engagement";
import type { Account } from "../helpers/returns";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { sentMail } from "./helpers";

const Y = currentFilingYear();
const APP = "http://localhost:3000";

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  ({ admin, preparer, a, b } = await feeCast());
  for (const who of [a, b]) await letterAccepted(admin, who, Y);
  // The letters' own e-mails are not this file's subject: sent, and cleared.
  await sentMail();
  rmSync(path.join(process.env.DATA_DIR!, "outbox"), { recursive: true, force: true });
});

const caseA = () => ({ clientId: a.id, taxYear: Y });
const aLabel = async () => {
  const [row] = await getDb().select({ number: clientCases.number }).from(clientCases).where(and(eq(clientCases.userId, a.id), eq(clientCases.taxYear, Y)));
  return `${clientCode(row!.number)} Alice Aardvark`;
};
const assign = (who: Account | null) =>
  getDb().update(clientCases).set({ assigneeId: who?.id ?? null }).where(and(eq(clientCases.userId, a.id), eq(clientCases.taxYear, Y)));
const mailsTo = async (to: string) => (await sentMail()).filter((m) => m.to === to);

async function draft(tag = "v1"): Promise<string> {
  const v = await uploadReturnVersion(preparer.actor, caseA(), { form: "1040-NR", note: "Your wages and the treaty exemption.", file: await received(`${tag}.pdf`, pdf(tag)) }, IP);
  if (!v.ok) throw new Error(v.error);
  return v.versionId;
}

async function approved(): Promise<string> {
  const versionId = await draft();
  const done = await approveReturnVersion(a.actor, versionId, { ip: IP, userAgent: UA, declarationVersion: "d1" });
  if (!done.ok) throw new Error(done.error);
  return versionId;
}

/** What every notice of these may carry: its words and one link, never the return, a file or tax data. */
function expectLinkOnly(mail: { raw: string; text: string }, link: string) {
  expect(mail.text.match(/https?:\/\/\S+/g)).toEqual([link]);
  expect(mail.raw).not.toMatch(/Content-Disposition: attachment|application\/pdf/i);
  for (const secret of [sampleTaxpayer.ssn_tin, "treaty exemption", "%PDF"]) expect(mail.raw).not.toContain(secret);
}

describe("the client's e-mails about their return", () => {
  it("tells the client when a draft waits for their review, at each new version, and nobody else", async () => {
    await draft("v1");
    const [first, ...more] = await mailsTo("alice@example.com");
    expect(more).toEqual([]);
    expect(first!.subject).toBe(`Your ${Y} tax return is ready for your review`);
    expect(first!.text).toContain(`Hello Alice Aardvark, TaxBridge has prepared a draft of your ${Y} tax return for you to review.`);
    expectLinkOnly(first!, `${APP}/my-tax-filing/${Y}`);
    await draft("v2");
    expect((await mailsTo("alice@example.com")).map((m) => m.subject)).toEqual([
      `Your ${Y} tax return is ready for your review`,
      `Your ${Y} tax return is ready for your review`,
    ]);
    expect(await mailsTo("bob@example.com")).toEqual([]);
    expect(await mailsTo("staff@taxbridge.test")).toEqual([]);
    // Queued with the version: one row per version, written in its transaction.
    expect(await getDb().select({ kind: mailOutbox.kind }).from(mailOutbox).where(eq(mailOutbox.kind, "draft-ready"))).toHaveLength(2);
  });

  it("does not e-mail a deactivated client, and a refused upload e-mails nobody", async () => {
    const refused = await uploadReturnVersion(preparer.actor, caseA(), { form: "1040-ZZ", note: "", file: await received("v1.pdf", pdf("v1")) }, IP);
    expect(refused.ok).toBe(false);
    await getDb().update(user).set({ deactivatedAt: new Date() }).where(eq(user.id, a.id));
    await draft();
    expect(await sentMail()).toEqual([]);
    expect(await getDb().select().from(mailOutbox).where(eq(mailOutbox.kind, "draft-ready"))).toEqual([]);
  });

  it("asks the client to sign, with a link to their filing; the spouse gets a signing link of their own", async () => {
    const versionId = await approved();
    const r = await requestSignature(
      preparer.actor,
      versionId,
      { formFile: await received("8879.pdf", pdf("8879")), jointReturn: true, spouse: { name: "Meera Kumar", email: "meera@example.com" } },
      IP,
    );
    expect(r.ok).toBe(true);
    const toClient = (await mailsTo("alice@example.com")).filter((m) => m.subject === `Please sign the e-file authorisation of your ${Y} tax return`);
    expect(toClient).toHaveLength(1);
    expectLinkOnly(toClient[0]!, `${APP}/my-tax-filing/${Y}`);
    const [toSpouse, ...more] = await mailsTo("meera@example.com");
    expect(more).toEqual([]);
    expect(toSpouse!.subject).toBe(`Please sign the e-file authorisation of your ${Y} tax return`);
    expect(toSpouse!.text).toMatch(new RegExp(`Review and sign: ${APP}/sign/[A-Za-z0-9_-]{43}\\n`));
    expect(await mailsTo("bob@example.com")).toEqual([]);
  });
});

describe("staff's e-mails about what the client did on the return", () => {
  it("tells the assigned preparer at once when the client approves the draft, with a link to the case's return", async () => {
    await assign(preparer);
    await approved();
    const [notice, ...more] = await mailsTo("pat.preparer@example.com");
    expect(more).toEqual([]);
    const label = await aLabel();
    expect(notice!.subject).toBe(`${label} approved the draft return (${Y})`);
    expect(notice!.text).toContain(`${label} approved the draft return for tax year ${Y}.`);
    expect(notice!.text).toContain("You can now request the signatures of the e-file authorisation.");
    expectLinkOnly(notice!, `${APP}/admin/clients/${a.id}/${Y}/return`);
    expect(await mailsTo("staff@taxbridge.test")).toEqual([]);
    expect(await mailsTo(admin.email)).toEqual([]);
  });

  it("tells the firm's address when nobody is assigned, when the client asks for changes; a refused request tells nobody", async () => {
    const versionId = await draft();
    expect((await requestReturnChanges(a.actor, versionId, "   ", { ip: IP, userAgent: UA })).ok).toBe(false);
    expect((await requestReturnChanges(b.actor, versionId, "Not mine", { ip: IP, userAgent: UA })).ok).toBe(false);
    expect(await getDb().select().from(mailOutbox).where(eq(mailOutbox.kind, "return-staff-notice"))).toEqual([]);

    const asked = await requestReturnChanges(a.actor, versionId, "My address changed in March.", { ip: IP, userAgent: UA });
    expect(asked.ok).toBe(true);
    const label = await aLabel();
    const notices = (await mailsTo("staff@taxbridge.test")).filter((m) => m.subject === `${label} asked for changes to the draft return (${Y})`);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain("Their comments are in the case's conversation.");
    expect(notices[0]!.raw).not.toContain("My address changed");
    expectLinkOnly(notices[0]!, `${APP}/admin/clients/${a.id}/${Y}/return`);
  });

  it("tells staff when the client or the spouse uploads a hand-signed form", async () => {
    await assign(preparer);
    const versionId = await approved();
    const r = await requestSignature(
      preparer.actor,
      versionId,
      { formFile: await received("8879.pdf", pdf("8879")), jointReturn: true, spouse: { name: "Meera Kumar", email: "meera@example.com" } },
      IP,
    );
    if (!r.ok) throw new Error(r.error);
    const up = await uploadHandwritten({ client: a.actor, requestId: r.requestId }, await received("scan.jpg", jpeg()), IP);
    expect(up.ok).toBe(true);
    const token = /\/sign\/([A-Za-z0-9_-]+)/.exec((await mailsTo("meera@example.com"))[0]!.text)![1]!;
    const spouseUp = await uploadHandwritten({ token }, await received("spouse.jpg", jpeg()), IP);
    expect(spouseUp.ok).toBe(true);
    // Another client cannot upload onto Alice's request: nothing is told.
    const other = await uploadHandwritten({ client: b.actor, requestId: r.requestId }, await received("b.jpg", jpeg()), IP);
    expect(other.ok).toBe(false);

    const label = await aLabel();
    // Each goes after its own call: in whatever order they arrive.
    const toPreparer = (await mailsTo("pat.preparer@example.com")).map((m) => m.subject);
    expect(toPreparer.sort()).toEqual(
      [
        `${label} approved the draft return (${Y})`,
        `${label} uploaded a hand-signed e-file authorisation (${Y})`,
        `The spouse of ${label} uploaded a hand-signed e-file authorisation (${Y})`,
      ].sort(),
    );
    const uploaded = (await mailsTo("pat.preparer@example.com")).find((m) => m.subject.startsWith(`${label} uploaded`));
    expect(uploaded!.text).toContain("Check it, then accept it or send it back with a reason.");
    expectLinkOnly(uploaded!, `${APP}/admin/clients/${a.id}/${Y}/return`);
  });
});
