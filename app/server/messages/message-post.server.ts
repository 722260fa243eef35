import { caseFullMessage, MAX_UPLOAD_BYTES, MAX_UPLOAD_REQUEST_BYTES, REFUSED_NO_ROOM, REFUSED_TYPE } from "~/domain/documents";
import { discardReceived, receiveUpload } from "~/server/documents/upload.server";
import type { ReceivedFile } from "~/server/documents/upload.server";
import { FORM_BODY_MAX_BYTES } from "~/server/http/body-limit.server";
import type { RawForm } from "~/server/http/form.server";
import { readMultipart } from "~/server/http/multipart.server";
import { releaseHandedOver } from "~/server/storage/storage.server";

// Reading a conversation page's post: the same for the client's page and staff's.

export type MessagePost =
  | { ok: true; raw: RawForm; files: ReceivedFile[] }
  | { ok: false; status: number; problem: "too-large" | "unreadable" };

/** Reads what is left of a file nobody records: how many bytes it held. */
async function drainCount(chunks: AsyncIterable<Uint8Array>): Promise<number> {
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    releaseHandedOver(chunk);
  }
  return size;
}

/**
 * A conversation page's post, whichever way the browser sent it: multipart (the compose form,
 * which may carry files) or a plain form (Hide). A multipart body is read as a stream with the
 * uploads' limits, each file checked and stored as it arrives (documents/upload.server.ts receiveUpload,
 * the same checks as every upload); a file input left empty sends a part with no name and no
 * bytes, which is not a file. Any other body is read up to a form's size (64 KB). The stored
 * files are not recorded: the caller records them or discards them. `roomBytes` is what the
 * case's documents may still take: a file that passes it is refused (REFUSED_NO_ROOM, see
 * noRoomFor). With `storeFiles` false (a post that is refused whatever it holds) every file is
 * read and thrown away, never stored.
 */
export async function readMessagePost(
  request: Request,
  options: { roomBytes: number; storeFiles?: boolean },
): Promise<MessagePost> {
  const room = { left: options.roomBytes };
  const contentType = request.headers.get("content-type") ?? "";
  if (/^multipart\/form-data\s*;/i.test(contentType)) {
    const files: ReceivedFile[] = [];
    const form = await readMultipart(
      request,
      { maxRequestBytes: MAX_UPLOAD_REQUEST_BYTES, maxFileBytes: MAX_UPLOAD_BYTES, maxFieldBytes: FORM_BODY_MAX_BYTES },
      async (file) => {
        if (file.field !== "files") return;
        if (options.storeFiles === false) {
          await drainCount(file.chunks);
          return;
        }
        if (file.name === "") {
          if ((await drainCount(file.chunks)) > 0) files.push({ name: "(no name)", refused: REFUSED_TYPE });
          return;
        }
        files.push(await receiveUpload(file.name, file.chunks, room));
      },
    );
    if (!form.ok) {
      await discardReceived(files);
      return { ok: false, status: form.problem === "too-large" ? 413 : 400, problem: form.problem };
    }
    const raw: RawForm = Object.create(null) as RawForm;
    for (const [name, values] of form.fields) raw[name] = values.length === 1 ? values[0]! : values;
    return { ok: true, raw, files };
  }
  const text = await readCapped(request, FORM_BODY_MAX_BYTES);
  if (text === null) return { ok: false, status: 413, problem: "too-large" };
  if (!/^application\/x-www-form-urlencoded\b/i.test(contentType) && text.trim() !== "")
    return { ok: false, status: 400, problem: "unreadable" };
  const raw: RawForm = Object.create(null) as RawForm;
  for (const [name, value] of new URLSearchParams(text)) {
    const before = raw[name];
    raw[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  return { ok: true, raw, files: [] };
}

/** The refusal of a post whose files did not fit in the case's room (`roomBytes` when it was read), or null. */
export function noRoomFor(files: ReceivedFile[], roomBytes: number): string | null {
  return files.some((f) => "refused" in f && f.refused === REFUSED_NO_ROOM) ? caseFullMessage(roomBytes) : null;
}

/** The body as text when it is at most `maxBytes`; null when it is larger. */
async function readCapped(request: Request, maxBytes: number): Promise<string | null> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) return null;
  const reader = request.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    total += next.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
