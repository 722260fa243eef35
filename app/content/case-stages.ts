import type { StageKey } from "~/domain/workflow";

/**
 * What each of the eight stages of a filing means for the client, and what happens next, in
 * plain words (docs/product/look-and-voice.md#voice: short sentences, no promises of dates or
 * outcomes). The client's filing page shows the current stage's texts under its timeline.
 */
export type CaseStageText = {
  /** The stage's name for the client (the staff panel's label is STAGES' upper-case one). */
  title: string;
  /** What this stage means for the client. */
  means: string;
  /** What happens next. */
  next: string;
};

export const CASE_STAGE_TEXTS: Record<StageKey, CaseStageText> = {
  home: {
    title: "Getting started",
    means: "Your filing for this tax year is open. We are getting your case ready.",
    next: "Fill in your taxpayer information for this year, if you have not done so yet. A member of our team then checks it.",
  },
  taxinfo: {
    title: "Tax information",
    means: "We are checking the taxpayer information you sent us for this year.",
    next: "If something is missing or unclear, we will contact you. Then we will ask for your documents.",
  },
  documents: {
    title: "Documents",
    means:
      "We need your documents for this tax year: for example your W-2, 1042-S or 1099 forms, and your passport and visa pages. Upload them on this page.",
    next: "When we have everything we need, we mark this stage complete and start preparing your return. We will tell you if a document is missing.",
  },
  preparation: {
    title: "Preparation",
    means: "We are preparing your tax return from your information and documents.",
    next: "We may contact you with a question. When the return is ready, we share a draft with you to review.",
  },
  draft: {
    title: "Draft review",
    means:
      "A draft of your return is ready for you to review. You will find it among your documents on this page.",
    next: "Read the draft carefully and tell us if anything looks wrong. When it is right, we move on to payment.",
  },
  payment: {
    title: "Payment",
    means: "Your return is ready to file once our fee is paid.",
    next: "We send you the amount and how to pay. After payment, we file your return.",
  },
  efiling: {
    title: "E-filing",
    means:
      "We are filing your return electronically with the IRS, and with your state if you need a state return.",
    next: "When the filing is accepted, we prepare your final copies and share them with you here.",
  },
  finalcopies: {
    title: "Final copies",
    means: "Your return has been filed. We are preparing your final copies.",
    next: "Your final copies will appear among your documents on this page. Download them and keep them with your records.",
  },
};

/** Shown instead of the last stage's texts once every stage is complete. */
export const CASE_COMPLETE_TEXT: Omit<CaseStageText, "title"> = {
  means: "Your filing for this tax year is complete.",
  next: "Your final copies are among your documents on this page. Download them and keep them with your records. Contact us if you have a question.",
};
