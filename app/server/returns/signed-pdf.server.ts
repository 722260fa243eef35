/**
 * The signed copy of an IRS e-file authorisation (Form 8879 or 8878) that the firm keeps: the form
 * with a visible block for each electronic signature, or the signer's scan of the form signed on
 * paper, followed by a signature certificate listing every signature's full record.
 *
 * The form is hashed before anything is added to it, and the caller keeps that hash and the hash
 * of the finished file outside the PDF: adding the blocks and the certificate changes the bytes.
 * Only the PDF standard fonts are used (docs/decisions/0028-pdf-library.md); text they cannot
 * write is shown as Unicode code points, so nothing in a record is dropped silently.
 */
import { createHash } from "node:crypto";
import { DecompressionBombError, EncryptedPDFError, PDFDocument, StandardFonts, rgb } from "@pdfme/pdf-lib";
import type { PDFFont, PDFPage } from "@pdfme/pdf-lib";
import { business } from "~/content/business";
import { wrap, writable } from "~/server/pdf/pdf-text.server";

export type CertificateEntry = {
  signerRole: "taxpayer" | "spouse";
  signerName: string;
  method: "e-signature" | "handwritten";
  signedAt: Date;
  timeZone: string;
  ip: string | null;
  userAgent: string | null;
  consentVersion: string | null;
  /** The version of the form's declaration made (an e-signature); absent or null on paper. */
  declarationVersion?: string | null;
  formSha256: string;
  returnVersionSha256: string;
  idCheck: {
    documentType: string;
    issuingCountry: string;
    expiresOn: string;
    numberLast4: string;
    how: "in-person" | "live-video";
    checkedBy: string;
    checkedAt: Date;
  } | null;
};

export type SignedPdfInput = {
  form: Uint8Array;
  formName: "8879" | "8878";
  taxYear: number;
  clientCode: string;
  entries: CertificateEntry[];
};

export type SignedPdfErrorReason =
  /** The bytes are not a PDF, PNG or JPEG file, or the file is damaged. */
  | "unreadable"
  /** The PDF is protected by a password. */
  | "encrypted"
  /** The PDF expands to more than the library's limit when read. */
  | "too-large"
  /** The request itself is wrong: no signer, a bad hash, an unknown time zone… */
  | "invalid-input";

/** Why no signed PDF could be made; `message` can be shown to staff as it is. */
export class SignedPdfError extends Error {
  constructor(
    readonly reason: SignedPdfErrorReason,
    message: string,
  ) {
    super(message);
    this.name = "SignedPdfError";
  }
}

/** The SHA-256 of `data` (bytes, or text as UTF-8) in lower-case hex: the return's one hash helper. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

function invalid(message: string): never {
  throw new SignedPdfError("invalid-input", message);
}

function checkInput(input: SignedPdfInput): void {
  if (!(input.form instanceof Uint8Array) || input.form.length === 0) invalid("The form file is empty.");
  if (input.formName !== "8879" && input.formName !== "8878") invalid("The form must be 8879 or 8878.");
  if (!Number.isInteger(input.taxYear) || input.taxYear < 1900 || input.taxYear > 9999) invalid("The tax year is not a year.");
  if (input.clientCode.trim() === "") invalid("The client code is missing.");
  if (input.entries.length === 0) invalid("There is no signature to certify.");
  const roles = new Set<string>();
  for (const entry of input.entries) {
    if (roles.has(entry.signerRole)) invalid(`The ${entry.signerRole} is listed twice.`);
    roles.add(entry.signerRole);
    if (entry.signerName.trim() === "") invalid(`The ${entry.signerRole}'s name is missing.`);
    if (Number.isNaN(entry.signedAt.getTime())) invalid(`The ${entry.signerRole}'s signing time is not a date.`);
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: entry.timeZone });
    } catch {
      invalid(`The ${entry.signerRole}'s time zone is unknown: ${entry.timeZone}`);
    }
    if (!SHA256_HEX.test(entry.formSha256) || !SHA256_HEX.test(entry.returnVersionSha256))
      invalid(`The ${entry.signerRole}'s hashes must be SHA-256 in lower-case hex.`);
    if (entry.method === "e-signature" && !entry.consentVersion)
      invalid(`The ${entry.signerRole} signed electronically without a recorded consent.`);
    if (entry.idCheck && Number.isNaN(entry.idCheck.checkedAt.getTime()))
      invalid(`The ${entry.signerRole}'s identity check time is not a date.`);
  }
}

// ---------------------------------------------------------------------------------------------
// Reading what was given

type Kind = "pdf" | "png" | "jpeg";

function kindOf(bytes: Uint8Array): Kind | null {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  // A PDF header may follow a little junk; readers look in the first kilobyte.
  const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1");
  return head.includes("%PDF-") ? "pdf" : null;
}

/** What went wrong reading a file, as the error staff see. */
function readFailure(error: unknown): SignedPdfError {
  if (error instanceof SignedPdfError) return error;
  if (error instanceof EncryptedPDFError)
    return new SignedPdfError("encrypted", "The PDF is protected by a password. Upload a copy without a password.");
  if (error instanceof DecompressionBombError)
    return new SignedPdfError("too-large", "The PDF is too large to read once expanded.");
  return new SignedPdfError("unreadable", "The file is not a PDF that can be read, or it is damaged.");
}

