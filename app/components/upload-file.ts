import type { DocumentCategoryKey, UploadAnswer } from "~/domain/documents";

/** What sending one file came to: the server's answer, or why it never gave one. */
export type UploadResult = { kind: "answer"; status: number; body: UploadAnswer } | { kind: "error"; message: string };

function isUploadAnswer(value: unknown): value is UploadAnswer {
  if (!value || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v.uploaded) && Array.isArray(v.refused);
}

/**
 * Sends one file to an upload address (fields `category` and `files`) with XMLHttpRequest,
 * which, unlike fetch, reports how much of the upload has gone (`onProgress`, 0 to 1). Used by
 * the client's uploader and the staff's Document Management. `requestId` sends the file against
 * one of the case's requested items (the client's upload address files it under the item).
 */
export function uploadFile(
  url: string,
  category: DocumentCategoryKey,
  file: File,
  onProgress: (fraction: number) => void,
  options: { requestId?: string } = {},
): Promise<UploadResult> {
  return new Promise<UploadResult>((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: the sign-in page after the session ended, or a proxy's error page.
      }
      if (isUploadAnswer(body)) return resolve({ kind: "answer", status: xhr.status, body });
      // Redirected elsewhere: to sign in again, or to give the staff security code again.
      if (new URL(xhr.responseURL || url, window.location.href).pathname !== new URL(url, window.location.href).pathname)
        return resolve({ kind: "error", message: "your session has ended; sign in again and send the file once more" });
      if (xhr.status === 413) return resolve({ kind: "error", message: "the file is too large for the server" });
      resolve({ kind: "error", message: `the server did not accept the file (error ${xhr.status}); please try again` });
    };
    xhr.onerror = () => resolve({ kind: "error", message: "the file could not reach us; check your connection and try again" });
    xhr.onabort = () => resolve({ kind: "error", message: "the upload was interrupted; please try again" });
    xhr.ontimeout = () => resolve({ kind: "error", message: "the upload took too long; please try again" });
    const form = new FormData();
    form.append("category", category);
    if (options.requestId) form.append("requestId", options.requestId);
    form.append("files", file, file.name);
    xhr.send(form);
  });
}
