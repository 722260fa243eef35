import type { Route } from "./+types/filing-invoice-file";
import { isDocumentId } from "~/domain/documents";
import { parseTaxYear } from "~/domain/tax-year";
import { recordAudit } from "~/server/audit/audit.server";
import { userContext } from "~/server/auth/session.server";
import { clientFees } from "~/server/fees/fee-reads.server";
import { invoicePdf, receiptPdf } from "~/server/fees/invoice-pdf.server";
import { fileResponse, notFoundFile } from "~/server/returns/file-response.server";

/**
 * The client's invoice or receipt as a PDF (docs/product/fees.md#what-the-client-sees):
 * /my-tax-filing/:year/invoices/:invoiceId/invoice.pdf, or receipt.pdf once it is paid in full.
 * Only an invoice sent to the signed-in client, of the address's year; the same 404 for anything
 * else (another client's invoice, a draft, a receipt not yet earned).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const taxYear = parseTaxYear(params.year);
  const file = params.file === "invoice.pdf" ? "invoice" : params.file === "receipt.pdf" ? "receipt" : null;
  const invoiceId = params.invoiceId ?? "";
  if (taxYear === null || file === null || !isDocumentId(invoiceId)) return notFoundFile();
  // Only an invoice the client sees on this year's page: theirs, of this year, sent (not a draft or void).
  const invoice = (await clientFees(user.id, taxYear)).find((i) => i.id === invoiceId.toLowerCase());
  if (!invoice) return notFoundFile();
  const made = file === "invoice" ? await invoicePdf(invoice.id) : await receiptPdf(invoice.id);
  if (!made) return notFoundFile();
  await recordAudit({ actor: user, action: "invoice-downloaded", clientId: user.id, taxYear, detail: `${invoice.number} ${file}`, ip: context.clientIp });
  const body = new Blob([made.pdf.slice()]).stream();
  return fileResponse(request, { name: file === "invoice" ? made.filename : `Receipt ${made.filename}`, contentType: "application/pdf", size: made.pdf.byteLength, body });
}
