import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import { PDFDocument, PDFHexString, StandardFonts } from "@pdfme/pdf-lib";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { sha256Hex, signedAuthorizationPdf, SignedPdfError } from "~/server/returns/signed-pdf.server";
import type { CertificateEntry } from "~/server/returns/signed-pdf.server";

// The signed copy is read back with a real PDF text parser (pdf.js, through unpdf): what a person
// opening the file would see.

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const FORM_HASH = sha("form 8879 as generated");
const RETURN_HASH = sha("return version 3");

/** A three-page "form" with a line of text on each page. */
async function makeForm(pages = 3): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) doc.addPage([612, 792]).drawText(`Form 8879 test page ${i} of ${pages}`, { x: 72, y: 700, size: 12, font });
  return doc.save();
}

async function pagesText(pdf: Uint8Array): Promise<string[]> {
  const proxy = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(proxy, { mergePages: false });
  // pdf.js gives the text of a page as runs; spacing between them is not what we test.
  return text.map((page) => page.replace(/\s+/g, " "));
}

const taxpayer: CertificateEntry = {
  signerRole: "taxpayer",
  signerName: "José Núñez",
  method: "e-signature",
  signedAt: new Date("2026-03-02T15:04:05Z"),
  timeZone: "Asia/Kolkata",
  ip: "203.0.113.7",
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
  consentVersion: "esign-consent-2026-11-27",
  formSha256: FORM_HASH,
  returnVersionSha256: RETURN_HASH,
  idCheck: {
    documentType: "Passport",
    issuingCountry: "India",
    expiresOn: "2031-05-31",
    numberLast4: "Z1234567",
    how: "live-video",
    checkedBy: "Priya Staff",
    checkedAt: new Date("2026-03-01T10:00:00Z"),
  },
};

const spouse: CertificateEntry = {
  ...taxpayer,
  signerRole: "spouse",
  signerName: "Zoë O'Brien-Łukasz",
  signedAt: new Date("2026-03-03T01:30:00Z"),
  timeZone: "America/New_York",
  ip: null,
  userAgent: null,
  idCheck: null,
};

const base = { formName: "8879" as const, taxYear: 2025, clientCode: "TB-00042" };

describe("signedAuthorizationPdf with electronic signatures", () => {
  it("keeps every page of the form, stamps the last one and appends a certificate with the full record", async () => {
    const form = await makeForm(3);
    const { pdf, sha256 } = await signedAuthorizationPdf({ ...base, form, entries: [taxpayer, spouse] });

    expect(sha256).toBe(createHash("sha256").update(pdf).digest("hex"));
    expect(sha256Hex(pdf)).toBe(sha256);

    const pages = await pagesText(pdf);
    expect(pages.length).toBeGreaterThanOrEqual(4);
    expect(pages[0]).toContain("Form 8879 test page 1 of 3");
    expect(pages[1]).toContain("Form 8879 test page 2 of 3");
    expect(pages[2]).toContain("Form 8879 test page 3 of 3");
    // The signature blocks, on the form's last page only, in the signer's zone and in UTC.
    expect(pages[2]).toContain("Signed electronically by José Núñez (Taxpayer)");
    expect(pages[2]).toContain("on 2026-03-02 20:34:05 GMT+5:30 (Asia/Kolkata), 2026-03-02 15:04:05 UTC");
    expect(pages[2]).toContain("Signed electronically by Zoë O'Brien-<U+0141>ukasz (Spouse)");
    expect(pages[2]).toContain("on 2026-03-02 20:30:00 EST (America/New_York), 2026-03-03 01:30:00 UTC");
    expect(pages[0]).not.toContain("Signed electronically");

    const certificate = pages.slice(3).join(" ");
    expect(pages[3]).toContain("Signature certificate");
    expect(certificate).toContain("Form 8879, tax year 2025, client TB-00042");
    expect(certificate).toContain(`SHA-256 of the unsigned form ${sha256Hex(form)}`);
    expect(certificate).toContain("Signer 1: Taxpayer");
    expect(certificate).toContain("Name José Núñez");
    expect(certificate).toContain("Method Electronic signature");
    expect(certificate).toContain("IP address 203.0.113.7");
    expect(certificate).toContain("Chrome/131.0");
    expect(certificate).toContain("Consent version esign-consent-2026-11-27");
    expect(certificate).toContain(`Form SHA-256 ${FORM_HASH}`);
    expect(certificate).toContain(`Return version SHA-256 ${RETURN_HASH}`);
    expect(certificate).toContain("Identity document Passport, issued by India, expires 2031-05-31");
    expect(certificate).toContain("Document number ending in 4567");
    expect(certificate).not.toContain("Z1234567");
    expect(certificate).not.toContain("1234567");
    expect(certificate).toContain("How it was checked By live video");
    expect(certificate).toContain("Checked by Priya Staff");
    expect(certificate).toContain("Checked at 2026-03-01 10:00:00 UTC");
    expect(certificate).toContain("Signer 2: Spouse");
    expect(certificate).toContain("IP address Not recorded");
    expect(certificate).toContain("Browser (user agent) Not recorded");
    expect(certificate).toContain("Identity check None recorded");
    expect(certificate).toContain("What the hashes mean.");
    expect(certificate).toContain("Signature certificate, page 1 of");
  });

  it("gives the same bytes for the same input (no clock in the file)", async () => {
    const form = await makeForm(1);
    const a = await signedAuthorizationPdf({ ...base, form, entries: [taxpayer] });
    const b = await signedAuthorizationPdf({ ...base, form, entries: [taxpayer] });
    expect(a.sha256).toBe(b.sha256);
  });

  it("takes the form as a Node Buffer cut from a larger one", async () => {
    const form = await makeForm(1);
    const pool = Buffer.concat([Buffer.from("junk before"), Buffer.from(form)]);
    const view = pool.subarray("junk before".length);
    const { pdf } = await signedAuthorizationPdf({ ...base, form: view, entries: [taxpayer] });
    expect((await pagesText(pdf))[0]).toContain("Signed electronically by José Núñez");
  });

  it("continues the certificate on more pages when the record is long", async () => {
    const long = { ...taxpayer, userAgent: "Agent/1.0 ".repeat(400) };
    const { pdf } = await signedAuthorizationPdf({ ...base, form: await makeForm(1), entries: [long, spouse] });
    const pages = await pagesText(pdf);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages[2]).toContain("Signature certificate (continued)");
    expect(pages.at(-1)).toContain(`Signature certificate, page ${pages.length - 1} of ${pages.length - 1}`);
    expect(pages.join(" ")).toContain(`Return version SHA-256 ${RETURN_HASH}`);
  });
});

