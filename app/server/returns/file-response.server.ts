import { cleanFileName } from "~/domain/documents";
import { FEE_TEXTS } from "~/domain/fees";
import { NO_STORE } from "~/server/auth/session.server";

// A case's file (a document, the draft, the form to sign) as a download: always an attachment,
// never cached, streamed from storage; the same 404 for a file that is not the visitor's as for
// none, and 402 with its reason for a file the fee withholds (withheldForFee).

/** RFC 8187 value: percent-encoded UTF-8, including the characters encodeURIComponent keeps. */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 one. */
export function contentDisposition(name: string): string {
  const clean = cleanFileName(name);
  const ascii = clean.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(clean)}`;
}

export function notFoundFile(): Response {
  return new Response("Document not found.", { status: 404, headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" } });
}

/** A file the fee withholds: the answer says so, never the file (402 Payment Required). */
export function waitsForFeeFile(): Response {
  return new Response(FEE_TEXTS.finalCopiesLocked, { status: 402, headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" } });
}

export async function fileResponse(
  request: Request,
  file: { name: string; contentType: string; size: number; body: ReadableStream<Uint8Array> } | "waits-for-fee" | null,
): Promise<Response> {
  if (!file) return notFoundFile();
  if (file === "waits-for-fee") return waitsForFeeFile();
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
