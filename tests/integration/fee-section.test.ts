import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { CaseFeesData, FEE_DONE } from "~/domain/fee-section";
import { FEE_MESSAGES } from "~/domain/fees";
import { NOT_FOR_YOUR_ROLE } from "~/domain/policy";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { auditLog, clientCases, invoices, payments, refunds } from "~/server/db/schema";
import { dayFromToday } from "../helpers/returns";
import { feeCast } from "../helpers/fees";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { withCookie } from "./helpers";

// The staff's Fee section of a case (/admin/clients/:clientId/:year/fee) and the admins'
// Payments page and CSV, their loaders and actions run as the server runs them (behind the admin
// panel's layout): a visitor, a client, a preparer (no voiding, no refunds, no Payments page)
// and an admin.

const Y = currentFilingYear();
const sectionRoute = routeModule("routes/admin/case/fee.tsx");
const paymentsRoute = routeModule("routes/admin/payments.tsx");
const csvRoute = routeModule("routes/admin/payments-csv.ts");

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  ({ admin, preparer, a, b } = await feeCast('=Alice, "the" Aardvark'));
});

const sectionUrl = (clientId: string, search = "") => `/admin/clients/${clientId}/${Y}/fee${search}`;
const params = (clientId = a.id) => ({ clientId, year: String(Y) });

type Answer = { status: number; location: string | null; body: { intent?: string; ok?: boolean; message?: string } | null; text?: string };

async function answerOf(call: () => Promise<unknown>): Promise<Answer> {
  let result: unknown;
  try {
    result = await call();
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, location: result.headers.get("location"), body: null, text: result.body ? await result.text() : "" };
  const { status, body } = unwrap<Answer["body"]>(result);
  return { status, location: null, body };
}

async function load(cookie: string, clientId = a.id) {
  const { loader } = await sectionRoute;
  const answer = await answerOf(() => loader({ ...routeArgs(withCookie(sectionUrl(clientId), cookie)), params: params(clientId) }));
  return answer as Answer & { body: { fees: CaseFeesData; isAdmin: boolean; defaultDueOn: string } | null };
}

async function post(cookie: string, fields: Array<[string, string]>, clientId = a.id): Promise<Answer> {
  const { action } = await sectionRoute;
  const body = new URLSearchParams(fields);
  return answerOf(() => action({ ...routeArgs(withCookie(sectionUrl(clientId), cookie, { method: "POST", body })), params: params(clientId) }));
}

const doneAt = (key: keyof typeof FEE_DONE, clientId = a.id) => ({ status: 302, location: sectionUrl(clientId, `?done=${key}`) });

const invoiceFields = (then: "save" | "send"): Array<[string, string]> => [
  ["intent", "create-invoice"],
  ["line-item", "standard-filing"],
  ["line-description", "Standard Filing (per tax year)"],
  ["line-quantity", "1"],
  ["line-unit", "299.00"],
  ["line-item", ""],
  ["line-description", "FBAR for two accounts"],
  ["line-quantity", "2"],
  ["line-unit", "100"],
  // A blank line, as the form without its script sends it: ignored.
  ["line-item", ""],
  ["line-description", ""],
  ["line-quantity", "1"],
  ["line-unit", ""],
  ["discount", "49.00"],
  ["notes", "Thank you"],
  ["dueOn", dayFromToday(14)],
  ["then", then],
];

const fees = async () => (await load(admin.cookie)).body!.fees;

