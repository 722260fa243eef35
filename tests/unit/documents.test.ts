import { describe, expect, it } from "vitest";
import {
  clientMaySee,
  ACCEPT_ATTRIBUTE,
  ALLOWED_EXTENSIONS,
  DOCUMENT_CATEGORIES,
  MAX_UPLOAD_BYTES,
  checkUploadName,
  cleanFileName,
  fileExtension,
  formatKb,
  isDocumentCategory,
} from "~/domain/documents";
import { checkUpload } from "~/server/documents/upload-check.server";

const ascii = (s: string) => new TextEncoder().encode(s);

function bytes(...parts: Array<string | number[] | Uint8Array>): Uint8Array {
  const chunks = parts.map((p) =>
    typeof p === "string" ? ascii(p) : p instanceof Uint8Array ? p : Uint8Array.from(p),
  );
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const PDF = bytes("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n%%EOF\n");
const PNG = bytes(
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13],
  "IHDR",
  [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0],
);
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], "JFIF", [0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]);
const DOC = bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], new Uint8Array(504));
const HTML = bytes("<!doctype html><script>alert(document.cookie)</script>");

const le16 = (n: number) => [n & 0xff, (n >>> 8) & 0xff];
const le32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];

function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of data) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A real (stored, uncompressed) zip archive with the given entries. */
function zip(entries: Record<string, string>): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const n = ascii(name);
    const d = ascii(text);
    const crc = crc32(d);
    const local = bytes(
      [0x50, 0x4b, 0x03, 0x04],
      le16(20),
      le16(0),
      le16(0),
      le16(0),
      le16(0),
      le32(crc),
      le32(d.length),
      le32(d.length),
      le16(n.length),
      le16(0),
      n,
      d,
    );
    centrals.push(
      bytes(
        [0x50, 0x4b, 0x01, 0x02],
        le16(20),
        le16(20),
        le16(0),
        le16(0),
        le16(0),
        le16(0),
        le32(crc),
        le32(d.length),
        le32(d.length),
        le16(n.length),
        le16(0),
        le16(0),
        le16(0),
        le16(0),
        le32(0),
        le32(offset),
        n,
      ),
    );
    locals.push(local);
    offset += local.length;
  }
  const central = bytes(...centrals);
  const count = Object.keys(entries).length;
  return bytes(
    ...locals,
    central,
    [0x50, 0x4b, 0x05, 0x06],
    le16(0),
    le16(0),
    le16(count),
    le16(count),
    le32(central.length),
    le32(offset),
    le16(0),
  );
}

/** A package's list of parts, naming its main part's type as Office writes it. */
const contentTypes = (main: string, part: string) =>
  `<Types><Override PartName="/${part}" ContentType="application/vnd.openxmlformats-officedocument.${main}.main+xml"/></Types>`;
const DOCX = zip({
  "[Content_Types].xml": contentTypes("wordprocessingml.document", "word/document.xml"),
  "word/document.xml": "<w:document/>",
});
const XLSX = zip({
  "[Content_Types].xml": contentTypes("spreadsheetml.sheet", "xl/workbook.xml"),
  "xl/workbook.xml": "<workbook/>",
});

describe("document categories", () => {
  it("has the eight first categories, then the US ones, in order with stable keys", () => {
    expect(DOCUMENT_CATEGORIES.map((c) => c.label)).toEqual([
      "PAN Card",
      "Aadhar Card",
      "Form 16",
      "Bank Statements",
      "Investment Proofs",
      "Rent Receipts",
      "Previous ITR",
      "Other Documents",
      "W-2",
      "1042-S",
      "1099 Forms",
      "Passport and Visa (I-20, DS-2019, I-94)",
      "Prior US Returns",
    ]);
    expect(DOCUMENT_CATEGORIES.map((c) => c.key)).toEqual([
      "pan-card",
      "aadhar-card",
      "form-16",
      "bank-statements",
      "investment-proofs",
      "rent-receipts",
      "previous-itr",
      "other-documents",
      "w-2",
      "1042-s",
      "1099-forms",
      "passport-visa",
      "prior-us-returns",
    ]);
    expect(isDocumentCategory("form-16")).toBe(true);
    expect(isDocumentCategory("Form 16")).toBe(false);
    expect(isDocumentCategory(undefined)).toBe(false);
  });

  it("accepts exactly pdf, jpg, jpeg, png, doc and docx", () => {
    expect(ALLOWED_EXTENSIONS).toEqual(["pdf", "jpg", "jpeg", "png", "doc", "docx"]);
    expect(ACCEPT_ATTRIBUTE).toBe(".pdf,.jpg,.jpeg,.png,.doc,.docx");
    expect(MAX_UPLOAD_BYTES).toBe(20 * 1024 * 1024);
  });
});

