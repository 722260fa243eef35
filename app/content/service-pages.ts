/** The six service pages: the header's Services menu, the footer and the home showcase read this. */
export type ServicePage = {
  slug: string;
  name: string;
  /** One line for menus and cards. */
  summary: string;
  path: `/services/${string}`;
};

export const servicePages = [
  {
    slug: "itin-processing",
    name: "ITIN Processing",
    summary: "Form W-7 for people who need a US tax number but cannot get an SSN.",
    path: "/services/itin-processing",
  },
  {
    slug: "fbar-filing",
    name: "FBAR & FATCA Filing",
    summary: "Report foreign bank accounts and assets to the US Treasury and the IRS.",
    path: "/services/fbar-filing",
  },
  {
    slug: "1040-returns",
    name: "1040 & 1040-NR Returns",
    summary: "Federal returns for residents and nonresidents for tax purposes.",
    path: "/services/1040-returns",
  },
  {
    slug: "w4-assistance",
    name: "W-4 Assistance",
    summary: "Set your paycheck withholding right, so April brings no surprise.",
    path: "/services/w4-assistance",
  },
  {
    slug: "form-4868-extension",
    name: "Form 4868 Extension",
    summary: "More time to file, to October 15, when you cannot file by April 15.",
    path: "/services/form-4868-extension",
  },
  {
    slug: "professional-tax-planning",
    name: "Professional Tax Planning",
    summary: "Plan the year ahead across two countries before December 31.",
    path: "/services/professional-tax-planning",
  },
] as const satisfies readonly ServicePage[];
