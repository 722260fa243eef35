import type { Route } from "./+types/filing-return-file";
import { parseTaxYear } from "~/domain/tax-year";
import { fileResponse, notFoundFile } from "~/server/returns/file-response.server";
import { returnVersionFile } from "~/server/returns/versions.server";
import { userContext } from "~/server/auth/session.server";

/**
 * The PDF of a version of the client's draft return: only the current version of their own case
 * of the URL's year (returnVersionFile); anything else is the same 404.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const taxYear = parseTaxYear(params.year);
  if (taxYear === null) return notFoundFile();
  return fileResponse(request, await returnVersionFile(user, params.versionId, taxYear));
}
