/**
 * A client's documents (docs/product/documents.md: uploaded to the server, allowed types checked
 * by content, size limits). Pure rules shared by the browser and the server: no I/O here.
 */
import { isUuid } from "./validation";

/**
 * The eight first categories of the Document Management modal, in their order, then the US
 * documents a nonresident files with (docs/product/documents.md#categories).
 */
export const DOCUMENT_CATEGORIES = [
  { key: "pan-card", label: "PAN Card" },
  { key: "aadhar-card", label: "Aadhar Card" },
  { key: "form-16", label: "Form 16" },
  { key: "bank-statements", label: "Bank Statements" },
  { key: "investment-proofs", label: "Investment Proofs" },
  { key: "rent-receipts", label: "Rent Receipts" },
  { key: "previous-itr", label: "Previous ITR" },
  { key: "other-documents", label: "Other Documents" },
  { key: "w-2", label: "W-2" },
  { key: "1042-s", label: "1042-S" },
  { key: "1099-forms", label: "1099 Forms" },
  { key: "passport-visa", label: "Passport and Visa (I-20, DS-2019, I-94)" },
  { key: "prior-us-returns", label: "Prior US Returns" },
] as const;

export type DocumentCategoryKey = (typeof DOCUMENT_CATEGORIES)[number]["key"];

export function isDocumentCategory(value: unknown): value is DocumentCategoryKey {
  return typeof value === "string" && DOCUMENT_CATEGORIES.some((c) => c.key === value);
}

export function categoryLabel(key: string): string {
  return DOCUMENT_CATEGORIES.find((c) => c.key === key)?.label ?? "Other Documents";
}

export const ALLOWED_EXTENSIONS = ["pdf", "jpg", "jpeg", "png", "doc", "docx"] as const;
export type AllowedExtension = (typeof ALLOWED_EXTENSIONS)[number];

/** For the file input's `accept` attribute. */
export const ACCEPT_ATTRIBUTE = ALLOWED_EXTENSIONS.map((e) => `.${e}`).join(",");

/** 20 MiB per file. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** One upload request (several files) may carry at most 100 MiB. */
export const MAX_UPLOAD_REQUEST_BYTES = 100 * 1024 * 1024;
/** A case's documents (client and staff uploads, message attachments) may hold at most 500 MiB in all. */
export const MAX_CASE_BYTES = 500 * 1024 * 1024;

/** Size in MB with one decimal: 12.3 MB. */
export function formatMb(bytes: number): string {
  return `${(Math.max(0, bytes) / (1024 * 1024)).toFixed(1)} MB`;
}

/** Why an upload that does not fit in its case's room was refused as a whole (nothing of it is kept). */
export function caseFullMessage(roomBytes: number): string {
  return `Nothing was uploaded: a tax year's documents may hold ${formatMb(MAX_CASE_BYTES)} in all, and only ${formatMb(roomBytes)} is left for this year. Send smaller files, or remove documents that are no longer needed.`;
}

/** A file refused because its case has no room left for it (see caseFullMessage). */
export const REFUSED_NO_ROOM = "there is not enough room left for it in this tax year's documents";

const CONTENT_TYPES: Record<AllowedExtension, string> = {
  pdf: "application/pdf",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

export const REFUSED_TYPE = "only PDF, JPG, PNG, DOC and DOCX files are accepted";
/** iPhones save camera photos as HEIC unless told otherwise; say how to send one we accept. */
export const REFUSED_HEIC =
  "HEIC photos are not accepted: on an iPhone choose Settings > Camera > Formats > Most Compatible, or take a screenshot of the photo, and send it as JPG or PNG";
export const REFUSED_EMPTY = "the file is empty";
export const REFUSED_TOO_LARGE = "the file is larger than 20 MB";

const NOT_REAL: Record<AllowedExtension, string> = {
  pdf: "the file's content is not a real PDF",
  jpg: "the file's content is not a real JPG image",
  jpeg: "the file's content is not a real JPG image",
  png: "the file's content is not a real PNG image",
  doc: "the file's content is not a real DOC (Word 97-2003) document",
  docx: "the file's content is not a real DOCX (Word) document",
};

export type UploadCheck =
  { ok: true; extension: AllowedExtension; contentType: string } | { ok: false; reason: string };

/** The last path segment of a name, whichever separator the sender's system uses. */
function baseName(name: string): string {
  const parts = name.split(/[/\\]/);
  return parts[parts.length - 1] ?? "";
}

/** The file's LAST extension, lower case ("x.pdf.html" → "html"); "" when it has none. */
export function fileExtension(name: string): string {
  const base = baseName(name).trim();
  const dot = base.lastIndexOf(".");
  if (dot <= 0 || dot === base.length - 1) return "";
  return base.slice(dot + 1).toLowerCase();
}

function isAllowedExtension(ext: string): ext is AllowedExtension {
  return (ALLOWED_EXTENSIONS as readonly string[]).includes(ext);
}

/** The file's last extension when it is one of ALLOWED_EXTENSIONS, else null. */
export function uploadExtension(name: string): AllowedExtension | null {
  const extension = fileExtension(name);
  return isAllowedExtension(extension) ? extension : null;
}

/** Why a file whose extension is not accepted is refused: HEIC photos get their own advice. */
export function refusedByName(name: string): string {
  return ["heic", "heif"].includes(fileExtension(name)) ? REFUSED_HEIC : REFUSED_TYPE;
}

/** The content type stored and sent for a file of this extension (never the sender's claim). */
export function contentTypeOf(extension: AllowedExtension): string {
  return CONTENT_TYPES[extension];
}

/**
 * What can be checked without the file's bytes (name and size): the browser uses it when a
 * file is picked, the server as the first half of its check.
 */
export function checkUploadName(name: string, size: number): UploadCheck {
  const extension = uploadExtension(name);
  if (extension === null) return { ok: false, reason: refusedByName(name) };
  if (size <= 0) return { ok: false, reason: REFUSED_EMPTY };
  if (size > MAX_UPLOAD_BYTES) return { ok: false, reason: REFUSED_TOO_LARGE };
  return { ok: true, extension, contentType: CONTENT_TYPES[extension] };
}

/**
 * Why a file is refused when its first bytes are not those of the type its extension names
 * (the server reads them as the upload arrives).
 */
export function refusedContent(extension: AllowedExtension): string {
  return NOT_REAL[extension];
}

export const MAX_FILE_NAME_LENGTH = 120;

/** Control characters, zero-width marks and bidirectional overrides (the "fdp.exe" trick). */
function isInvisible(code: number): boolean {
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff
  );
}

