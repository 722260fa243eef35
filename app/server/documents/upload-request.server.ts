import { caseFullMessage, isDocumentCategory, MAX_UPLOAD_BYTES, MAX_UPLOAD_REQUEST_BYTES, REFUSED_NO_ROOM } from "~/domain/documents";
import type { DocumentCategoryKey, UploadAnswer } from "~/domain/documents";
import { FORM_BODY_MAX_BYTES } from "~/server/http/body-limit.server";
import { discardReceived, receiveUpload } from "~/server/documents/upload.server";
import type { ReceivedFile, UploadOutcome } from "~/server/documents/upload.server";
import { readMultipart } from "~/server/http/multipart.server";
import { NO_STORE } from "~/server/auth/session.server";

// The two upload addresses (staff: /admin/clients/:id/documents/upload; a client:
// /my-tax-filing/:year/documents) read their requests the same way: here.

export function uploadAnswer(body: UploadAnswer, status: number, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

/** The whole request refused: nothing stored, and why. */
export function refusedUpload(error: string, status: number, headers: Record<string, string> = {}): Response {
  return uploadAnswer({ uploaded: [], refused: [], error }, status, headers);
}

/**
 * The answer to recorded files: 200 when any was stored, 400 when none; 413 with the room left
 * when they did not fit in the case's (none was kept).
 */
export function recordedAnswer(outcome: UploadOutcome): Response {
  if (outcome.noRoom !== undefined) return refusedUpload(caseFullMessage(outcome.noRoom), 413);
  return uploadAnswer({ uploaded: outcome.uploaded, refused: outcome.refused }, outcome.uploaded.length > 0 ? 200 : 400);
}

/** Uploads are POSTed; any other request for an upload address (a typed URL, a crawler) is answered 405. */
export function uploadLoader(): Response {
  return new Response("Send the files with POST.", { status: 405, headers: { Allow: "POST", ...NO_STORE } });
}

/**
 * Reads an upload: POST multipart/form-data with `category` and one or more `files`. Each file
 * is checked on its own (type by name and content, 20 MB) and written to storage as it arrives.
 * Answers the received files (stored but not yet recorded: the caller records them, or
 * discards them with discardReceived) with the form's other fields, or the response that
 * refuses the whole request. `roomBytes`: what the case's documents may still take; none at all
 * refuses before a byte is read, and files that pass it refuse the whole upload (413), each
 * dropped as soon as it does and the others removed.
 */
export async function receiveUploadRequest(
  request: Request,
  roomBytes: number,
): Promise<
  | { ok: true; category: DocumentCategoryKey; files: ReceivedFile[]; fields: Map<string, string[]> }
  | { ok: false; response: Response }
> {
  const refuse = (error: string, status: number) => ({ ok: false as const, response: refusedUpload(error, status) });
  if (request.method !== "POST") return refuse("Send the files with POST.", 405);
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) return refuse("Send the files as multipart/form-data.", 415);
  if (roomBytes <= 0) return refuse(caseFullMessage(0), 413);

  const files: ReceivedFile[] = [];
  const room = { left: roomBytes };
  const form = await readMultipart(
    request,
    { maxRequestBytes: MAX_UPLOAD_REQUEST_BYTES, maxFileBytes: MAX_UPLOAD_BYTES, maxFieldBytes: FORM_BODY_MAX_BYTES },
    async (file) => {
      if (file.field === "files") files.push(await receiveUpload(file.name, file.chunks, room));
    },
  );
  if (!form.ok) {
    await discardReceived(files);
    return form.problem === "too-large"
      ? refuse("The upload is larger than 100 MB. Send fewer files at a time.", 413)
      : refuse("The upload could not be read. Please try again.", 400);
  }
  const category = form.fields.get("category")?.[0];
  if (!isDocumentCategory(category)) {
    await discardReceived(files);
    return refuse("Choose one of the document categories.", 400);
  }
  if (files.length === 0) return refuse("No file was sent.", 400);
  if (files.some((f) => "refused" in f && f.refused === REFUSED_NO_ROOM)) {
    await discardReceived(files);
    return refuse(caseFullMessage(roomBytes), 413);
  }
  return { ok: true, category, files, fields: form.fields };
}
