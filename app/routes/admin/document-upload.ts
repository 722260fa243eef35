import type { Route } from "./+types/document-upload";
import { yearFromSearch } from "~/domain/tax-year";
import { caseExists } from "~/server/cases/cases.server";
import { caseRoom, recordUploads } from "~/server/documents/upload.server";
import { staffContext } from "~/server/auth/session.server";
import { receiveUploadRequest, recordedAnswer, refusedUpload, uploadLoader } from "~/server/documents/upload-request.server";

export const loader = uploadLoader;

/**
 * Upload Files (staff) to a client's case of `?year=` (default the filing season's): see
 * receiveUploadRequest. The answer lists the stored files and the refused ones with the reason;
 * 400 when nothing was stored, 413 when the files do not fit in the case's room (nothing kept).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = context.get(staffContext);
  if (request.method !== "POST") return refusedUpload("Send the files with POST.", 405);
  const taxYear = yearFromSearch(new URL(request.url).searchParams);
  if (taxYear === null || !(await caseExists(params.clientId, taxYear))) return refusedUpload("That client does not exist.", 404);

  const received = await receiveUploadRequest(request, await caseRoom(params.clientId, taxYear));
  if (!received.ok) return received.response;
  const { category, files } = received;
  const outcome = await recordUploads(staff, { clientId: params.clientId, taxYear, category, files }, context.clientIp);
  return recordedAnswer(outcome);
}
