import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { FeeSection } from "~/components/admin/fee/fee-section";
import { PaymentsPage } from "~/components/admin/fee/payments-page";
import type { CaseFeesData, FeeInvoiceView } from "~/domain/fee-section";
import { FEE_MESSAGES } from "~/domain/fees";

// The Fee section and the Payments page as the server renders them (docs/product/fees.md): what
// each role is shown, a refusal beside its form, and the invoice form without its script.

const invoice = (over: Partial<FeeInvoiceView>): FeeInvoiceView => ({
  id: "11111111-1111-4111-8111-111111111111",
  clientId: "client-1",
  taxYear: 2025,
  number: "INV-2026-00042",
  status: "sent",
  lines: [{ position: 1, priceListId: "standard-filing", description: "Standard Filing (per tax year)", quantity: 1, unitCents: 29_900, amountCents: 29_900 }],
  subtotalCents: 29_900,
  discountCents: 0,
  totalCents: 29_900,
  paidCents: 10_000,
  dueCents: 19_900,
  dueOn: "2026-12-11",
  notes: "",
  createdAt: "2026-11-27T10:00:00.000Z",
  sentAt: "2026-11-27T10:05:00.000Z",
  paidAt: null,
  voidedAt: null,
  voidReason: null,
  clientNotifiedAt: "2026-11-28T09:00:00.000Z",
  payments: [
    {
      id: "22222222-2222-4222-8222-222222222222",
      method: "zelle",
      status: "succeeded",
      amountCents: 10_000,
      reference: "ZEL-1",
      receivedOn: "2026-11-27",
      recordedBy: "Pat Preparer",
      throughStripe: false,
      refunds: [],
      refundableCents: 10_000,
      excessCents: 0,
    },
  ],
  toRefundCents: 0,
  ...over,
});

function render(fees: CaseFeesData, isAdmin: boolean, result?: Parameters<typeof FeeSection>[0]["result"]): string {
  const Stub = createRoutesStub([
    { path: "/", Component: () => <FeeSection clientId="client-1" fees={fees} done={null} isAdmin={isAdmin} today="2026-11-27" defaultDueOn="2026-12-11" result={result} /> },
  ]);
  return renderToString(<Stub />);
}

const gate = { waitForPayment: true, releasedBeforePayment: false, locked: true };

describe("the Fee section", () => {
  it("shows an admin voiding and refunding, and a preparer neither", () => {
    const fees = { invoices: [invoice({ paidCents: 0, dueCents: 29_900, payments: [] }), invoice({ id: "33333333-3333-4333-8333-333333333333", number: "INV-2026-00041" })], gate };
    const asAdmin = render(fees, true);
    expect(asAdmin).toContain("Void this invoice");
    expect(asAdmin).toContain("Refund");
    expect(asAdmin).toContain("Record a payment");
    expect(asAdmin).toContain("The client said they sent the payment by wire or Zelle");
    expect(asAdmin).toContain("$299.00");
    expect(asAdmin).toContain("Locked: the client sees the final copies as available once the fee is paid.");
    const asPreparer = render(fees, false);
    expect(asPreparer).not.toContain("Void this invoice");
    expect(asPreparer).not.toContain(">Refund<");
    expect(asPreparer).toContain("Record a payment");
  });

  it("offers blank lines to the invoice form before its script runs, and shows a refusal beside its form", () => {
    const html = render({ invoices: [], gate: { ...gate, locked: false } }, false, { intent: "create-invoice", ok: false, message: FEE_MESSAGES.lineAmount, invoice: { lines: [{ description: "X", quantity: "1", unitCents: "1OO" }], dueOn: "2026-12-11" } });
    expect(html.match(/name="line-description"/g)).toHaveLength(4);
    expect(html).toContain(FEE_MESSAGES.lineAmount.replaceAll("'", "&#x27;"));
    expect(html).toContain('value="1OO"');
    expect(html).toContain("Save and send to the client");
  });
});

describe("money an invoice received that it does not owe", () => {
  it("is shown to staff on the invoice, with the payment's part that was not owed", () => {
    const card = { ...invoice({}).payments[0]!, id: "44444444-4444-4444-8444-444444444444", method: "card" as const, amountCents: 29_900, excessCents: 10_000, recordedBy: null, throughStripe: true, refundableCents: 29_900 };
    const html = render({ invoices: [invoice({ status: "paid", paidCents: 39_900, dueCents: 0, toRefundCents: 10_000, payments: [invoice({}).payments[0]!, card] })], gate }, true);
    expect(html).toContain("This invoice received more than its total: refund $100.00 to the client.");
    expect(html).toContain(" · $100.00 of it was not owed");
    const voided = render({ invoices: [invoice({ status: "void", paidCents: 29_900, dueCents: 0, toRefundCents: 29_900, payments: [{ ...card, excessCents: 29_900 }] })], gate }, true);
    expect(voided).toContain("This invoice is void, yet it received money: refund $299.00 to the client.");
    expect(render({ invoices: [invoice({})], gate }, true)).not.toContain("refund $");
  });

  it("is listed on the Payments page with a link to the case's Fee section", () => {
    const Stub = createRoutesStub([
      {
        path: "/",
        Component: () => (
          <PaymentsPage
            outstanding={{ buckets: [], invoices: [] }}
            month={{ month: "November 2026", payments: [], receivedCents: 0, refunds: [], refundedCents: 0 }}
            toRefund={[{ id: "i", number: "INV-2026-00042", clientId: "c1", clientName: "Alice", taxYear: 2025, status: "paid", toRefundCents: 10_000 }]}
            waitForPayment
          />
        ),
      },
    ]);
    const html = renderToString(<Stub />);
    for (const text of ["Money to give back", "INV-2026-00042", "/admin/clients/c1/2025/fee", "Alice", "This invoice received more than its total: refund $100.00 to the client."])
      expect(html, text).toContain(text);
  });
});

describe("the Payments page", () => {
  it("shows the buckets, the month and the CSV link", () => {
    const Stub = createRoutesStub([
      {
        path: "/",
        Component: () => (
          <PaymentsPage
            outstanding={{
              buckets: [
                { key: "0-30", label: "0-30 days", count: 1, dueCents: 29_900 },
                { key: "31-60", label: "31-60 days", count: 0, dueCents: 0 },
                { key: "over-60", label: "Over 60 days", count: 0, dueCents: 0 },
              ],
              invoices: [{ id: "i", number: "INV-2026-00042", clientId: "c1", clientName: "Alice", taxYear: 2025, status: "sent", sentOn: "2026-11-27", dueOn: "2026-12-11", dueCents: 29_900, days: 0, bucket: "0-30" }],
            }}
            month={{ month: "November 2026", payments: [], receivedCents: 0, refunds: [], refundedCents: 0 }}
            toRefund={[]}
            waitForPayment
          />
        ),
      },
    ]);
    const html = renderToString(<Stub />);
    for (const text of ["0-30 days", "Over 60 days", "INV-2026-00042", "/admin/clients/c1/2025/fee", "/admin/payments.csv", "Download CSV", "November 2026", "Turn off"])
      expect(html, text).toContain(text);
  });
});
