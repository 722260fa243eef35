import { PDFDocument, StandardFonts } from "@pdfme/pdf-lib";
import { business } from "~/content/business";
import { CertificateWriter } from "~/server/returns/signed-pdf.server";

/**
 * The signed engagement letter (docs/product/engagement.md): the letter's exact text, then a last
 * page with the record of its acceptance (who typed their name, when, from which IP address and
 * browser, the letter's SHA-256 and the template's version). Made from the kept records whenever
 * it is asked for, so every copy says the same. Null for a letter not accepted.
 */
/** What the PDF shows of a letter and its answer (letters.server.ts LetterView). */
export type LetterForPdf = {
  text: string;
  sha256: string;
  serviceLabel: string;
  templateVersion: number;
  sentAt: string;
  answer: { decision: "accepted" | "declined"; typedName: string | null; at: string; ip: string | null; userAgent: string | null } | null;
};

export async function signedLetterPdf(letter: LetterForPdf, context: { clientCode: string; taxYear: number }): Promise<Uint8Array | null> {
  const answer = letter.answer;
  if (answer?.decision !== "accepted") return null;
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
  };
  const heading = `${business.name}, tax year ${context.taxYear}, client ${context.clientCode}`;
  const body = new CertificateWriter(doc, fonts, heading, "Engagement letter");
  for (const paragraph of letter.text.split(/\n{2,}/)) for (const line of paragraph.split("\n")) body.paragraph(line, { size: 10.5, gap: 1 });
  body.number();
  const record = new CertificateWriter(doc, fonts, heading, "Record of acceptance");
  record.field("Accepted by", `${answer.typedName ?? ""} (name typed as the electronic signature)`);
  record.field("Accepted at (UTC)", answer.at.replace("T", " ").replace(/\.\d+Z$/, " UTC"));
  record.field("IP address", answer.ip ?? "Not recorded");
  record.field("Browser (user agent)", answer.userAgent ?? "Not recorded");
  record.field("Service", letter.serviceLabel);
  record.field("Template version", String(letter.templateVersion));
  record.field("Letter sent (UTC)", letter.sentAt.replace("T", " ").replace(/\.\d+Z$/, " UTC"));
  record.field("Letter SHA-256", letter.sha256, { mono: true });
  record.paragraph(
    "The letter's SHA-256 is the fingerprint of its exact text as the client read and accepted it (UTF-8, lines ended by a line feed). The firm keeps the text and the fingerprint in its records: computing the fingerprint of the kept text and comparing it with the one above shows that nothing was changed.",
  );
  record.number();
  doc.setTitle(`Engagement letter, tax year ${context.taxYear}, accepted`);
  doc.setProducer(business.name);
  doc.setCreator(business.name);
  // A fixed date: the same records make the same file.
  const when = new Date(answer.at);
  doc.setCreationDate(when);
  doc.setModificationDate(when);
  return doc.save();
}