describe("checkUpload", async () => {
  it("accepts real files of each type, with the content type from the check", async () => {
    expect(await checkUpload("return.pdf", PDF)).toEqual({
      ok: true,
      extension: "pdf",
      contentType: "application/pdf",
    });
    expect(await checkUpload("Scan.PNG", PNG)).toEqual({
      ok: true,
      extension: "png",
      contentType: "image/png",
    });
    expect(await checkUpload("photo.jpg", JPEG)).toMatchObject({ ok: true, contentType: "image/jpeg" });
    expect(await checkUpload("photo.jpeg", JPEG)).toMatchObject({ ok: true, contentType: "image/jpeg" });
    expect(await checkUpload("letter.doc", DOC)).toMatchObject({
      ok: true,
      contentType: "application/msword",
    });
    expect(await checkUpload("letter.docx", DOCX)).toMatchObject({
      ok: true,
      contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    });
  });

  it("reads the last extension: x.pdf.html is refused", async () => {
    expect(fileExtension("x.pdf.html")).toBe("html");
    expect(await checkUpload("x.pdf.html", PDF)).toEqual({
      ok: false,
      reason: "only PDF, JPG, PNG, DOC and DOCX files are accepted",
    });
    expect((await checkUpload("x.pdf.exe", PDF)).ok).toBe(false);
    expect((await checkUpload("pdf", PDF)).ok).toBe(false);
    expect((await checkUpload(".pdf", PDF)).ok).toBe(false);
    expect((await checkUpload("x.pdf.", PDF)).ok).toBe(false);
    expect((await checkUpload("x.svg", ascii("<svg/>"))).ok).toBe(false);
  });

  it("refuses a .pdf that is really HTML", async () => {
    expect(await checkUpload("statement.pdf", HTML)).toEqual({
      ok: false,
      reason: "the file's content is not a real PDF",
    });
  });

  it("refuses content that does not match the extension", async () => {
    expect(await checkUpload("photo.png", JPEG)).toEqual({
      ok: false,
      reason: "the file's content is not a real PNG image",
    });
    expect(await checkUpload("photo.jpg", PNG)).toMatchObject({
      ok: false,
      reason: "the file's content is not a real JPG image",
    });
    expect(await checkUpload("letter.doc", DOCX)).toMatchObject({ ok: false });
    expect(await checkUpload("letter.docx", DOC)).toMatchObject({
      ok: false,
      reason: "the file's content is not a real DOCX (Word) document",
    });
    // A zip that is not a Word document (here a spreadsheet) is not a .docx.
    expect(await checkUpload("letter.docx", XLSX)).toMatchObject({ ok: false });
    // The zip signature alone, without a readable directory, is not enough.
    expect((await checkUpload("letter.docx", bytes([0x50, 0x4b, 0x03, 0x04], "word/document.xml"))).ok).toBe(
      false,
    );
    expect((await checkUpload("short.pdf", ascii("%PD"))).ok).toBe(false);
  });

  it("refuses an empty file (0 bytes)", async () => {
    expect(await checkUpload("empty.pdf", new Uint8Array(0))).toEqual({
      ok: false,
      reason: "the file is empty",
    });
  });

  it("refuses a file over 20 MB and accepts one of exactly 20 MB", async () => {
    const big = new Uint8Array(MAX_UPLOAD_BYTES + 1);
    big.set(PDF);
    expect(await checkUpload("big.pdf", big)).toEqual({ ok: false, reason: "the file is larger than 20 MB" });
    expect((await checkUpload("edge.pdf", big.subarray(0, MAX_UPLOAD_BYTES))).ok).toBe(true);
    expect(checkUploadName("big.pdf", MAX_UPLOAD_BYTES + 1)).toMatchObject({ ok: false });
    expect(checkUploadName("ok.pdf", 10)).toMatchObject({ ok: true });
  });

  it("judges ../../a.pdf by its name only and never by a path", async () => {
    expect(await checkUpload("../../a.pdf", PDF)).toMatchObject({ ok: true, extension: "pdf" });
    expect(await checkUpload("..\\..\\a.pdf", PDF)).toMatchObject({ ok: true, extension: "pdf" });
    expect((await checkUpload("dir.pdf/evil.html", PDF)).ok).toBe(false);
  });

  it("tells a Word document from another zip by the parts it lists", async () => {
    // A Word document whose list of parts comes after the document itself is still one.
    const late = zip({
      "word/document.xml": "<w:document/>",
      "[Content_Types].xml": contentTypes("wordprocessingml.document", "word/document.xml"),
    });
    expect((await checkUpload("late.docx", late)).ok).toBe(true);
    expect((await checkUpload("sheet.docx", XLSX)).ok).toBe(false);
  });
});

