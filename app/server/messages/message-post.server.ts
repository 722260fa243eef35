import type { z } from "zod";
import { caseFullMessage, MAX_UPLOAD_BYTES, MAX_UPLOAD_REQUEST_BYTES, REFUSED_NO_ROOM, REFUSED_TYPE } from "~/domain/documents";
import type { DocumentCategoryKey } from "~/domain/documents";
import { asksToEdit, MESSAGE_TEXTS } from "~/domain/messages";
import type { MessageActionResult } from "~/domain/messages";
import { fieldErrors } from "~/domain/validation";
import { discardReceived, receiveUpload } from "~/server/documents/upload.server";
import type { ReceivedFile } from "~/server/documents/upload.server";
import { FORM_BODY_MAX_BYTES } from "~/server/http/body-limit.server";
import type { RawForm } from "~/server/http/form.server";
import { readMultipart } from "~/server/http/multipart.server";
import { releaseHandedOver } from "~/server/storage/storage.server";

// Reading a conversation page's post: one reader for the client's page and staff's.

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

/** The first value of a posted field, "" when it was not sent. */
const firstOf = (raw: RawForm, name: string): string => [raw[name] ?? ""].flat()[0] ?? "";

/** The message text of a post as sent ("" when it had none or could not be read), to be shown again. */
export function postedText(posted: MessagePost): string {
  return posted.ok ? firstOf(posted.raw, "body") : "";
}

/** A post refused: the page's answer and its status. The post's received files are discarded. */
export type MessageRefusal = { ok: false; result: MessageActionResult; status: number };

/** A post read and valid: the page's form, the received files (stored, not recorded), and the text as sent. */
export type MessageForm<T> = { ok: true; form: T; files: ReceivedFile[]; sentBody: string };

/** Refuses a message being sent: its files are discarded and its text is given back to the page. */
export async function refuseSend(
  post: { files: ReceivedFile[]; sentBody: string },
  message: string,
  status: number,
  refused?: Array<{ name: string; reason: string }>,
): Promise<MessageRefusal> {
  await discardReceived(post.files);
  return { ok: false, result: { intent: "send", ok: false, message, body: post.sentBody, ...(refused ? { refused } : {}) }, status };
}

/**
 * A conversation page's post (readMessagePost) checked against the page's form: `schema` is the
 * client's (send) or staff's (send, hide; `hides`). Refused, with the files discarded: a post
 * that could not be read (413 or 400); a message that fails the form (400, its text given back:
 * the field's error); a Hide that does not name a message (400); any other intent (400, saying
 * that messages are never changed when it asks to edit one).
 */
export async function parseMessagePost<T>(
  posted: MessagePost,
  schema: z.ZodType<T>,
  options: { hides: boolean },
): Promise<MessageForm<T> | MessageRefusal> {
  if (!posted.ok)
    return {
      ok: false,
      result: {
        intent: "unknown",
        ok: false,
        message: posted.problem === "too-large" ? MESSAGE_TEXTS.uploadTooLarge : MESSAGE_TEXTS.unreadable,
      },
      status: posted.status,
    };
  const { raw, files } = posted;
  const sentBody = firstOf(raw, "body");
  const parsed = await schema.safeParseAsync(raw);
  if (parsed.success) return { ok: true, form: parsed.data, files, sentBody };
  const intent = firstOf(raw, "intent");
  if (intent === "send") {
    const errors = fieldErrors(parsed.error);
    return refuseSend({ files, sentBody }, errors.body ?? errors.category ?? MESSAGE_TEXTS.badForm, 400);
  }
  await discardReceived(files);
  if (intent === "hide" && options.hides)
    return { ok: false, result: { intent: "hide", ok: false, message: MESSAGE_TEXTS.notHidden }, status: 400 };
  return {
    ok: false,
    result: { intent: "unknown", ok: false, message: asksToEdit(intent) ? MESSAGE_TEXTS.noEditing : MESSAGE_TEXTS.badForm },
    status: 400,
  };
}

/**
 * Why a message's files cannot be sent, or null when they all can (or there are none): no
 * category chosen (400), more than the case's room (`roomBytes` when the post was read: 413),
 * or a file that failed its checks (400, with each refused file and its reason). The caller
 * refuses the post with refuseSend.
 */
export function filesRefusal(
  files: ReceivedFile[],
  category: DocumentCategoryKey | null,
  roomBytes: number,
): { message: string; status: number; refused?: Array<{ name: string; reason: string }> } | null {
  if (files.length === 0) return null;
  if (category === null) return { message: MESSAGE_TEXTS.chooseCategory, status: 400 };
  const noRoom = noRoomFor(files, roomBytes);
  if (noRoom) return { message: noRoom, status: 413 };
  const refused = files.flatMap((f) => ("refused" in f ? [{ name: f.name, reason: f.refused }] : []));
  if (refused.length > 0) return { message: MESSAGE_TEXTS.filesRefused, status: 400, refused };
  return null;
}
