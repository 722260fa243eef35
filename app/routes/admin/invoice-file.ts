import type { Route } from "./+types/invoice-file";
import { recordAudit } from "~/server/audit/audit.server";
import { staffContext } from "~/server/auth/session.server";
import { invoiceView } from "~/server/fees/fee-reads.server";
import { invoicePdf, receiptPdf } from "~/server/fees/invoice-pdf.server";
import { fileResponse, notFoundFile } from "~/server/returns/file-response.server";

/**
 * An invoice of a case as a PDF, for staff (the Fee section's links): invoice.pdf in any state
 * (a draft and a void one say so on the page), receipt.pdf once paid in full. An invoice of
 * another client than the address's is the same 404 as one that does not exist.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const staff = context.get(staffContext);
  const file = params.file === "invoice.pdf" ? "invoice" : params.file === "receipt.pdf" ? "receipt" : null;
  const invoice = file ? await invoiceView((params.invoiceId ?? "").toLowerCase()) : null;
  if (!file || !invoice || invoice.clientId !== params.clientId) return notFoundFile();
  const made = file === "invoice" ? await invoicePdf(invoice.id) : await receiptPdf(invoice.id);
  if (!made) return notFoundFile();
  await recordAudit({ actor: staff, action: "invoice-downloaded", clientId: invoice.clientId, taxYear: invoice.taxYear, detail: `${invoice.number} ${file}`, ip: context.clientIp });
  return fileResponse(request, {
    name: file === "invoice" ? made.filename : `Receipt ${made.filename}`,
    contentType: "application/pdf",
    size: made.pdf.byteLength,
    body: new Blob([made.pdf.slice()]).stream(),
  });
}
