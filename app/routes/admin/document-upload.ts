import type { Route } from "./+types/document-upload";
import { isDocumentCategory, MAX_UPLOAD_BYTES, MAX_UPLOAD_REQUEST_BYTES } from "~/domain/documents";
import type { UploadAnswer } from "~/domain/documents";
import { yearFromSearch } from "~/domain/tax-year";
import { FORM_BODY_MAX_BYTES } from "~/server/body-limit.server";
import { discardReceived, caseExists, receiveUpload, recordUploads } from "~/server/documents.server";
import type { ReceivedFile } from "~/server/documents.server";
import { readMultipart } from "~/server/multipart.server";
import { NO_STORE, staffContext } from "~/server/session.server";

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
 * Upload Files (admin): POST multipart/form-data with `category` and one or more `files`.
 * Each file is checked on its own (type by name and content, 20 MB) and written to storage as
 * it arrives; the answer lists the stored files and the refused ones with the reason. 400 when
 * nothing was stored.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = context.get(staffContext);
  if (request.method !== "POST") return refusedRequest("Send the files with POST.", 405);
  const taxYear = yearFromSearch(new URL(request.url).searchParams);
  if (taxYear === null || !(await caseExists(params.clientId, taxYear))) return refusedRequest("That client does not exist.", 404);

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
    return refusedRequest("Choose one of the eight document categories.", 400);
  }
  if (received.length === 0) return refusedRequest("No file was sent.", 400);

  const outcome = await recordUploads(
    admin,
    { clientId: params.clientId, taxYear, category, files: received },
    context.clientIp,
  );
  return answer(outcome, outcome.uploaded.length > 0 ? 200 : 400);
}
