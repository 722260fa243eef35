import { MAX_UPLOAD_BYTES, REFUSED_EMPTY, REFUSED_TOO_LARGE } from "~/domain/documents";
import { NO_STORE } from "~/server/auth/session.server";
import { RETURN_CLIENT_MESSAGES, signedFormAnswerOf } from "~/domain/return-client";
import type { ReturnFormResult, SignedFormAnswer, SignForm } from "~/domain/return-client";
import { logError } from "~/log";
import { discardReceived, receiveUpload } from "~/server/documents/upload.server";
import type { ReceivedFile } from "~/server/documents/upload.server";
import { FORM_BODY_MAX_BYTES, SIGNED_FORM_BODY_MAX_BYTES } from "~/server/http/body-limit.server";
import { mailServerFailing } from "~/server/mail/outbox.server";
import { readMultipart } from "~/server/http/multipart.server";
import type { z } from "~/domain/zod";
import { uploadHandwritten } from "./handwritten.server";
import { signWithEmailCode } from "./e-signing.server";
import type { SignerAccess } from "./signer-access.server";
import { startEmailCode } from "./signing-codes.server";

// The signing forms' actions, the same for the client's filing page and the spouse's page: send
// a code, sign with it, upload a hand-signed form. The server functions decide; a refusal keeps
// their message and changes nothing.

export type SignerAnswer = { result: ReturnFormResult; status: number };

const answer = (intent: ReturnFormResult["intent"], ok: boolean, message: string, status = ok ? 200 : 400): SignerAnswer => ({
  result: { intent, ok, message },
  status,
});

/** Whether a request's body is a multipart form (the hand-signed upload). */
export function isMultipart(request: Request): boolean {
  return /^multipart\/form-data\s*;/i.test(request.headers.get("content-type") ?? "");
}

/**
 * "Send me a code". The code's e-mail is queued and sent once the answer has gone: the answer
 * says so, or that the mail server is failing when the outbox knows it is (mailServerFailing).
 */
export async function sendCode(access: SignerAccess, ip: string): Promise<SignerAnswer> {
  const sent = await startEmailCode(access, ip);
  if (!sent.ok) return answer("send-code", false, sent.error, 409);
  if (await mailServerFailing()) return answer("send-code", false, RETURN_CLIENT_MESSAGES.codeNotSent(sent.sentTo), 503);
  return answer("send-code", true, RETURN_CLIENT_MESSAGES.codeSent(sent.sentTo));
}

/** "Sign": the consent ticked, the typed name and the code checked first here, then by the server. */
export async function signWithCode(
  access: SignerAccess,
  form: z.output<typeof SignForm>,
  context: { ip: string; userAgent: string },
): Promise<SignerAnswer> {
  if (!form.consent) return answer("sign", false, RETURN_CLIENT_MESSAGES.consentRequired);
  if (form.typedName.trim() === "") return answer("sign", false, RETURN_CLIENT_MESSAGES.nameRequired);
  if (form.code.trim() === "") return answer("sign", false, RETURN_CLIENT_MESSAGES.codeRequired);
  const signed = await signWithEmailCode(access, {
    code: form.code,
    typedName: form.typedName,
    consentVersion: form.consentVersion,
    declarationVersion: form.declarationVersion,
    timeZone: form.timeZone.trim(),
    ip: context.ip,
    userAgent: context.userAgent,
  });
  return signed.ok ? answer("sign", true, RETURN_CLIENT_MESSAGES.signed) : answer("sign", false, signed.error, 409);
}

/**
 * The hand-signed form's upload: POST multipart/form-data with one `file` (PDF, JPEG or PNG),
 * streamed to storage as it arrives (documents/upload.server.ts receiveUpload), then recorded
 * by uploadHandwritten, or removed when refused. Answers the key the page says it with.
 */
export async function uploadSignedForm(access: SignerAccess, request: Request, ip: string): Promise<SignedFormAnswer> {
  if (!isMultipart(request)) return "no-file";
  const files: ReceivedFile[] = [];
  const form = await readMultipart(
    request,
    { maxRequestBytes: SIGNED_FORM_BODY_MAX_BYTES, maxFileBytes: MAX_UPLOAD_BYTES, maxFieldBytes: FORM_BODY_MAX_BYTES },
    async (file) => {
      if (file.field === "file" && file.name !== "") files.push(await receiveUpload(file.name, file.chunks));
      else for await (const chunk of file.chunks) void chunk;
    },
  );
  if (!form.ok) {
    await discardReceived(files);
    return form.problem === "too-large" ? "too-large" : "failed";
  }
  const [first, ...extra] = files;
  await discardReceived(extra);
  if (!first) return "no-file";
  if ("refused" in first) return first.refused === REFUSED_TOO_LARGE ? "too-large" : first.refused === REFUSED_EMPTY ? "no-file" : "not-scan";
  try {
    const uploaded = await uploadHandwritten(access, first, ip);
    return uploaded.ok ? "received" : signedFormAnswerOf(uploaded.error);
  } catch (error) {
    await discardReceived([first]);
    logError("returns", "could not record a hand-signed form", error);
    return "failed";
  }
}

/** Where the upload sends the browser back to: the page, saying the answer. */
export function backToPage(page: string, answer: SignedFormAnswer, anchor = ""): Response {
  return new Response(null, { status: 303, headers: { ...NO_STORE, Location: `${page}?signed-form=${answer}${anchor}` } });
}
