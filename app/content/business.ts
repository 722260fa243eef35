/**
 * Business settings: the firm's name, contact details, hours and the marketing figures
 * quoted across the site. One source for each fact; every page reads from here.
 * The values are placeholders the firm replaces with its own.
 */
export const business = {
  name: "TaxBridge",
  tagline: "US tax filing for the international community",
  description:
    "TaxBridge prepares and files US taxes for non-resident aliens, visa holders (F-1, H-1B, J-1, L-1), green card holders and families with ties abroad: ITIN, FBAR and FATCA, 1040 and 1040-NR returns, extensions and planning.",
  phone: { display: "+1 (555) 010-2030", tel: "+15550102030" },
  whatsapp: { display: "+91 98765 43210", number: "919876543210" },
  email: "support@taxbridge.example",
  hours: "Mon-Fri 9AM-6PM EST",
  hoursLong: "Monday to Friday, 9 AM to 6 PM EST",
  licensedBadge: "Licensed Professionals",
  responsePromise: "within 24 hours",
  address: {
    lines: ["4th Floor, Cyber Towers", "HITEC City, Madhapur", "Hyderabad, Telangana 500081", "India"],
  },
  social: [
    { name: "Facebook", href: "https://www.facebook.com/" },
    { name: "LinkedIn", href: "https://www.linkedin.com/" },
    { name: "X", href: "https://x.com/" },
    { name: "Instagram", href: "https://www.instagram.com/" },
  ],
} as const;

/**
 * How a client pays the firm outside Stripe (docs/product/fees.md#payments): the firm's bank for
 * a wire transfer and its Zelle address. The client's filing page and the invoice PDF show these,
 * with the invoice number as the payment's reference. Placeholders: the firm replaces every value
 * with its own before taking a payment.
 */
export const paymentInstructions = {
  wire: {
    bankName: "Example Community Bank",
    bankAddress: "100 Example Street, New York, NY 10001, USA",
    accountName: "TaxBridge LLC",
    routingNumber: "000000000",
    accountNumber: "0000000000",
    swift: "EXAMPLEUS33",
  },
  zelle: { email: "payments@taxbridge.example", phone: "+1 (555) 010-2031" },
  /** What the client writes as the payment's reference or memo. */
  reference: (invoiceNumber: string) => `${invoiceNumber}`,
} as const;

/**
 * Marketing figures. Each claim has one value used on every page
 * (docs/product/public-site.md#marketing-figures): clients served, satisfaction and years say the
 * same thing everywhere.
 */
export const figures = {
  clientsServed: "50+",
  satisfaction: "97.5%",
  yearsInBusiness: "5",
  totalRefunds: "$1.2M+",
  support: "24/7",
  /** The services page's own figures (a different measure from satisfaction). */
  successRate: "98%",
  averageRefund: "$2.8K",
  responseTime: "24h",
} as const;

/** The prefilled text of the general WhatsApp chat links (contact bar, footer). */
export const whatsappGreeting = `Hello ${business.name}, I have a question about my US taxes.`;

/** A WhatsApp chat link with prefilled text. */
export function whatsappLink(text: string): string {
  return `https://wa.me/${business.whatsapp.number}?text=${encodeURIComponent(text)}`;
}

export const telLink = `tel:${business.phone.tel}`;
export const mailtoLink = `mailto:${business.email}`;
