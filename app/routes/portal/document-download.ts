import type { Route } from "./+types/document-download";
import { cleanFileName } from "~/domain/documents";
import { documentForDownload } from "~/server/documents.server";
import { NO_STORE, userContext } from "~/server/session.server";

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
 * A document's file, for staff or for the client it belongs to. Anyone else gets the same 404
 * as for a document that does not exist. Always an attachment, never rendered by the browser.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const actor = context.get(userContext);
  const doc = await documentForDownload(actor, params.documentId, context.clientIp);
  if (!doc) return notFound();
  return new Response(doc.bytes.slice(), {
    status: 200,
    headers: {
      ...NO_STORE,
      "Content-Type": doc.contentType,
      "Content-Length": String(doc.bytes.byteLength),
      "Content-Disposition": contentDisposition(doc.name),
    },
  });
}
