import type { Route } from "./+types/filing-signing-form";
import { parseTaxYear } from "~/domain/tax-year";
import { fileResponse, notFoundFile } from "~/server/returns/file-response.server";
import { signingFormFile, waitingRequestOf } from "~/server/returns/signer-view.server";
import { userContext } from "~/server/auth/session.server";

/** The e-file authorisation (Form 8879/8878) waiting for the client's signature, of their own case of the URL's year; else 404. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const taxYear = parseTaxYear(params.year);
  const requestId = taxYear === null ? null : await waitingRequestOf(user, taxYear);
  if (!requestId) return notFoundFile();
  return fileResponse(request, await signingFormFile({ client: user, requestId }));
}
