import type { z } from "zod";

/**
 * A refusal of what a person asked: what they are told, and nothing was changed. The input was
 * refused (a page answers 400) unless `status` says the act is not theirs to do (403) or names
 * nothing there is (404).
 */
export type Refused = { ok: false; error: string; status?: 403 | 404 };
export function refused(error: string, status?: 403 | 404): Refused {
  return status === undefined ? { ok: false, error } : { ok: false, error, status };
}

/** Field name → first message, for showing one message under each field. */
export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

/** The first message of each field that failed, in the schema's own order. */
export function fieldErrors<K extends string>(error: z.ZodError): FieldErrors<K> {
  const out: Partial<Record<string, string>> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out as FieldErrors<K>;
}

/**
 * The same shape check everywhere: something@something.something
 * (docs/product/accounts.md#e-mail-addresses), no control characters.
 */
export const EMAIL_SHAPE = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;

const UUID_PATTERN = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/**
 * An id as the database keeps it (a UUID), in any case. Anything else names no record, and must
 * not reach a query: the database would refuse it as a uuid.
 */
export const UUID_SHAPE = new RegExp(`^${UUID_PATTERN}$`, "i");

/** Every UUID within a text (for `replace`). */
export const UUIDS_IN_TEXT = new RegExp(`\\b${UUID_PATTERN}\\b`, "gi");

/** Whether `value` is a UUID (UUID_SHAPE). */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID_SHAPE.test(value);
}

/**
 * Control characters other than tab and line breaks: never typed by a person, and NUL cannot
 * be stored at all (PostgreSQL text refuses it).
 */
export function hasControlCharacters(value: string): boolean {
  return /(?![\t\n\r])\p{Cc}/u.test(value);
}

export const CONTROL_CHARACTERS_MESSAGE = "This contains characters that are not allowed";
