import { isDocumentCategory, MAX_UPLOAD_BYTES, MAX_UPLOAD_REQUEST_BYTES } from "~/domain/documents";
import type { DocumentCategoryKey, UploadAnswer } from "~/domain/documents";
import { FORM_BODY_MAX_BYTES } from "./body-limit.server";
import { discardReceived, receiveUpload } from "./documents.server";
import type { ReceivedFile } from "./documents.server";
import { readMultipart } from "./multipart.server";
import { NO_STORE } from "./session.server";

// The two upload addresses (staff: /admin/clients/:id/documents/upload; a client:
// /my-tax-filing/:year/documents) read their requests the same way: here.

export function uploadAnswer(body: UploadAnswer, status: number, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

/** The whole request refused: nothing stored, and why. */
export function refusedUpload(error: string, status: number, headers: Record<string, string> = {}): Response {
  return uploadAnswer({ uploaded: [], refused: [], error }, status, headers);
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
 * refuses the whole request.
 */
export async function receiveUploadRequest(
  request: Request,
): Promise<
  | { ok: true; category: DocumentCategoryKey; files: ReceivedFile[]; fields: Map<string, string[]> }
  | { ok: false; response: Response }
> {
  const refuse = (error: string, status: number) => ({ ok: false as const, response: refusedUpload(error, status) });
  if (request.method !== "POST") return refuse("Send the files with POST.", 405);
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) return refuse("Send the files as multipart/form-data.", 415);

  const files: ReceivedFile[] = [];
  const form = await readMultipart(
    request,
    { maxRequestBytes: MAX_UPLOAD_REQUEST_BYTES, maxFileBytes: MAX_UPLOAD_BYTES, maxFieldBytes: FORM_BODY_MAX_BYTES },
    async (file) => {
      if (file.field === "files") files.push(await receiveUpload(file.name, file.chunks));
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
  return { ok: true, category, files, fields: form.fields };
}
