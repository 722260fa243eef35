/**
 * Text in the PDFs the product makes with the standard fonts (docs/decisions/0028-pdf-library.md):
 * what those fonts can write, and lines wrapped to a width. Shared by the signed authorisation
 * (app/server/returns/signed-pdf.server.ts) and the invoices and receipts (app/server/fees/invoice-pdf.server.ts).
 */
import type { PDFFont } from "@pdfme/pdf-lib";

const charsets = new WeakMap<PDFFont, ReadonlySet<number>>();
function charsetOf(font: PDFFont): ReadonlySet<number> {
  let set = charsets.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    charsets.set(font, set);
  }
  return set;
}

/**
 * The text as the standard fonts' encoding (WinAnsi) can write it: a letter with an accent the
 * encoding lacks is written without the accent (ő as o), and any other character it lacks as its
 * code point (张 as <U+5F20>), so nothing is dropped silently.
 */
export function writable(font: PDFFont, text: string): string {
  const set = charsetOf(font);
  let out = "";
  for (const char of text.replace(/[\r\n\t]+/g, " ")) {
    const code = char.codePointAt(0) ?? 0;
    if (set.has(code)) {
      out += char;
      continue;
    }
    const base = char.normalize("NFKD").replace(/\p{M}/gu, "");
    out += base !== "" && [...base].every((c) => set.has(c.codePointAt(0) ?? 0))
      ? base
      : `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
  }
  return out;
}

/** Lines of at most `width` points; a word longer than a line is cut. */
export function wrap(font: PDFFont, size: number, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const candidate = line === "" ? word : `${line} ${word}`;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line !== "") lines.push(line);
    line = word;
    while (font.widthOfTextAtSize(line, size) > width) {
      let cut = line.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}
