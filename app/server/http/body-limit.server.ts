import { Transform } from "node:stream";
import type { Readable } from "node:stream";
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_REQUEST_BYTES } from "~/domain/documents";

/** A form (sign-in, sign-up, contact, reset, a staff action) is never larger than this. */
export const FORM_BODY_MAX_BYTES = 64 * 1024;

export type BodyLimit = { maxBytes: number; refusal: string };

const FORM_LIMIT: BodyLimit = { maxBytes: FORM_BODY_MAX_BYTES, refusal: "The form is too large." };

/** A Stripe event posted to the webhook. */
export const STRIPE_EVENT_MAX_BYTES = 1024 * 1024;

/** A hand-signed form's upload: one file and the form's few fields. */
export const SIGNED_FORM_BODY_MAX_BYTES = MAX_UPLOAD_BYTES + FORM_BODY_MAX_BYTES;

/**
 * The only addresses that take a body larger than a form, each with its own ceiling. The route
 * behind each reads its body with the same cap itself.
 */
export const LARGE_BODY_ROUTES: ReadonlyArray<{ path: RegExp } & BodyLimit> = [
  {
    path: /^\/admin\/clients\/[^/]+\/documents\/upload\/?$/i,
    maxBytes: MAX_UPLOAD_REQUEST_BYTES,
    refusal: "The upload is larger than 100 MB. Send fewer files at a time.",
  },
  // A client's own uploads to a tax year's filing.
  {
    path: /^\/my-tax-filing\/\d{4}\/documents\/?$/i,
    maxBytes: MAX_UPLOAD_REQUEST_BYTES,
    refusal: "The upload is larger than 100 MB. Send fewer files at a time.",
  },
  // A case's conversation, the client's and the staff's page (a message may carry files; the
  // page's own form post goes to the route's .data address when JavaScript runs).
  {
    path: /^\/my-tax-filing\/\d{4}\/messages(?:\.data)?\/?$/i,
    maxBytes: MAX_UPLOAD_REQUEST_BYTES,
    refusal: "The message and its files are larger than 100 MB. Send fewer files with it.",
  },
  {
    path: /^\/admin\/clients\/[^/]+\/\d{4}\/messages(?:\.data)?\/?$/i,
    maxBytes: MAX_UPLOAD_REQUEST_BYTES,
    refusal: "The message and its files are larger than 100 MB. Send fewer files with it.",
  },
  // A case's Return section: the draft return, the authorisation form, the final copies.
  {
    path: /^\/admin\/clients\/[^/]+\/\d{4}\/return(?:\.data)?\/?$/i,
    maxBytes: MAX_UPLOAD_REQUEST_BYTES,
    refusal: "The upload is larger than 100 MB.",
  },
  // The hand-signed e-file authorisation: the client's upload and the spouse's.
  {
    path: /^\/my-tax-filing\/\d{4}\/signed-form\/?$/i,
    maxBytes: SIGNED_FORM_BODY_MAX_BYTES,
    refusal: "The file is larger than 20 MB.",
  },
  {
    path: /^\/sign\/[^/]+\/signed-form\/?$/i,
    maxBytes: SIGNED_FORM_BODY_MAX_BYTES,
    refusal: "The file is larger than 20 MB.",
  },
  // Stripe's events (app/routes/api/stripe-webhook.ts): a few KB as a rule; a refused event
  // would be sent again for days, so its cap is generous.
  {
    path: /^\/api\/stripe\/webhook$/,
    maxBytes: STRIPE_EVENT_MAX_BYTES,
    refusal: "The event is too large.",
  },
];

/** How large a body the address `pathname` (no query string) accepts, and what a larger one is told. */
export function bodyLimitFor(pathname: string): BodyLimit {
  return LARGE_BODY_ROUTES.find((route) => route.path.test(pathname)) ?? FORM_LIMIT;
}

/** True when the declared Content-Length already exceeds the limit. */
export function declaredTooLarge(contentLength: string | undefined, limit: BodyLimit): boolean {
  const declared = Number(contentLength);
  return Number.isFinite(declared) && declared > limit.maxBytes;
}

export class BodyTooLargeError extends Error {
  constructor() {
    super("The request body is larger than allowed.");
    this.name = "BodyTooLargeError";
  }
}

/**
 * The request body, passed on as it arrives and counted: once more than `maxBytes` have come,
 * `onTooLarge` is called (once), the source is no longer read and the stream fails, so nothing
 * past the cap is ever held. A source that closes before its end fails the stream too.
 */
export function cappedBody(source: Readable, maxBytes: number, onTooLarge: () => void): Readable {
  let total = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      total += chunk.byteLength;
      if (total <= maxBytes) return callback(null, chunk);
      source.unpipe(counted);
      onTooLarge();
      callback(new BodyTooLargeError());
    },
  });
  source.once("close", () => {
    if (!source.readableEnded) counted.destroy(new Error("The request was cut short."));
  });
  source.pipe(counted);
  return counted;
}
