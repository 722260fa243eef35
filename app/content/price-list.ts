/**
 * The firm's price list (docs/product/fees.md#price-list): every fixed fee it charges, in integer
 * cents of US dollars. The /pricing plans and add-ons, the /services accordion and the ITIN
 * page's options show these prices, and staff build invoices from them: one place to change a fee.
 */

export type PriceListGroup = "Plans" | "Add-ons" | "Services" | "ITIN applications";

export type PriceListItem = {
  /** Stable id: the invoice form's choice and the content modules' key. */
  id: string;
  group: PriceListGroup;
  /** What an invoice line says. */
  description: string;
  unitCents: number;
};

export const priceList = [
  { id: "standard-filing", group: "Plans", description: "Standard Filing (per tax year)", unitCents: 29_900 },
  { id: "premium-service", group: "Plans", description: "Premium Service (per tax year)", unitCents: 59_900 },
  { id: "rush-processing", group: "Add-ons", description: "Rush Processing (48-hour turnaround)", unitCents: 10_000 },
  { id: "audit-protection", group: "Add-ons", description: "Audit Protection", unitCents: 15_000 },
  { id: "prior-year-returns", group: "Add-ons", description: "Prior Year Returns (per additional year)", unitCents: 20_000 },
  { id: "itin", group: "Services", description: "ITIN Processing (Form W-7)", unitCents: 15_000 },
  { id: "fbar-fatca", group: "Services", description: "FBAR / FATCA filing", unitCents: 20_000 },
  { id: "1040-1040nr", group: "Services", description: "1040 / 1040-NR return", unitCents: 25_000 },
  { id: "w4", group: "Services", description: "W-4 assistance", unitCents: 7_500 },
  { id: "form-4868", group: "Services", description: "Form 4868 extension", unitCents: 5_000 },
  { id: "tax-planning", group: "Services", description: "Professional tax planning", unitCents: 50_000 },
  { id: "fica-refund", group: "Services", description: "FICA refund assistance", unitCents: 30_000 },
  { id: "itin-standard", group: "ITIN applications", description: "ITIN application, Standard Processing (6-10 weeks)", unitCents: 19_900 },
  { id: "itin-expedited", group: "ITIN applications", description: "ITIN application, Expedited Processing (2-4 weeks)", unitCents: 29_900 },
] as const satisfies readonly PriceListItem[];

export type PriceListId = (typeof priceList)[number]["id"];

export function priceOf(id: PriceListId): number {
  return priceList.find((item) => item.id === id)!.unitCents;
}

/** A whole-dollar price as the public pages print it: "$299" (never cents: the list holds whole dollars). */
export function wholeDollars(id: PriceListId): `$${number}` {
  return `$${priceOf(id) / 100}`;
}

/** The price of the item `id` as a number of whole dollars (the ITIN page's options). */
export function dollarsOf(id: PriceListId): number {
  return priceOf(id) / 100;
}
