import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { MAX_UPLOAD_REQUEST_BYTES } from "~/domain/documents";
import {
  bodyLimitFor,
  BodyTooLargeError,
  cappedBody,
  declaredTooLarge,
  FORM_BODY_MAX_BYTES,
  SIGNED_FORM_BODY_MAX_BYTES,
} from "~/server/http/body-limit.server";

/** A body of `chunks` chunks of 16 KB, counting how many were read from it. */
function source(chunks: number): { stream: Readable; read: () => number } {
  let read = 0;
  const stream = new Readable({
    read() {
      if (read === chunks) return void this.push(null);
      read += 1;
      this.push(Buffer.alloc(16 * 1024, 0x61));
    },
  });
  return { stream, read: () => read };
}

async function drain(body: Readable): Promise<number> {
  let total = 0;
  for await (const chunk of body) total += (chunk as Buffer).byteLength;
  return total;
}

describe("request body limits", () => {
  it("gives forms 64 KB and only the upload addresses their own, larger cap", () => {
    expect(FORM_BODY_MAX_BYTES).toBe(64 * 1024);
    for (const form of ["/contact", "/login", "/signup", "/admin/dashboard.data", "/api/auth/sign-in/email"])
      expect(bodyLimitFor(form)).toEqual({
        maxBytes: FORM_BODY_MAX_BYTES,
        refusal: "The form is too large.",
      });
    expect(bodyLimitFor("/admin/clients/6f1c/documents/upload").maxBytes).toBe(MAX_UPLOAD_REQUEST_BYTES);
    // Not the upload: the page around it, or another address that ends the same way.
    expect(bodyLimitFor("/admin/clients/6f1c/documents").maxBytes).toBe(FORM_BODY_MAX_BYTES);
    expect(bodyLimitFor("/contact/admin/clients/6f1c/documents/upload").maxBytes).toBe(FORM_BODY_MAX_BYTES);
    expect(bodyLimitFor("/admin/clients/a/b/documents/upload").maxBytes).toBe(FORM_BODY_MAX_BYTES);
    // A client's uploads to a year's filing; the filing page itself takes forms.
    expect(bodyLimitFor("/my-tax-filing/2025/documents").maxBytes).toBe(MAX_UPLOAD_REQUEST_BYTES);
    // A case's Return section takes the draft return, the authorisation form and the final copies.
    expect(bodyLimitFor("/admin/clients/6f1c/2025/return").maxBytes).toBe(MAX_UPLOAD_REQUEST_BYTES);
    expect(bodyLimitFor("/admin/clients/6f1c/2025/return.data").maxBytes).toBe(MAX_UPLOAD_REQUEST_BYTES);
    expect(bodyLimitFor("/admin/clients/6f1c/2025/workflow").maxBytes).toBe(FORM_BODY_MAX_BYTES);
    expect(bodyLimitFor("/my-tax-filing/2025").maxBytes).toBe(FORM_BODY_MAX_BYTES);
    expect(bodyLimitFor("/my-tax-filing/2025/documents.data").maxBytes).toBe(FORM_BODY_MAX_BYTES);
    // The hand-signed e-file authorisation: one file of up to 20 MB; the signing pages take forms.
    expect(bodyLimitFor("/my-tax-filing/2025/signed-form").maxBytes).toBe(SIGNED_FORM_BODY_MAX_BYTES);
    expect(bodyLimitFor("/sign/AbC-123_x/signed-form").maxBytes).toBe(SIGNED_FORM_BODY_MAX_BYTES);
    expect(bodyLimitFor("/sign/AbC-123_x").maxBytes).toBe(FORM_BODY_MAX_BYTES);
    expect(bodyLimitFor("/sign/a/b/signed-form").maxBytes).toBe(FORM_BODY_MAX_BYTES);
  });

  it("refuses a declared length over the cap", () => {
    const form = bodyLimitFor("/contact");
    expect(declaredTooLarge(String(64 * 1024), form)).toBe(false);
    expect(declaredTooLarge(String(64 * 1024 + 1), form)).toBe(true);
    expect(declaredTooLarge(undefined, form)).toBe(false);
  });

  it("passes a body within the cap through whole", async () => {
    const { stream } = source(4);
    let refused = 0;
    expect(await drain(cappedBody(stream, FORM_BODY_MAX_BYTES, () => (refused += 1)))).toBe(64 * 1024);
    expect(refused).toBe(0);
  });

  it("stops reading a body without a length at the cap and says so once", async () => {
    const { stream, read } = source(3_200); // 50 MB
    let refused = 0;
    await expect(drain(cappedBody(stream, FORM_BODY_MAX_BYTES, () => (refused += 1)))).rejects.toBeInstanceOf(
      BodyTooLargeError,
    );
    expect(refused).toBe(1);
    // What was read is the cap and what the stream buffers ahead, not the 50 MB.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(read() * 16 * 1024).toBeLessThan(256 * 1024);
  });
});
