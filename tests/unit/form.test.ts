import { describe, expect, it } from "vitest";
import { z } from "~/domain/zod";
import { CONTROL_CHARACTERS_MESSAGE } from "~/domain/validation";
import { parseForm, repeated, sentTexts, trimmedText } from "~/server/http/form.server";

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://localhost/form", { method: "POST", body, headers });

const Schema = z.object({
  name: trimmedText.pipe(z.string().min(1, "Name is required")),
  tags: repeated(z.enum(["a", "b"])),
  note: trimmedText,
});

describe("parseForm", () => {
  it("gives typed values: texts trimmed, a repeated field as a list, a missing one empty", async () => {
    const parsed = await parseForm(post(new URLSearchParams([["name", "  Ravi "], ["tags", "a"], ["tags", "b"]])), Schema);
    expect(parsed).toMatchObject({ ok: true, values: { name: "Ravi", tags: ["a", "b"], note: "" } });
    const one = await parseForm(post(new URLSearchParams({ name: "R", tags: "b" })), Schema);
    expect(one.ok && one.values.tags).toEqual(["b"]);
  });

  it("gives each field's first message, and the first of them", async () => {
    const parsed = await parseForm(post(new URLSearchParams({ name: " ", tags: "c" })), Schema);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.name).toBe("Name is required");
    expect(parsed.errors.tags).toBeTruthy();
    expect(parsed.first).toEqual({ field: "name", message: "Name is required" });
  });

  it("refuses a NUL in any field, and a file, before the schema reads them", async () => {
    const nul = await parseForm(post(new URLSearchParams({ name: "Ra\u0000vi", note: "x" })), Schema);
    expect(nul).toMatchObject({ ok: false, first: { field: "name", message: CONTROL_CHARACTERS_MESSAGE } });
    const form = new FormData();
    form.append("name", "Ravi");
    form.append("note", new Blob(["x"]), "x.txt");
    const file = await parseForm(post(form), Schema);
    expect(file).toMatchObject({ ok: false, first: { field: "note", message: "Files cannot be sent with this form." } });
  });

  it("lets the schema's own messages answer first, ignores fields it does not read, and keeps a password as typed", async () => {
    const Strict = z.object({ name: z.string().refine((v) => !v.includes("\u0000"), "Name has a character that is not allowed") });
    const own = await parseForm(post(new URLSearchParams({ name: "Ra\u0000vi" })), Strict);
    expect(own).toMatchObject({ ok: false, first: { field: "name", message: "Name has a character that is not allowed" } });
    const extra = await parseForm(post(new URLSearchParams({ name: "Ravi", admin: "\u0000", tags: "a" })), Schema);
    expect(extra).toMatchObject({ ok: true, values: { name: "Ravi" } });
    const WithPassword = z.object({ email: z.string(), password: z.string() });
    const typed = await parseForm(post(new URLSearchParams({ email: "a@example.com", password: "pass\u0000word" })), WithPassword);
    expect(typed).toMatchObject({ ok: true, values: { password: "pass\u0000word" } });
  });

  it("reads fields named like an object's own properties as fields like any other", async () => {
    const sent = new URLSearchParams([["__proto__", "x"], ["__proto__", "y"], ["constructor", "z"], ["name", "Ravi"]]);
    const parsed = await parseForm(post(sent), z.object({ name: z.string(), constructor: z.string() }));
    expect(parsed).toMatchObject({ ok: true, values: { name: "Ravi", constructor: "z" } });
    expect(Object.getPrototypeOf(parsed.raw)).toBeNull();
    expect(parsed.raw.__proto__).toEqual(["x", "y"]);
  });

  it("gives back the texts sent, to show a refused form again: a repeated field's first, \"\" for one not sent", async () => {
    const parsed = await parseForm(post(new URLSearchParams([["name", " Ravi "], ["name", "Other"], ["tags", "c"]])), Schema);
    expect(parsed.ok).toBe(false);
    expect(sentTexts(parsed.raw, ["name", "note", "tags"])).toEqual({ name: " Ravi ", note: "", tags: "c" });
  });

  it("answers 400 to a body that is not a form", async () => {
    const thrown = await parseForm(post("{}", { "Content-Type": "application/json" }), Schema).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(400);
  });
});
