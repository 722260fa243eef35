import type { Route } from "./+types/filing-signed-form";
import { parseTaxYear } from "~/domain/tax-year";
import { hitClientLimit } from "~/server/limits/client-limits.server";
import { uploadLoader } from "~/server/documents/upload-request.server";
import { backToPage, uploadSignedForm } from "~/server/returns/signer-forms.server";
import { waitingRequestOf } from "~/server/returns/signer-view.server";
import { userContext } from "~/server/auth/session.server";

export const loader = uploadLoader;

/**
 * The client's hand-signed e-file authorisation (multipart, one `file`): recorded for the
 * request waiting for their signature in their own case of the URL's year, counted with their
 * other uploads. The browser is sent back to the filing page, which says how it went.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const taxYear = parseTaxYear(params.year);
  const page = `/my-tax-filing/${taxYear ?? ""}`;
  const requestId = taxYear === null ? null : await waitingRequestOf(user, taxYear);
  if (!requestId) return backToPage(page, "nothing-to-sign", "#sign");
  // Counted before a byte is read: past the limit nothing is received or stored.
  if (!(await hitClientLimit("upload", user.id)).allowed) return backToPage(page, "too-many", "#sign");
  return backToPage(page, await uploadSignedForm({ client: user, requestId }, request, context.clientIp), "#sign");
}
