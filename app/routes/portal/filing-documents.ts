import type { Route } from "./+types/filing-documents";
import { isDocumentCategory, MAX_UPLOAD_BYTES, MAX_UPLOAD_REQUEST_BYTES } from "~/domain/documents";
import type { UploadAnswer } from "~/domain/documents";
import { CASE_MESSAGES } from "~/domain/portal-forms";
import { parseTaxYear } from "~/domain/tax-year";
import { logError } from "~/log";
import { FORM_BODY_MAX_BYTES } from "~/server/body-limit.server";
import { caseState } from "~/server/cases.server";
import { discardReceived, receiveUpload, recordUploads } from "~/server/documents.server";
import type { ReceivedFile } from "~/server/documents.server";
import { readMultipart } from "~/server/multipart.server";
import { notifyStaff } from "~/server/notices.server";
import { NO_STORE, userContext } from "~/server/session.server";

function answer(body: UploadAnswer, status: number): Response {
  return Response.json(body, { status, headers: { ...NO_STORE } });
}

function refusedRequest(error: string, status: number): Response {
  return answer({ uploaded: [], refused: [], error }, status);
}

/** Uploads are POSTed; any other request for this address (a typed URL, a crawler) is answered 405. */
export function loader() {
  return new Response("Send the files with POST.", { status: 405, headers: { Allow: "POST", ...NO_STORE } });
}

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
 * are complete, 400 when nothing was stored. The case's staff member (else the firm) is told.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  if (request.method !== "POST") return refusedRequest("Send the files with POST.", 405);
  const taxYear = parseTaxYear(params.year);
  const before = taxYear === null ? "no-case" : await uploadState(user.id, taxYear);
  if (taxYear === null || before === "no-case") return refusedRequest(CASE_MESSAGES.noCase(taxYear), 404);
  if (before === "closed") return refusedRequest(CASE_MESSAGES.documentsClosed(taxYear), 409);

  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType))
    return refusedRequest("Send the files as multipart/form-data.", 415);

  const received: ReceivedFile[] = [];
  const form = await readMultipart(
    request,
    {
      maxRequestBytes: MAX_UPLOAD_REQUEST_BYTES,
      maxFileBytes: MAX_UPLOAD_BYTES,
      maxFieldBytes: FORM_BODY_MAX_BYTES,
    },
    async (file) => {
      if (file.field === "files") received.push(await receiveUpload(file.name, file.chunks));
    },
  );
  if (!form.ok) {
    await discardReceived(received);
    return form.problem === "too-large"
      ? refusedRequest("The upload is larger than 100 MB. Send fewer files at a time.", 413)
      : refusedRequest("The upload could not be read. Please try again.", 400);
  }

  const category = form.fields.get("category")?.[0];
  if (!isDocumentCategory(category)) {
    await discardReceived(received);
    return refusedRequest("Choose one of the document categories.", 400);
  }
  if (received.length === 0) return refusedRequest("No file was sent.", 400);

  // Staff may have completed the documents while the files arrived: then nothing is kept.
  const after = await uploadState(user.id, taxYear);
  if (after !== "open") {
    await discardReceived(received);
    return after === "closed"
      ? refusedRequest(CASE_MESSAGES.documentsClosed(taxYear), 409)
      : refusedRequest(CASE_MESSAGES.noCase(taxYear), 404);
  }

  const outcome = await recordUploads(
    user,
    { clientId: user.id, taxYear, category, files: received },
    context.clientIp,
  );
  if (outcome.uploaded.length > 0) {
    try {
      await notifyStaff(user.id, taxYear, "documents-uploaded", outcome.uploaded.length);
    } catch (error) {
      // The files are stored; a notice that cannot be sent does not undo them.
      logError("portal", "could not tell staff about an upload", error);
    }
  }
  return answer(outcome, outcome.uploaded.length > 0 ? 200 : 400);
}