function withoutInvisible(s: string): string {
  return Array.from(s)
    .filter((ch) => !isInvisible(ch.codePointAt(0) ?? 0))
    .join("");
}

/**
 * A file name safe to show and to put in a Content-Disposition header: the last path segment
 * only, without control or direction-changing characters, quotes or characters that file
 * systems refuse, at most 120 characters with the extension kept. Never used as a path.
 */
export function cleanFileName(name: string): string {
  let base = withoutInvisible(baseName(name.normalize("NFC")))
    .replace(/["'`<>:*?|;]/g, "_")
    .replace(/\s+/g, " ")
    .trim()
    // Windows drops trailing dots and spaces; a leading dot would hide the file.
    .replace(/[. ]+$/, "")
    .replace(/^[. ]+/, "");
  if (base === "") base = "document";
  const chars = Array.from(base);
  if (chars.length <= MAX_FILE_NAME_LENGTH) return base;
  const dot = base.lastIndexOf(".");
  const ext = dot > 0 ? Array.from(base.slice(dot)) : [];
  const keep = ext.length > 0 && ext.length <= 11 ? ext : [];
  return (
    chars
      .slice(0, MAX_FILE_NAME_LENGTH - keep.length)
      .join("")
      .trimEnd() + keep.join("")
  );
}

/** Size in KB with two decimals (docs/product/documents.md#shown-as): 12637 → "12.34 KB". */
export function formatKb(bytes: number): string {
  return `${(Math.max(0, bytes) / 1024).toFixed(2)} KB`;
}

/**
 * What the upload endpoint answers: the files stored and the files refused with the reason.
 * `error` is set when the request as a whole was refused (no such client, too large, …).
 */
export type UploadAnswer = {
  uploaded: Array<{ id: string; name: string }>;
  refused: Array<{ name: string; reason: string }>;
  error?: string;
};

/** Whether a value has the shape of a document's id (a UUID). */
export function isDocumentId(value: unknown): value is string {
  return isUuid(value);
}

/** A document as its client sees it: their own uploads, and staff's once shared. */
export type ClientDocumentView = {
  id: string;
  category: DocumentCategoryKey;
  name: string;
  size: number;
  /** ISO timestamp. */
  uploadedAt: string;
  /** Uploaded by the client (removable while documents are open); else shared by the firm. */
  mine: boolean;
  /** Sent against a requested item the firm has received: it stays (the client cannot remove it). */
  accepted: boolean;
  /**
   * A final copy that waits for the fee (docs/product/fees.md#final-copies-wait-for-payment):
   * listed, but its download answers with that message until the invoice is paid.
   */
  waitsForFee: boolean;
};

/** A document as staff see it on the case page. */
export type StaffDocumentView = {
  id: string;
  category: DocumentCategoryKey;
  name: string;
  size: number;
  /** ISO timestamp. */
  uploadedAt: string;
  /** Who uploaded it: a name, and whether it was the client. */
  uploadedBy: { name: string; client: boolean } | null;
  /** ISO timestamp when shared with the client; null for an unshared staff document. */
  sharedAt: string | null;
  /** Uploaded by the client after the acting staff member last opened the case. */
  isNew: boolean;
};

/**
 * Whether a client may see one of their case's documents: their own uploads always, staff's
 * once shared with them (and no longer once taken back). Every list, attachment and download a
 * client is given follows it; documents/visibility.server.ts is the same rule as a condition.
 */
export function clientMaySee(doc: { fromClient: boolean; sharedAt: Date | string | null }): boolean {
  return doc.fromClient || doc.sharedAt !== null;
}
