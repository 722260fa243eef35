import type { Route } from "./+types/document-download";
import { logError } from "~/log";
import { documentForDownload, documentHiddenFromStaff } from "~/server/documents/download.server";
import { contentDisposition, notFoundFile, waitsForFeeFile } from "~/server/returns/file-response.server";
import { NO_STORE, userContext } from "~/server/auth/session.server";
import { OUTSIDE_US_MESSAGES } from "~/server/consents/outside-us.server";

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
  // Staff who work outside the United States: not without the client's consent to disclose.
  if (!doc && (await documentHiddenFromStaff(actor, params.documentId)))
    return new Response(OUTSIDE_US_MESSAGES.noConsent, { status: 403, headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" } });
  if (!doc) return notFoundFile();
  // The final copies wait for the fee: the answer says so, never the file (402 Payment Required).
  if (doc === "waits-for-fee") return waitsForFeeFile();
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
