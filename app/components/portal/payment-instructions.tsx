import { paymentInstructions } from "~/content/business";

// The firm's wire transfer and Zelle details (app/content/business.ts), with the invoice number
// the client writes as the payment's reference, so that staff can match the payment to it.

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-3">
      <dt className="text-ink-muted">{label}</dt>
      <dd className="font-medium break-words text-ink">{value}</dd>
    </div>
  );
}

export function PaymentInstructions({ reference }: { reference: string }) {
  const { wire, zelle } = paymentInstructions;
  return (
    <div className="space-y-4 rounded-lg border border-line bg-surface p-4 text-sm">
      <p className="text-ink">
        {"Write "}
        <strong className="font-semibold">{paymentInstructions.reference(reference)}</strong>
        {" as the reference or memo of your payment, so that we can match it to this invoice."}
      </p>
      <div>
        <h5 className="mb-2 font-semibold text-ink">Wire transfer (from the US or abroad)</h5>
        <dl className="space-y-1.5">
          <Row label="Bank" value={wire.bankName} />
          <Row label="Bank address" value={wire.bankAddress} />
          <Row label="Account name" value={wire.accountName} />
          <Row label="Routing number (ABA)" value={wire.routingNumber} />
          <Row label="Account number" value={wire.accountNumber} />
          <Row label="SWIFT / BIC" value={wire.swift} />
        </dl>
      </div>
      <div>
        <h5 className="mb-2 font-semibold text-ink">Zelle (from a US bank account)</h5>
        <dl className="space-y-1.5">
          <Row label="E-mail" value={zelle.email} />
          <Row label="Phone" value={zelle.phone} />
        </dl>
      </div>
    </div>
  );
}
