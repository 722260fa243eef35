import { data } from "react-router";
import type { Route } from "./+types/filing-engagement-pdf";
import { parseTaxYear } from "~/domain/tax-year";
import { NO_STORE, userContext } from "~/server/auth/session.server";
import { letterPdfResponse, signedLetterFile } from "~/server/engagement/letters.server";

/** The client's own signed engagement letter (PDF) of the year: only their own case's; anyone else a 404. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const taxYear = parseTaxYear(params.year);
  if (user.role !== "user" || taxYear === null) throw data(null, { status: 404, headers: NO_STORE });
  return letterPdfResponse(await signedLetterFile({ clientId: user.id, taxYear }, params.letterId));
}