/** A PDF read for changes; what goes wrong reading it is a SignedPdfError with a message staff can read. */
export async function readPdf(bytes: Uint8Array): Promise<PDFDocument> {
  try {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    if (doc.getPageCount() === 0) throw new Error("no pages");
    return doc;
  } catch (error) {
    throw readFailure(error);
  }
}

/**
 * The most pixels a scanned image may have: a Letter page scanned at 600 dpi has about 34 million.
 * A PNG is expanded in memory to 4 bytes a pixel, and a small file can claim any size.
 */
const MAX_IMAGE_PIXELS = 40_000_000;

function pngPixels(bytes: Uint8Array): number {
  if (bytes.length < 24) return 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(16) * view.getUint32(20);
}

const LETTER: [number, number] = [612, 792];
const MARGIN = 54;

/** The form as a PDF of its own: a PDF as it is, an image on a Letter page of its own. */
async function formDocument(bytes: Uint8Array): Promise<PDFDocument> {
  const kind = kindOf(bytes);
  if (kind === null) throw new SignedPdfError("unreadable", "The file is not a PDF, PNG or JPEG file.");
  if (kind === "pdf") return readPdf(bytes);
  if (kind === "png" && pngPixels(bytes) > MAX_IMAGE_PIXELS)
    throw new SignedPdfError("too-large", "The image has too many pixels. Scan the form at 300 dpi or less.");
  const doc = await PDFDocument.create({ updateMetadata: false });
  let image;
  try {
    image = kind === "png" ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
  } catch {
    throw new SignedPdfError("unreadable", `The ${kind.toUpperCase()} image is damaged and cannot be read.`);
  }
  const [width, height] = image.width > image.height ? [LETTER[1], LETTER[0]] : LETTER;
  const scale = Math.min((width - 2 * MARGIN) / image.width, (height - 2 * MARGIN) / image.height);
  const page = doc.addPage([width, height]);
  page.drawImage(image, {
    x: (width - image.width * scale) / 2,
    y: (height - image.height * scale) / 2,
    width: image.width * scale,
    height: image.height * scale,
  });
  return doc;
}

// ---------------------------------------------------------------------------------------------
// Dates, written the same way on every machine

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

function utc(at: Date): string {
  return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())} ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())} UTC`;
}

function inZone(at: Date, timeZone: string): string {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  });
  for (const part of format.formatToParts(at)) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${parts.timeZoneName} (${timeZone})`;
}

/** A moment in the signer's zone and in UTC. */
function when(at: Date, timeZone: string): string {
  return `${inZone(at, timeZone)}, ${utc(at)}`;
}

// ---------------------------------------------------------------------------------------------
// The signature blocks

const INK = rgb(0.06, 0.13, 0.27);
const RULE = rgb(0.55, 0.6, 0.68);
const ROLE = { taxpayer: "Taxpayer", spouse: "Spouse" } as const;

