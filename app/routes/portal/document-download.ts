import type { Route } from "./+types/document-download";
import { cleanFileName } from "~/domain/documents";
import { FEE_TEXTS } from "~/domain/fees";
import { logError } from "~/log";
import { documentForDownload } from "~/server/documents/download.server";
import { NO_STORE, userContext } from "~/server/auth/session.server";

/** RFC 8187 value: percent-encoded UTF-8, including the characters encodeURIComponent keeps. */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 one. */
export function contentDisposition(name: string): string {
  const clean = cleanFileName(name);
  const ascii = clean.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(clean)}`;
}

function notFound(): Response {
  return new Response("Document not found.", {
    status: 404,
    headers: {
      ...NO_STORE,
      "Content-Type": "text/plain; charset=utf-8",
    },
  });
}

/**
 * The file's bytes as they come from storage, with a failure midway logged (the visitor gets a
 * cut-short answer, which its Content-Length shows). Cancelling (the visitor went away) lets go
 * of the file.
 */
function loggingFailures(body: ReadableStream<Uint8Array>, documentId: string): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          logError("documents", `sending the file of document ${documentId} failed midway`, error);
          throw error;
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/**
 * A document's file, for staff or for the client it belongs to. Anyone else gets the same 404
 * as for a document that does not exist. Always an attachment, never rendered by the browser.
 * The file is streamed from storage (the local folder or the bucket), never read whole.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const actor = context.get(userContext);
  const doc = await documentForDownload(actor, params.documentId, context.clientIp);
  if (!doc) return notFound();
  // The final copies wait for the fee: the answer says so, never the file (402 Payment Required).
  if (doc === "waits-for-fee")
    return new Response(FEE_TEXTS.finalCopiesLocked, { status: 402, headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" } });
  const headers = {
    ...NO_STORE,
    "Content-Type": doc.contentType,
    "Content-Length": String(doc.size),
    "Content-Disposition": contentDisposition(doc.name),
  };
  if (request.method === "HEAD") {
    // React Router drops a HEAD answer's body without reading it: the file is let go of here.
    await doc.body.cancel();
    return new Response(null, { status: 200, headers });
  }
  return new Response(loggingFailures(doc.body, doc.id), { status: 200, headers });
}
