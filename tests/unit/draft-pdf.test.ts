import { PDFDocument, StandardFonts, degrees } from "@pdfme/pdf-lib";
import { getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { DRAFT_STAMP, stampDraft } from "~/server/returns/draft-pdf.server";
import { SignedPdfError } from "~/server/returns/signed-pdf.server";

// The draft a client reviews is stamped DRAFT on every page (docs/product/return-and-signature.md),
// read back with a real PDF text parser (pdf.js, through unpdf): what a person opening it sees.

/**
 * A draft of three pages unlike each other: a Letter page, a landscape A4 page whose visible part
 * (its CropBox) is offset inside a larger MediaBox, and a page shown turned by 90 degrees.
 */
async function makeDraft(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const letter = doc.addPage([612, 792]);
  letter.drawText("Form 1040-NR page 1 of 3", { x: 72, y: 700, size: 12, font });
  const landscape = doc.addPage([1000, 800]);
  landscape.setCropBox(100, 100, 842, 595);
  landscape.drawText("Schedule OI page 2 of 3", { x: 150, y: 600, size: 12, font });
  const turned = doc.addPage([612, 792]);
  turned.setRotation(degrees(90));
  turned.drawText("Schedule NEC page 3 of 3", { x: 72, y: 700, size: 12, font });
  return doc.save();
}

type Run = { text: string; x: number; y: number };

/** Each page's visible box and its runs of text with where each starts. */
async function pagesOf(pdf: Uint8Array): Promise<Array<{ box: number[]; runs: Run[] }>> {
  const proxy = await getDocumentProxy(new Uint8Array(pdf));
  const pages = [];
  for (let n = 1; n <= proxy.numPages; n++) {
    const page = await proxy.getPage(n);
    const content = await page.getTextContent();
    const runs = content.items.flatMap((item) => ("str" in item && item.str.trim() !== "" ? [{ text: item.str, x: item.transform[4] as number, y: item.transform[5] as number }] : []));
    pages.push({ box: page.view, runs });
  }
  return pages;
}

describe("the DRAFT stamp", () => {
  it("writes DRAFT across every page, inside what the page shows, and keeps the page's own text", async () => {
    const draft = await makeDraft();
    expect((await pagesOf(draft)).map((p) => p.runs.map((r) => r.text))).toEqual([["Form 1040-NR page 1 of 3"], ["Schedule OI page 2 of 3"], ["Schedule NEC page 3 of 3"]]);

    const pages = await pagesOf(await stampDraft(draft));
    expect(pages.map((p) => p.runs.map((r) => r.text).sort())).toEqual([
      [DRAFT_STAMP, "Form 1040-NR page 1 of 3"],
      [DRAFT_STAMP, "Schedule OI page 2 of 3"],
      [DRAFT_STAMP, "Schedule NEC page 3 of 3"],
    ]);
    for (const { box, runs } of pages) {
      const [left, bottom, right, top] = box as [number, number, number, number];
      const stamp = runs.find((r) => r.text === DRAFT_STAMP)!;
      // The word starts in the lower left quarter of the visible box and runs up across it.
      expect(stamp.x).toBeGreaterThan(left);
      expect(stamp.x).toBeLessThan((left + right) / 2);
      expect(stamp.y).toBeGreaterThan(bottom);
      expect(stamp.y).toBeLessThan((bottom + top) / 2);
    }
    expect(DRAFT_STAMP).toBe("DRAFT");
  });

  it("leaves the original bytes as they were and gives the same file for the same draft", async () => {
    const draft = await makeDraft();
    const before = draft.slice();
    const once = await stampDraft(draft);
    expect(draft).toEqual(before);
    expect(once).not.toEqual(draft);
    expect(await stampDraft(draft)).toEqual(once);
    // A view into a larger pooled buffer is read as the file it shows.
    const pooled = Buffer.concat([Buffer.from("junk before"), Buffer.from(draft)]).subarray(11);
    expect(await stampDraft(pooled)).toEqual(once);
  });

  it("refuses what is not a PDF it can read, with a message staff can act on", async () => {
    const header = new TextEncoder().encode("%PDF-1.7\n% nothing else\n");
    for (const bytes of [new TextEncoder().encode("not a pdf at all"), header]) {
      const error = await stampDraft(bytes).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SignedPdfError);
      expect(error).toMatchObject({ reason: "unreadable", message: "The file is not a PDF that can be read, or it is damaged." });
    }
  });
});