function stampSignatures(page: PDFPage, fonts: Fonts, input: SignedPdfInput, entries: CertificateEntry[]): void {
  const box = page.getCropBox();
  const size = 8;
  const lineHeight = 10.5;
  const width = Math.min(box.width - 2 * 36, 460);
  let y = box.y + 36;
  for (const entry of [...entries].reverse()) {
    const lines = [
      `Signed electronically by ${entry.signerName} (${ROLE[entry.signerRole]})`,
      `on ${when(entry.signedAt, entry.timeZone)}`,
      `Form ${input.formName}, tax year ${input.taxYear}, client ${input.clientCode}. The signature certificate at the end of this file has the full record.`,
    ].flatMap((text, i) => wrap(i === 0 ? fonts.bold : fonts.regular, size, writable(fonts.regular, text), width - 12));
    const height = lines.length * lineHeight + 8;
    page.drawRectangle({
      x: box.x + 36,
      y,
      width,
      height,
      color: rgb(1, 1, 1),
      borderColor: RULE,
      borderWidth: 0.75,
    });
    lines.forEach((line, i) =>
      page.drawText(line, {
        x: box.x + 42,
        y: y + height - 4 - (i + 1) * lineHeight + 2.5,
        size,
        font: i === 0 ? fonts.bold : fonts.regular,
        color: INK,
      }),
    );
    y += height + 6;
  }
}

// ---------------------------------------------------------------------------------------------
// The certificate

export type Fonts = { regular: PDFFont; bold: PDFFont; mono: PDFFont };

const HASHES_EXPLAINED = [
  "What the hashes mean. A SHA-256 hash is a fingerprint of a file: 64 characters computed from every byte of it. If even one byte changes, the fingerprint is completely different, and no one can make a different file with the same fingerprint.",
  "The form's hash is the fingerprint of the form as it was before the signature blocks and this certificate were added. Adding them changes this file, so this file's own fingerprint differs from it; the firm records that fingerprint separately.",
  "The return version's hash is the fingerprint of the version of the return the signer examined and authorised. The firm keeps these fingerprints in its records outside this file. To check that nothing was changed, compute the fingerprint of the files kept and compare it with the one shown here.",
];

/** Pages of text on US Letter: a title on each page, paragraphs, label-value fields, numbered pages. */
export class CertificateWriter {
  private page!: PDFPage;
  private y = 0;
  readonly pages: PDFPage[] = [];

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: Fonts,
    private readonly heading: string,
    private readonly title = "Signature certificate",
  ) {
    this.newPage(false);
  }

  private get width(): number {
    return LETTER[0] - 2 * MARGIN;
  }

  private newPage(continued: boolean): void {
    this.page = this.doc.addPage(LETTER);
    this.pages.push(this.page);
    this.y = LETTER[1] - MARGIN;
    this.page.drawText(continued ? `${this.title} (continued)` : this.title, {
      x: MARGIN,
      y: this.y - 18,
      size: 18,
      font: this.fonts.bold,
      color: INK,
    });
    this.y -= 30;
    this.paragraph(this.heading, { size: 10 });
    this.y -= 4;
  }

  private room(height: number): void {
    if (this.y - height < MARGIN + 20) this.newPage(true);
  }

  paragraph(text: string, { size = 9.5, font = this.fonts.regular, indent = 0, gap = 3 } = {}): void {
    const lineHeight = size * 1.35;
    for (const line of wrap(font, size, writable(font, text), this.width - indent)) {
      this.room(lineHeight);
      this.y -= lineHeight;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y + 2, size, font, color: INK });
    }
    this.y -= gap;
  }

  /** A label and its value; the value is in a fixed-width font when it is a hash. */
  field(label: string, value: string, { mono = false } = {}): void {
    // A hash (64 characters) fits on one line in the fixed-width font at 8.5 points.
    const size = mono ? 8.5 : 9.5;
    const labelWidth = 150;
    const font = mono ? this.fonts.mono : this.fonts.regular;
    const lines = wrap(font, size, writable(font, value), this.width - labelWidth - 12);
    const lineHeight = size * 1.35;
    this.room(lineHeight * Math.min(lines.length, 3));
    lines.forEach((line, i) => {
      this.room(lineHeight);
      this.y -= lineHeight;
      if (i === 0)
        this.page.drawText(writable(this.fonts.bold, label), { x: MARGIN + 12, y: this.y + 2, size: 9.5, font: this.fonts.bold, color: INK });
      this.page.drawText(line, { x: MARGIN + 12 + labelWidth, y: this.y + 2, size, font, color: INK });
    });
    this.y -= 2;
  }

  heading2(text: string): void {
    this.room(40);
    this.y -= 8;
    this.paragraph(text, { size: 12, font: this.fonts.bold, gap: 4 });
  }

  /** "Page n of N" at the foot of every certificate page. */
  number(): void {
    this.pages.forEach((page, i) =>
      page.drawText(`${this.title}, page ${i + 1} of ${this.pages.length}`, {
        x: MARGIN,
        y: MARGIN - 20,
        size: 8,
        font: this.fonts.regular,
        color: RULE,
      }),
    );
  }
}

