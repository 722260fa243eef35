import type { Route } from "./+types/return-version-file";
import { staffContext } from "~/server/auth/session.server";
import { fileResponse } from "~/server/returns/file-response.server";
import { returnVersionFile } from "~/server/returns/versions.server";

/**
 * One version of a case's draft return, for staff (the Return section's download links): any
 * version of the client's case, streamed from storage as an attachment. An unknown version, or
 * one of another client, is a 404.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const staff = context.get(staffContext);
  const file = await returnVersionFile(staff, params.versionId, null);
  if (file && file !== "waits-for-fee" && file.clientId !== params.clientId) {
    await file.body.cancel();
    return fileResponse(request, null);
  }
  return fileResponse(request, file);
}