describe("who may use the Fee section", () => {
  it("sends a visitor to sign in and a client to their home, and changes nothing", async () => {
    for (const [cookie, location] of [
      ["", `/login?redirectTo=${encodeURIComponent(sectionUrl(a.id))}`],
      [a.cookie, "/dashboard"],
      [b.cookie, "/dashboard"],
    ] as const) {
      expect(await load(cookie)).toMatchObject({ status: 302, location });
      expect(await post(cookie, invoiceFields("send"))).toMatchObject({ status: 302, location });
    }
    expect(await getDb().select().from(invoices)).toHaveLength(0);
  });

  it("lets a preparer make, send and take a payment, and refuses them voiding and refunds (403, nothing changes)", async () => {
    const loaded = await load(preparer.cookie);
    expect(loaded.status).toBe(200);
    expect(loaded.body).toMatchObject({ isAdmin: false, defaultDueOn: dayFromToday(14), fees: { invoices: [], gate: { waitForPayment: true, releasedBeforePayment: false, locked: false } } });

    expect(await post(preparer.cookie, invoiceFields("save"))).toMatchObject(doneAt("invoice-saved"));
    const [draft] = (await fees()).invoices;
    expect(draft).toMatchObject({ status: "draft", totalCents: 29_900 + 20_000 - 4_900, discountCents: 4_900, notes: "Thank you" });
    expect(draft!.lines.map((l) => [l.priceListId, l.description, l.quantity, l.unitCents])).toEqual([
      ["standard-filing", "Standard Filing (per tax year)", 1, 29_900],
      [null, "FBAR for two accounts", 2, 10_000],
    ]);
    expect(await post(preparer.cookie, [["intent", "send-invoice"], ["invoiceId", draft!.id]])).toMatchObject(doneAt("invoice-sent"));
    expect(await post(preparer.cookie, [["intent", "record-payment"], ["invoiceId", draft!.id], ["method", "zelle"], ["amount", "100"], ["reference", "Z-1"], ["receivedOn", dayFromToday(0)]])).toMatchObject(doneAt("payment-recorded"));

    const [payment] = await getDb().select().from(payments);
    const refusedVoid = await post(preparer.cookie, [["intent", "void-invoice"], ["invoiceId", draft!.id], ["reason", "typo"]]);
    expect(refusedVoid).toMatchObject({ status: 403, body: { intent: "void-invoice", ok: false, message: FEE_MESSAGES.adminsOnly } });
    const refusedRefund = await post(preparer.cookie, [["intent", "refund-payment"], ["paymentId", payment!.id], ["amount", "10"]]);
    expect(refusedRefund).toMatchObject({ status: 403, body: { intent: "refund-payment", message: FEE_MESSAGES.adminsOnly } });
    expect(await getDb().select().from(refunds)).toHaveLength(0);
    expect((await getDb().select().from(invoices))[0]).toMatchObject({ status: "partly-paid", paidCents: 10_000 });
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "invoice-voided"))).toHaveLength(0);
  });

  it("refuses with the message beside the form, and a form about another case's invoice or payment", async () => {
    const bad = invoiceFields("send").map(([k, v]): [string, string] => (k === "line-unit" && v === "100" ? [k, "1OO"] : [k, v]));
    expect(await post(preparer.cookie, bad)).toMatchObject({ status: 400, body: { intent: "create-invoice", message: FEE_MESSAGES.lineAmount } });
    expect(await post(preparer.cookie, invoiceFields("send"), b.id)).toMatchObject(doneAt("invoice-sent", b.id));
    const [bobs] = await getDb().select().from(invoices);
    expect(await post(preparer.cookie, [["intent", "record-payment"], ["invoiceId", bobs!.id], ["method", "wire"], ["amount", "1"], ["receivedOn", dayFromToday(0)]])).toMatchObject({
      status: 400,
      body: { message: FEE_MESSAGES.noSuchInvoice },
    });
    expect(await post(preparer.cookie, [["intent", "record-payment"], ["invoiceId", bobs!.id], ["method", "wire"], ["amount", "1000"], ["receivedOn", dayFromToday(0)]], b.id)).toMatchObject({
      status: 400,
      body: { message: FEE_MESSAGES.paymentTooMuch },
    });
    expect(await post(preparer.cookie, [["intent", "nonsense"]])).toMatchObject({ status: 400, body: { intent: "unknown" } });
    expect(await getDb().select().from(payments)).toHaveLength(0);
  });

  it("lets an admin void and refund, and staff release the final copies before payment with a reason", async () => {
    expect(await post(admin.cookie, invoiceFields("send"))).toMatchObject(doneAt("invoice-sent"));
    const [invoice] = (await fees()).invoices;
    expect((await fees()).gate.locked).toBe(true);
    expect(await post(preparer.cookie, [["intent", "final-copies-override"], ["release", "on"], ["reason", ""]])).toMatchObject({ status: 400, body: { message: FEE_MESSAGES.overrideReason } });
    expect(await post(preparer.cookie, [["intent", "final-copies-override"], ["release", "on"], ["reason", "Agreed with the client"]])).toMatchObject(doneAt("override-on"));
    expect((await fees()).gate).toEqual({ waitForPayment: true, releasedBeforePayment: true, locked: false });
    expect((await getDb().select().from(clientCases).where(eq(clientCases.userId, a.id)))[0]!.finalCopiesBeforePayment).toBe(true);

    expect(await post(admin.cookie, [["intent", "record-payment"], ["invoiceId", invoice!.id], ["method", "wire"], ["amount", invoice!.totalCents / 100 + ""], ["receivedOn", dayFromToday(0)]])).toMatchObject(doneAt("payment-recorded-paid"));
    const [payment] = (await fees()).invoices[0]!.payments;
    expect(await post(admin.cookie, [["intent", "refund-payment"], ["paymentId", payment!.id], ["amount", "20"], ["reason", "Goodwill"]])).toMatchObject(doneAt("refund-recorded"));
    expect((await fees()).invoices[0]).toMatchObject({ status: "partly-paid", dueCents: 2_000 });

    expect(await post(admin.cookie, invoiceFields("save"))).toMatchObject(doneAt("invoice-saved"));
    const draft = (await fees()).invoices.find((i) => i.status === "draft")!;
    expect(await post(admin.cookie, [["intent", "void-invoice"], ["invoiceId", draft.id], ["reason", ""]])).toMatchObject({ status: 400, body: { message: FEE_MESSAGES.voidReason } });
    expect(await post(admin.cookie, [["intent", "void-invoice"], ["invoiceId", draft.id], ["reason", "Duplicate"]])).toMatchObject(doneAt("invoice-voided"));
    expect((await fees()).invoices.find((i) => i.id === draft.id)).toMatchObject({ status: "void", voidReason: "Duplicate" });
  });
});

