import { contentDisposition } from "~/routes/portal/document-download";
import { NO_STORE } from "~/server/auth/session.server";

// A return's file (the draft, the form to sign) as a download: always an attachment, never
// cached, streamed from storage; the same 404 for a file that is not the visitor's as for none.

export function notFoundFile(): Response {
  return new Response("Document not found.", { status: 404, headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" } });
}

export async function fileResponse(
  request: Request,
  file: { name: string; contentType: string; size: number; body: ReadableStream<Uint8Array> } | null,
): Promise<Response> {
  if (!file) return notFoundFile();
  const headers = {
    ...NO_STORE,
    "Content-Type": file.contentType,
    "Content-Length": String(file.size),
    "Content-Disposition": contentDisposition(file.name),
  };
  if (request.method === "HEAD") {
    await file.body.cancel();
    return new Response(null, { status: 200, headers });
  }
  return new Response(file.body, { status: 200, headers });
}