function idCheckFields(writer: CertificateWriter, entry: CertificateEntry): void {
  const check = entry.idCheck;
  if (!check) {
    writer.field("Identity check", "None recorded");
    return;
  }
  writer.field("Identity document", `${check.documentType}, issued by ${check.issuingCountry}, expires ${check.expiresOn}`);
  // Never more than the last 4 characters of the document's number.
  writer.field("Document number", `ending in ${check.numberLast4.replace(/\s+/g, "").slice(-4)}`);
  writer.field("How it was checked", check.how === "in-person" ? "In person" : "By live video");
  writer.field("Checked by", check.checkedBy);
  writer.field("Checked at", utc(check.checkedAt));
}

function writeCertificate(writer: CertificateWriter, input: SignedPdfInput, givenSha256: string, scanned: boolean): void {
  writer.heading2("The form");
  writer.field(
    scanned ? "SHA-256 of the scan" : "SHA-256 of the unsigned form",
    givenSha256,
    { mono: true },
  );
  writer.paragraph(
    scanned
      ? "The form was signed on paper; the pages before this certificate are the scan that was uploaded, and the hash above is the scan's, as uploaded."
      : "The pages before this certificate are the form, with a block added for each electronic signature; the hash above is the form's, before the blocks were added.",
    { indent: 12 },
  );
  input.entries.forEach((entry, i) => {
    writer.heading2(`Signer ${i + 1}: ${ROLE[entry.signerRole]}`);
    writer.field("Name", entry.signerName);
    writer.field("Method", entry.method === "e-signature" ? "Electronic signature" : "Handwritten signature on paper, scanned");
    writer.field("Signed at", when(entry.signedAt, entry.timeZone));
    writer.field("Time zone", entry.timeZone);
    writer.field("IP address", entry.ip ?? "Not recorded");
    writer.field("Browser (user agent)", entry.userAgent ?? "Not recorded");
    writer.field("Consent version", entry.consentVersion ?? "None (signed on paper)");
    writer.field("Declaration version", entry.declarationVersion ?? "The form's own (signed on paper)");
    writer.field("Form SHA-256", entry.formSha256, { mono: true });
    writer.field("Return version SHA-256", entry.returnVersionSha256, { mono: true });
    idCheckFields(writer, entry);
  });
  writer.heading2("About this certificate");
  for (const text of HASHES_EXPLAINED) writer.paragraph(text);
}

/**
 * The signed authorisation: the form (its pages, or the scan of the paper form) with a block for
 * each electronic signature on its last page, then the signature certificate. `sha256` is the
 * finished file's. Refused with a `SignedPdfError` when the form cannot be read (not a PDF, PNG
 * or JPEG, damaged, protected by a password) or the request is wrong.
 */
export async function signedAuthorizationPdf(input: SignedPdfInput): Promise<{ pdf: Uint8Array; sha256: string }> {
  checkInput(input);
  // A copy that starts at its buffer's first byte: the library reads some inputs (PNG images)
  // from the whole underlying buffer, which a Node Buffer from a pool does not start.
  const given = new Uint8Array(input.form);
  const givenSha256 = sha256Hex(given);
  const source = await formDocument(given);

  // The form's pages are copied into a new file, so nothing of the given file's own structure
  // (forms, scripts, earlier metadata) decides what the signed copy is.
  const doc = await PDFDocument.create({ updateMetadata: false });
  let pages: PDFPage[];
  try {
    pages = await doc.copyPages(source, source.getPageIndices());
  } catch (error) {
    throw readFailure(error);
  }
  for (const page of pages) doc.addPage(page);
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
  };

  const electronic = input.entries.filter((entry) => entry.method === "e-signature");
  const lastPage = pages[pages.length - 1];
  if (electronic.length > 0 && lastPage) stampSignatures(lastPage, fonts, input, electronic);

  const scanned = input.entries.some((entry) => entry.method === "handwritten");
  const writer = new CertificateWriter(
    doc,
    fonts,
    `Form ${input.formName}, tax year ${input.taxYear}, client ${input.clientCode}`,
  );
  writeCertificate(writer, input, givenSha256, scanned);
  writer.number();

  doc.setTitle(`Form ${input.formName}, tax year ${input.taxYear}, signed`);
  doc.setProducer(business.name);
  doc.setCreator(business.name);
  const pdf = await doc.save();
  return { pdf, sha256: sha256Hex(pdf) };
}
