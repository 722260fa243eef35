import type { Route } from "./+types/filing-documents";
import { CLIENT_LIMIT_MESSAGES } from "~/domain/client-limits";
import { CASE_MESSAGES } from "~/domain/portal-forms";
import { REQUEST_UPLOAD_MESSAGES, requestIdOf } from "~/domain/requests";
import { parseTaxYear } from "~/domain/tax-year";
import { logError } from "~/log";
import { caseState } from "~/server/cases/cases.server";
import { hitClientLimit, retryAfter } from "~/server/limits/client-limits.server";
import { caseRoom, discardReceived, recordUploads } from "~/server/documents/upload.server";
import { notifyStaff } from "~/server/notices/notices.server";
import { markRequestUploaded, requestForUpload } from "~/server/requests/requests.server";
import type { UploadTarget } from "~/server/requests/requests.server";
import { userContext } from "~/server/auth/session.server";
import { receiveUploadRequest, recordedAnswer, refusedUpload, uploadLoader } from "~/server/documents/upload-request.server";

export const loader = uploadLoader;

/**
 * Whether the acting user may add documents to their own case of `taxYear`: "no-case" (no such
 * case of theirs, whoever else has one), "closed" (DOCUMENTS is complete) or "open".
 */
async function uploadState(userId: string, taxYear: number): Promise<"no-case" | "closed" | "open"> {
  const state = await caseState(userId, taxYear);
  if (!state) return "no-case";
  return state.flags.documents ? "closed" : "open";
}

/**
 * The client's own upload to one of their tax years: POST multipart/form-data with `category`
 * and one or more `files`, streamed exactly as the staff upload is (app/routes/admin/
 * document-upload.ts): each file is checked on its own (type by name and content, 20 MB) and
 * written to storage as it arrives; the answer lists the stored files and the refused ones with
 * the reason. 404 when the year is not a case of this user, 409 once their documents for it
 * are complete, 400 when nothing was stored, 413 when the files do not fit in the year's room
 * (nothing kept), 429 past the account's upload limit (nothing read). The case's staff member
 * (else the firm) is told.
 * With `requestId`, the files answer one of the case's requested items: they are filed under
 * its category, linked to it, and it moves to "uploaded" (404 when it is not an item of this
 * case, 409 once staff received it; nothing is kept then).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  if (request.method !== "POST") return refusedUpload("Send the files with POST.", 405);
  const taxYear = parseTaxYear(params.year);
  const before = taxYear === null ? "no-case" : await uploadState(user.id, taxYear);
  if (taxYear === null || before === "no-case") return refusedUpload(CASE_MESSAGES.noCase(taxYear), 404);
  if (before === "closed") return refusedUpload(CASE_MESSAGES.documentsClosed(taxYear), 409);
  // Counted before a byte is read: past the limit nothing is received or stored.
  const limit = await hitClientLimit("upload", user.id);
  if (!limit.allowed) return refusedUpload(CLIENT_LIMIT_MESSAGES.upload, 429, retryAfter(limit));

  const received = await receiveUploadRequest(request, await caseRoom(user.id, taxYear));
  if (!received.ok) return received.response;
  const { category, files, fields } = received;

  // Files sent against a requested item: it must be one of this user's items of this year (the
  // same 404 whoever else has it), not yet received; its category is where the files go.
  let target: UploadTarget | null = null;
  const sentRequestId = fields.get("requestId")?.[0];
  if (sentRequestId !== undefined && sentRequestId !== "") {
    const requestId = requestIdOf(sentRequestId);
    const found = requestId === null ? "no-such-item" : await requestForUpload(user.id, taxYear, requestId);
    if (typeof found === "string") {
      await discardReceived(files);
      return found === "received"
        ? refusedUpload(REQUEST_UPLOAD_MESSAGES.received, 409)
        : refusedUpload(REQUEST_UPLOAD_MESSAGES.noSuchItem, requestId === null ? 400 : 404);
    }
    target = found;
  }

  // Staff may have completed the documents while the files arrived: then nothing is kept.
  const after = await uploadState(user.id, taxYear);
  if (after !== "open") {
    await discardReceived(files);
    return after === "closed"
      ? refusedUpload(CASE_MESSAGES.documentsClosed(taxYear), 409)
      : refusedUpload(CASE_MESSAGES.noCase(taxYear), 404);
  }

  const outcome = await recordUploads(
    user,
    { clientId: user.id, taxYear, category: target?.category ?? category, files, requestId: target?.id ?? null },
    context.clientIp,
  );
  if (target && outcome.uploaded.length > 0) {
    try {
      await markRequestUploaded(user, { taxYear, requestId: target.id, files: outcome.uploaded.length }, context.clientIp);
    } catch (error) {
      // The files are stored and linked to the item; staff see them there.
      logError("portal", "could not mark a requested item uploaded", error);
    }
  }
  if (outcome.uploaded.length > 0) {
    try {
      await notifyStaff(user.id, taxYear, "documents-uploaded", outcome.uploaded.length);
    } catch (error) {
      // The files are stored; a notice that cannot be sent does not undo them.
      logError("portal", "could not tell staff about an upload", error);
    }
  }
  return recordedAnswer(outcome);
}
