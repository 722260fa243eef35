import type { Route } from "./+types/engagement-letter-file";
import { staffContext } from "~/server/auth/session.server";
import { letterPdfResponse, staffLetterFile } from "~/server/engagement/letters.server";

/** A case's signed engagement letter (PDF), for staff (the Engagement section's link): a letter of the address's client, accepted; else a 404. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const staff = context.get(staffContext);
  return letterPdfResponse(await staffLetterFile(staff, params.clientId, params.letterId));
}
