import type { Route } from "./+types/document-upload";
import { isDocumentCategory, MAX_UPLOAD_REQUEST_BYTES } from "~/domain/documents";
import type { UploadAnswer } from "~/domain/documents";
import { isClientAccount, saveUploads } from "~/server/documents.server";
import type { UploadFile } from "~/server/documents.server";
import { NO_STORE, requireAdmin } from "~/server/session.server";

function answer(body: UploadAnswer, status: number): Response {
  return Response.json(body, { status, headers: { ...NO_STORE } });
}

function refusedRequest(error: string, status: number): Response {
  return answer({ uploaded: [], refused: [], error }, status);
}

/**
 * The request body, read no further than `cap` bytes: null as soon as it is larger (by its
 * declared length or by what actually arrives), so an oversized upload is never held whole.
 */
async function readBodyCapped(request: Request, cap: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > cap) return null;
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** Uploads are POSTed; any other request for this address (a typed URL, a crawler) is answered 405. */
export function loader() {
  return new Response("Send the files with POST.", { status: 405, headers: { Allow: "POST", ...NO_STORE } });
}

/**
 * Upload Files (admin): POST multipart/form-data with `category` and one or more `files`.
 * Each file is checked on its own (type by name and content, 20 MB); the answer lists the
 * stored files and the refused ones with the reason. 400 when nothing was stored.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  if (request.method !== "POST") return refusedRequest("Send the files with POST.", 405);
  if (!(await isClientAccount(params.clientId))) return refusedRequest("That client does not exist.", 404);

  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType))
    return refusedRequest("Send the files as multipart/form-data.", 415);

  const body = await readBodyCapped(request, MAX_UPLOAD_REQUEST_BYTES);
  if (!body) return refusedRequest("The upload is larger than 100 MB. Send fewer files at a time.", 413);

  let form: FormData;
  try {
    form = await new Response(body, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    return refusedRequest("The upload could not be read. Please try again.", 400);
  }

  const category = form.get("category");
  if (!isDocumentCategory(category))
    return refusedRequest("Choose one of the eight document categories.", 400);
  const sent = form.getAll("files").filter((v): v is File => typeof v !== "string");
  if (sent.length === 0) return refusedRequest("No file was sent.", 400);

  const files: UploadFile[] = [];
  for (const file of sent) files.push({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });

  const outcome = await saveUploads(admin, { clientId: params.clientId, category, files }, context.clientIp);
  if (outcome === "no-such-client") return refusedRequest("That client does not exist.", 404);
  return answer(outcome, outcome.uploaded.length > 0 ? 200 : 400);
}