/** A small valid PNG (RGB, `w` × `h`). */
function png(w: number, h: number): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = (table[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header[8] = 8;
  header[9] = 2;
  const raw = Buffer.alloc((w * 3 + 1) * h, 0x80);
  for (let y = 0; y < h; y++) raw[y * (w * 3 + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("signedAuthorizationPdf with a form signed on paper", () => {
  const handwritten: CertificateEntry = { ...taxpayer, method: "handwritten", consentVersion: null, ip: null, userAgent: null };

  it("puts a scanned image on a page of its own, without a signature block, before the certificate", async () => {
    const scan = png(60, 80);
    const { pdf } = await signedAuthorizationPdf({ ...base, form: scan, entries: [handwritten] });
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(2);
    const pages = await pagesText(pdf);
    expect(pages[0]?.trim()).toBe("");
    expect(pages[1]).toContain(`SHA-256 of the scan ${sha256Hex(scan)}`);
    expect(pages[1]).toContain("Method Handwritten signature on paper, scanned");
    expect(pages[1]).toContain("Consent version None (signed on paper)");
    expect(pages.join(" ")).not.toContain("Signed electronically");
  });

  it("copies every page of a scanned PDF", async () => {
    const scan = await makeForm(2);
    const { pdf } = await signedAuthorizationPdf({ ...base, form: scan, entries: [handwritten] });
    const pages = await pagesText(pdf);
    expect(pages[0]).toContain("Form 8879 test page 1 of 2");
    expect(pages[1]).toContain("Form 8879 test page 2 of 2");
    expect(pages[2]).toContain("Signature certificate");
  });
});

describe("signedAuthorizationPdf refuses what it cannot sign", () => {
  const refusal = async (form: Uint8Array, entries: CertificateEntry[] = [taxpayer]) => {
    try {
      await signedAuthorizationPdf({ ...base, form, entries });
    } catch (error) {
      expect(error).toBeInstanceOf(SignedPdfError);
      return { reason: (error as SignedPdfError).reason, message: (error as SignedPdfError).message };
    }
    throw new Error("not refused");
  };

  it("refuses bytes that are not a PDF or an image", async () => {
    expect(await refusal(new TextEncoder().encode("hello, this is not a PDF"))).toEqual({
      reason: "unreadable",
      message: "The file is not a PDF, PNG or JPEG file.",
    });
  });

  it("refuses a damaged PDF with a clear message instead of crashing", async () => {
    expect(await refusal(new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >>\ngarbage"))).toEqual({
      reason: "unreadable",
      message: "The file is not a PDF that can be read, or it is damaged.",
    });
    const form = await makeForm(1);
    expect((await refusal(form.subarray(0, 200))).reason).toBe("unreadable");
  });

  it("refuses a damaged image", async () => {
    expect((await refusal(png(10, 10).subarray(0, 40))).reason).toBe("unreadable");
  });

  it("refuses an image that claims more pixels than a scan has, before expanding it", async () => {
    const huge = png(1, 1);
    huge.writeUInt32BE(20_000, 16);
    huge.writeUInt32BE(20_000, 20);
    expect(await refusal(huge)).toEqual({
      reason: "too-large",
      message: "The image has too many pixels. Scan the form at 300 dpi or less.",
    });
  });

  it("refuses a PDF protected by a password", async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    doc.context.trailerInfo.Encrypt = doc.context.obj({
      Filter: "Standard",
      V: 1,
      R: 2,
      O: PDFHexString.of("00".repeat(32)),
      U: PDFHexString.of("00".repeat(32)),
      P: -4,
    });
    expect(await refusal(await doc.save())).toEqual({
      reason: "encrypted",
      message: "The PDF is protected by a password. Upload a copy without a password.",
    });
  });

  it("refuses a request without signers, with a bad hash, an unknown zone or an e-signature without consent", async () => {
    const form = await makeForm(1);
    expect(await refusal(form, [])).toEqual({ reason: "invalid-input", message: "There is no signature to certify." });
    expect((await refusal(form, [{ ...taxpayer, formSha256: "abc" }])).reason).toBe("invalid-input");
    expect((await refusal(form, [{ ...taxpayer, timeZone: "Mars/Olympus" }])).message).toBe(
      "The taxpayer's time zone is unknown: Mars/Olympus",
    );
    expect((await refusal(form, [{ ...taxpayer, consentVersion: null }])).message).toBe(
      "The taxpayer signed electronically without a recorded consent.",
    );
    expect((await refusal(form, [taxpayer, taxpayer])).message).toBe("The taxpayer is listed twice.");
  });
});
