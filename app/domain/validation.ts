import type { z } from "zod";

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

/**
 * Control characters other than tab and line breaks: never typed by a person, and NUL cannot
 * be stored at all (PostgreSQL text refuses it).
 */
export function hasControlCharacters(value: string): boolean {
  return /(?![\t\n\r])\p{Cc}/u.test(value);
}

export const CONTROL_CHARACTERS_MESSAGE = "This contains characters that are not allowed";