describe("the Payments page and its CSV", () => {
  async function pageAs(cookie: string) {
    const { loader } = await paymentsRoute;
    return answerOf(() => loader(routeArgs(withCookie("/admin/payments", cookie))));
  }
  async function csvAs(cookie: string) {
    const { loader } = await csvRoute;
    return answerOf(() => loader(routeArgs(withCookie("/admin/payments.csv", cookie))));
  }

  it("are refused to visitors, clients and preparers", async () => {
    expect(await pageAs("")).toMatchObject({ status: 302 });
    expect(await csvAs("")).toMatchObject({ status: 302 });
    expect(await pageAs(a.cookie)).toMatchObject({ status: 302, location: "/dashboard" });
    expect(await csvAs(a.cookie)).toMatchObject({ status: 302, location: "/dashboard" });
    const page = await pageAs(preparer.cookie);
    expect(page.status).toBe(403);
    expect(JSON.stringify(page.body) + (page.text ?? "")).toContain(NOT_FOR_YOUR_ROLE);
    expect((await csvAs(preparer.cookie)).status).toBe(403);
    const { action } = await paymentsRoute;
    const posted = await answerOf(() =>
      action(routeArgs(withCookie("/admin/payments", preparer.cookie, { method: "POST", body: new URLSearchParams({ intent: "final-copies-gate", waitForPayment: "off" }) }))),
    );
    expect(posted.status).toBe(403);
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "payments-exported"))).toHaveLength(0);
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "final-copies-gate-changed"))).toHaveLength(0);
  });

  it("show an admin the outstanding invoices by age and this month's payments, turn the setting off, and export every payment and refund", async () => {
    expect(await post(preparer.cookie, invoiceFields("send"))).toMatchObject(doneAt("invoice-sent"));
    expect(await post(preparer.cookie, invoiceFields("send"), b.id)).toMatchObject(doneAt("invoice-sent", b.id));
    const [old, recent] = (await getDb().select().from(invoices).orderBy(invoices.numberSeq));
    // Alice's invoice was sent 45 days ago.
    await getDb().update(invoices).set({ sentAt: new Date(Date.now() - 45 * 86_400_000) }).where(eq(invoices.id, old!.id));
    await post(preparer.cookie, [["intent", "record-payment"], ["invoiceId", old!.id], ["method", "check"], ["amount", "100.5"], ["reference", "=HYPERLINK(\"x\")"], ["receivedOn", dayFromToday(0)]]);
    const [payment] = await getDb().select().from(payments);
    await post(admin.cookie, [["intent", "refund-payment"], ["paymentId", payment!.id], ["amount", "0.50"]]);

    const page = await pageAs(admin.cookie);
    expect(page.status).toBe(200);
    const body = page.body as unknown as {
      outstanding: { buckets: Array<{ key: string; count: number; dueCents: number }>; invoices: Array<{ number: string; days: number; dueCents: number }> };
      month: { payments: Array<{ amountCents: number }>; receivedCents: number; refundedCents: number; refunds: unknown[] };
      waitForPayment: boolean;
    };
    expect(body.outstanding.buckets).toEqual([
      { key: "0-30", label: "0-30 days", count: 1, dueCents: recent!.totalCents },
      { key: "31-60", label: "31-60 days", count: 1, dueCents: old!.totalCents - 10_000 },
      { key: "over-60", label: "Over 60 days", count: 0, dueCents: 0 },
    ]);
    expect(body.outstanding.invoices.map((i) => i.number)).toEqual([old!.number, recent!.number]);
    expect(body.month).toMatchObject({ receivedCents: 10_050, refundedCents: 50 });
    expect(body.month.refunds).toHaveLength(1);
    expect(body.waitForPayment).toBe(true);

    const { action } = await paymentsRoute;
    const turned = await answerOf(() =>
      action(routeArgs(withCookie("/admin/payments", admin.cookie, { method: "POST", body: new URLSearchParams({ intent: "final-copies-gate", waitForPayment: "off" }) }))),
    );
    expect(turned).toMatchObject({ status: 200, body: { ok: true } });
    expect(((await pageAs(admin.cookie)).body as unknown as { waitForPayment: boolean }).waitForPayment).toBe(false);

    const csv = await csvAs(admin.cookie);
    expect(csv.status).toBe(200);
    const today = dayFromToday(0);
    const lines = csv.text!.trimEnd().split("\r\n");
    expect(lines[0]).toBe('"Date","Invoice","Client","Email","Tax Year","Method","Reference","Amount (USD)","Kind","Status"');
    expect(lines.slice(1).sort()).toEqual(
      [
        `"${today}","${old!.number}","'=Alice, ""the"" Aardvark","alice@example.com","${Y}","Check","'=HYPERLINK(""x"")","100.50","payment","succeeded"`,
        `"${today}","${old!.number}","'=Alice, ""the"" Aardvark","alice@example.com","${Y}","Check","'=HYPERLINK(""x"")","0.50","refund","succeeded"`,
      ].sort(),
    );
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "payments-exported"))).toMatchObject([{ actorId: admin.id, detail: "2 rows" }]);
  });
});
