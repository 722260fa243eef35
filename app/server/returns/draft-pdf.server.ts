/**
 * The draft return as the client reads it for review: the version's PDF with "DRAFT" across every
 * page, so that a copy of a draft can never pass for the return as filed. The version's own bytes
 * (and the SHA-256 the approval and the signatures record) stay as staff uploaded them: the stamp
 * is added to each copy served, and the final copy of the filed return is made from the original
 * (final-copies.server.ts). PDFs are read and written with @pdfme/pdf-lib
 * (docs/decisions/0028-pdf-library.md).
 */
import { StandardFonts, degrees, rgb } from "@pdfme/pdf-lib";
import { readPdf } from "./signed-pdf.server";

/** The word stamped on every page of a draft served for review. */
export const DRAFT_STAMP = "DRAFT";

/**
 * `pdf` with DRAFT written large along the diagonal of every page, in red at a quarter's opacity
 * so the return stays readable under it. Throws a SignedPdfError (with a message staff can read)
 * for a file that is not a PDF that can be read, is protected by a password, or has no page.
 * Deterministic: the same file gives the same bytes.
 */
export async function stampDraft(pdf: Uint8Array): Promise<Uint8Array> {
  // A fresh copy: the library reads a view's whole underlying buffer (docs/decisions/0028).
  const doc = await readPdf(new Uint8Array(pdf));
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const page of doc.getPages()) {
    const box = page.getCropBox();
    const angle = Math.atan2(box.height, box.width);
    const diagonal = Math.hypot(box.width, box.height);
    // The word spans about half the diagonal, whatever the page's size.
    const size = (diagonal * 0.5) / font.widthOfTextAtSize(DRAFT_STAMP, 1);
    const halfWidth = font.widthOfTextAtSize(DRAFT_STAMP, size) / 2;
    const halfHeight = font.heightAtSize(size, { descender: false }) / 2;
    // Text turns about its origin (the start of its baseline): the origin is placed so that the
    // word's middle is the page's.
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    page.drawText(DRAFT_STAMP, {
      x: box.x + box.width / 2 - halfWidth * cos + halfHeight * sin,
      y: box.y + box.height / 2 - halfWidth * sin - halfHeight * cos,
      size,
      font,
      color: rgb(0.75, 0.1, 0.1),
      opacity: 0.25,
      rotate: degrees((angle * 180) / Math.PI),
    });
  }
  return doc.save();
}
