import { z } from "~/domain/zod";
import { CONTROL_CHARACTERS_MESSAGE, fieldErrors } from "~/domain/validation";
import type { FieldErrors } from "~/domain/validation";

/**
 * The fields of a posted form. A body that is not a form (JSON, plain text, broken multipart,
 * none at all) is the sender's mistake: it is answered 400, never with a server error.
 */
async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new Response("The form could not be read.", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}

/** What a form's fields hold before a schema reads them: one text, or several for a repeated name. */
export type RawForm = Record<string, string | string[]>;

export type ParsedForm<T> =
  | { ok: true; values: T; raw: RawForm }
  | {
      ok: false;
      /** The first message of each field that failed, in the schema's order. */
      errors: FieldErrors;
      /** The first of them: the field and its message (the pages that show one message at a time). */
      first: { field: string; message: string };
      raw: RawForm;
    };

/**
 * The one way an action reads its form: the body is read (a body that is not a form is answered
 * 400), its fields are checked against `schema`, and the action gets typed values or each
 * field's first message. The schema's own rules answer first (their messages are the page's);
 * then, whatever the schema accepted, a value it returns that holds a NUL character is refused
 * here (PostgreSQL cannot store it and no person types it), except a password, which is never
 * stored (only its hash) and is exactly what was typed. Fields the schema does not return are
 * ignored, as before. Files are not taken: forms with files are read as a stream
 * (app/server/http/multipart.server.ts). The body itself is already capped at 64 KB before it is
 * read (app/server/http/body-limit.server.ts).
 */
export async function parseForm<S extends z.ZodType>(request: Request, schema: S): Promise<ParsedForm<z.output<S>>> {
  const form = await readForm(request);
  // No prototype: a field named "__proto__" or "constructor" is a field like any other.
  const raw: RawForm = Object.create(null) as RawForm;
  const files = new Set<string>();
  for (const [name, value] of form) {
    if (typeof value !== "string") {
      files.add(name);
      continue;
    }
    const before = raw[name];
    raw[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  const result = await schema.safeParseAsync(raw);
  if (!result.success) {
    const found = fieldErrors(result.error);
    const [field, message] = Object.entries(found)[0] ?? ["form", "The form could not be read."];
    return { ok: false, errors: found, first: { field, message: message ?? "The form could not be read." }, raw };
  }
  const errors: FieldErrors = {};
  const values: unknown = result.data;
  if (values && typeof values === "object") {
    for (const [name, value] of Object.entries(values)) {
      if (files.has(name)) errors[name] ??= "Files cannot be sent with this form.";
      else if (!UNSTORED_FIELDS.has(name) && holdsNul(value)) errors[name] ??= CONTROL_CHARACTERS_MESSAGE;
    }
  }
  const nameWithError = Object.keys(errors)[0];
  if (nameWithError !== undefined)
    return { ok: false, errors, first: { field: nameWithError, message: errors[nameWithError]! }, raw };
  return { ok: true, values: result.data, raw };
}

/** Fields kept only as a hash, never as text: any character typed is part of them. */
const UNSTORED_FIELDS = new Set(["password", "confirmPassword", "newPassword"]);

function holdsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  return Array.isArray(value) && value.some((item) => typeof item === "string" && item.includes("\u0000"));
}

/**
 * The texts a form sent in `fields` (a repeated field's first, "" for one not sent): what a page
 * shows again in its form when the form is refused.
 */
export function sentTexts<K extends string>(raw: RawForm, fields: readonly K[]): Record<K, string> {
  return Object.fromEntries(fields.map((field) => [field, [raw[field] ?? ""].flat()[0] ?? ""])) as Record<K, string>;
}

/** A field that may be sent several times (check boxes, a multiple select): always a list. */
export function repeated<T extends z.ZodType>(item: T) {
  return z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(item));
}

/** A text field that may be left out: trimmed, and "" when it was not sent (never for passwords). */
export const trimmedText = z.preprocess((value) => (typeof value === "string" ? value.trim() : value === undefined ? "" : value), z.string());
