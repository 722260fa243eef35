/**
 * The "What we need" items a case's residency calls for (docs/product/residency.md#what-we-need),
 * made from its stored outcome: the papers of Form 8843 for each exempt person (their I-20 or
 * DS-2019), the papers of an ITIN's renewal with Form W-7, and the employer's letter of a FICA
 * refund. Staff add them like a template's; an item already on the list is not added again.
 */
import type { ResidencyOutcome } from "~/domain/residency/rules";
import type { RequestTemplate, TemplateItem } from "./request-templates";

export const RESIDENCY_TEMPLATE_ID = "residency";

function ofPerson(o: ResidencyOutcome, own: string, theirs: (name: string) => string): string {
  return o.role === "client" ? own : theirs(o.name);
}

/** The residency's items for a case; none when its outcome asks for nothing (or there is none). */
export function residencyItems(outcome: readonly ResidencyOutcome[] | null): TemplateItem[] {
  if (!outcome) return [];
  const items: TemplateItem[] = [];
  for (const o of outcome) {
    if (o.exemptIndividual)
      items.push({
        title: ofPerson(o, "Form I-20 or DS-2019 for your Form 8843", (n) => `Form I-20 or DS-2019 for ${n}'s Form 8843`),
        detail: `All pages of each I-20 (F-1, M-1) or DS-2019 (J-1) that covered any part of ${o.taxYear}, with the travel signatures: ${ofPerson(o, "you file", (n) => `${n} files`)} Form 8843 for the days that do not count.`,
        category: "passport-visa",
      });
    if (o.flags.some((f) => f.kind === "itin-expired" || f.kind === "itin-old"))
      items.push({
        title: ofPerson(o, "Papers to renew your ITIN (Form W-7)", (n) => `Papers to renew ${n}'s ITIN (Form W-7)`),
        detail: `The passport (the original, or a copy certified by the office that issued it) for the ITIN's renewal on Form W-7, sent with the ${o.taxYear} return.`,
        category: "passport-visa",
      });
    if (o.flags.some((f) => f.kind === "fica-refund"))
      items.push({
        title: ofPerson(o, "Your employer's letter on Social Security and Medicare tax", (n) => `${n}'s employer's letter on Social Security and Medicare tax`),
        detail: `A letter from the employer that withheld Social Security and Medicare tax in ${o.taxYear}: that they refunded it, or that they will not. The claim on Forms 843 and 8316 needs it.`,
        category: "other-documents",
      });
  }
  return items;
}

/** The residency's items as a template staff choose, or null when it asks for nothing. */
export function residencyTemplate(outcome: readonly ResidencyOutcome[] | null, taxYear: number): RequestTemplate | null {
  const items = residencyItems(outcome);
  if (items.length === 0) return null;
  return {
    id: RESIDENCY_TEMPLATE_ID,
    service: "1040-1040nr",
    label: `What the ${taxYear} residency calls for (Form 8843, ITIN renewal, FICA letter)`,
    visas: [],
    visaTypes: [],
    items,
  };
}
