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

/** The same shape check everywhere: something@something.something (decisions.md). */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