describe("cleanFileName", () => {
  it("keeps only the base name: ../../a.pdf becomes a.pdf", () => {
    expect(cleanFileName("../../a.pdf")).toBe("a.pdf");
    expect(cleanFileName("..\\..\\Windows\\a.pdf")).toBe("a.pdf");
    expect(cleanFileName("/etc/passwd")).toBe("passwd");
    expect(cleanFileName("C:\\Users\\me\\Form 16.pdf")).toBe("Form 16.pdf");
  });

  it("removes control and direction characters, quotes and reserved characters", () => {
    expect(cleanFileName('my "file"\r\n.pdf')).toBe("my _file_.pdf");
    expect(cleanFileName("bad\u0000name.pdf")).toBe("badname.pdf");
    expect(cleanFileName("invoice\u202Efdp.exe")).toBe("invoicefdp.exe");
    expect(cleanFileName("a<b>:c*?|;'`.png")).toBe("a_b__c______.png");
    expect(cleanFileName("  lots   of   space .pdf ")).toBe("lots of space .pdf");
    expect(cleanFileName("Überweisung März.pdf")).toBe("Überweisung März.pdf");
  });

  it("never returns a hidden, empty or dot-only name", () => {
    expect(cleanFileName(".htaccess")).toBe("htaccess");
    expect(cleanFileName("..")).toBe("document");
    expect(cleanFileName("../")).toBe("document");
    expect(cleanFileName("")).toBe("document");
    expect(cleanFileName("\u0001\u0002")).toBe("document");
  });

  it("shortens to 120 characters keeping the extension", () => {
    const long = `${"a".repeat(300)}.docx`;
    const clean = cleanFileName(long);
    expect(clean).toHaveLength(120);
    expect(clean.endsWith(".docx")).toBe(true);
    expect(cleanFileName(`${"ü".repeat(200)}.pdf`)).toBe(`${"ü".repeat(116)}.pdf`);
    expect(cleanFileName(`${"😀".repeat(200)}.pdf`)).toBe(`${"😀".repeat(116)}.pdf`);
  });
});

describe("formatKb", () => {
  it("shows KB with two decimals", () => {
    expect(formatKb(12637)).toBe("12.34 KB");
    expect(formatKb(1024)).toBe("1.00 KB");
    expect(formatKb(1)).toBe("0.00 KB");
    expect(formatKb(0)).toBe("0.00 KB");
    expect(formatKb(MAX_UPLOAD_BYTES)).toBe("20480.00 KB");
  });
});

describe("clientMaySee", () => {
  it("lets the client see their own uploads, and staff's only while shared", () => {
    expect(clientMaySee({ fromClient: true, sharedAt: null })).toBe(true);
    expect(clientMaySee({ fromClient: false, sharedAt: new Date("2026-02-01T10:00:00Z") })).toBe(true);
    expect(clientMaySee({ fromClient: false, sharedAt: "2026-02-01T10:00:00.000Z" })).toBe(true);
    expect(clientMaySee({ fromClient: false, sharedAt: null })).toBe(false);
  });
});
