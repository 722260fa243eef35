import { fileTypeFromBuffer } from "file-type";
import { checkUploadName, refusedContent } from "~/domain/documents";
import type { AllowedExtension, UploadCheck } from "~/domain/documents";

/**
 * How much of a file's start is read to tell its type: enough for the signatures and for a Word
 * document's list of parts, which comes first in the archive.
 */
export const SNIFF_BYTES = 64 * 1024;

/** What the content may be detected as for each accepted extension. */
const DETECTED_AS: Record<AllowedExtension, readonly string[]> = {
  pdf: ["pdf"],
  jpg: ["jpg"],
  jpeg: ["jpg"],
  png: ["png", "apng"],
  // A Word 97-2003 document is a Compound File; its detection does not name Word itself.
  doc: ["cfb", "doc"],
  docx: ["docx"],
};

/** True when the file's first bytes (`head`) are those of the type its extension names. */
export async function contentMatches(extension: AllowedExtension, head: Uint8Array): Promise<boolean> {
  if (head.byteLength === 0) return false;
  const detected = await fileTypeFromBuffer(head.subarray(0, SNIFF_BYTES));
  return detected !== undefined && DETECTED_AS[extension].includes(detected.ext);
}

/**
 * Whether a whole file may be stored: its last extension is accepted, it is neither empty nor
 * larger than 20 MB, and its content is of that type. The content type comes from this check,
 * never from what the sender claimed.
 */
export async function checkUpload(name: string, bytes: Uint8Array): Promise<UploadCheck> {
  const byName = checkUploadName(name, bytes.byteLength);
  if (!byName.ok) return byName;
  if (!(await contentMatches(byName.extension, bytes)))
    return { ok: false, reason: refusedContent(byName.extension) };
  return byName;
}
