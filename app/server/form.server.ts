import { z } from "~/domain/zod";
import { CONTROL_CHARACTERS_MESSAGE, fieldErrors } from "~/domain/validation";
import type { FieldErrors } from "~/domain/validation";

/**
 * The fields of a posted form. A body that is not a form (JSON, plain text, broken multipart,
 * none at all) is the sender's mistake: it is answered 400, never with a server error.
 */
export async function readForm(request: Request): Promise<FormData> {
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
 * field's first message. Whatever the schema says, a NUL character in any field is refused here
 * (PostgreSQL cannot store it and no person types it), and files are not taken: forms with files
 * are read as a stream (app/server/multipart.server.ts). The body itself is already capped at
 * 64 KB before it is read (app/server/body-limit.server.ts).
 */
export async function parseForm<S extends z.ZodType>(request: Request, schema: S): Promise<ParsedForm<z.output<S>>> {
  const form = await readForm(request);
  const raw: RawForm = {};
  const errors: FieldErrors = {};
  for (const [name, value] of form) {
    if (typeof value !== "string") {
      errors[name] ??= "Files cannot be sent with this form.";
      continue;
    }
    if (value.includes("\u0000")) errors[name] ??= CONTROL_CHARACTERS_MESSAGE;
    const before = raw[name];
    raw[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  const nameWithError = Object.keys(errors)[0];
  if (nameWithError !== undefined)
    return { ok: false, errors, first: { field: nameWithError, message: errors[nameWithError]! }, raw };
  const result = await schema.safeParseAsync(raw);
  if (result.success) return { ok: true, values: result.data, raw };
  const found = fieldErrors(result.error);
  const [field, message] = Object.entries(found)[0] ?? ["form", "The form could not be read."];
  return { ok: false, errors: found, first: { field, message: message ?? "The form could not be read." }, raw };
}

/** A field that may be sent several times (check boxes, a multiple select): always a list. */
export function repeated<T extends z.ZodType>(item: T) {
  return z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(item));
}

/** A text field that may be left out: trimmed, and "" when it was not sent (never for passwords). */
export const trimmedText = z.preprocess((value) => (typeof value === "string" ? value.trim() : value === undefined ? "" : value), z.string());
