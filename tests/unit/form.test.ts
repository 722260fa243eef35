import { describe, expect, it } from "vitest";
import { z } from "~/domain/zod";
import { CONTROL_CHARACTERS_MESSAGE } from "~/domain/validation";
import { parseForm, repeated, trimmedText } from "~/server/form.server";

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

  it("answers 400 to a body that is not a form", async () => {
    const thrown = await parseForm(post("{}", { "Content-Type": "application/json" }), Schema).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(400);
  });
});
