/**
 * The /about page (footer label "How It Works"): mission, core values and the client's
 * journey through the firm's eight-stage filing workflow.
 */
import type { StageLabel } from "~/domain/workflow";
import { business } from "./business";

export const mission = {
  title: "Our mission",
  paragraphs: [
    `${business.name} exists for people who live between two countries. Students, researchers, engineers, doctors and their families come to the US on F-1, H-1B, J-1 and L-1 visas or with a green card, and meet a tax system that treats them differently from US citizens.`,
    "Our mission is to make US taxes clear for them: to explain in plain English what applies to you, to file what the law requires and nothing you do not need, and to keep your documents safe while we do it.",
  ],
} as const;

export type CoreValue = { id: "transparency" | "expertise" | "security"; name: string; text: string };

export const coreValues = [
  {
    id: "transparency",
    name: "Transparency",
    text: "You see the fee before we start and the draft before we file. We explain every form we prepare and why you need it.",
  },
  {
    id: "expertise",
    name: "Expertise",
    text: "Nonresident returns, tax treaties, FBAR and ITIN applications are our daily work, not a side line. Licensed professionals review every return.",
  },
  {
    id: "security",
    name: "Security",
    text: "Your SSN is encrypted when we store it. Your documents travel only through your secure account, only the staff working on your file can see them, and we keep your records for seven years.",
  },
] as const satisfies readonly CoreValue[];

/** A workflow stage as the admin panel names it (domain/workflow.ts). */
export type WorkflowStage = StageLabel;

export type HowItWorksStep = { stage: WorkflowStage; title: string; text: string };

/** What the client does, or what we do, at each stage. */
export const howItWorks = [
  {
    stage: "HOME",
    title: "Create your account",
    text: "Sign up with your e-mail address or Google account. Your account is where you share information with us and follow your filing.",
  },
  {
    stage: "TAX INFO",
    title: "Tell us about yourself",
    text: "Fill in the taxpayer form: your name as on your SSN or ITIN, visa type, date of first entry to the US, filing status and contact details.",
  },
  {
    stage: "DOCUMENTS",
    title: "Upload your documents",
    text: "Send your W-2, 1042-S or 1099 forms, passport and visa pages and anything else we ask for, through your secure account.",
  },
  {
    stage: "PREPARATION",
    title: "We prepare your return",
    text: "A tax professional checks your residency status, applies any tax treaty you qualify for and prepares the forms you need.",
  },
  {
    stage: "DRAFT",
    title: "You review the draft",
    text: "We send you the draft return. Ask any question; we explain each line and correct anything that is wrong.",
  },
  {
    stage: "PAYMENT",
    title: "You pay our fee",
    text: "You pay once you have seen and approved the draft. The fee is the one we agreed before we started.",
  },
  {
    stage: "E-FILING",
    title: "We file with the IRS",
    text: "We file your return electronically, or prepare it for mailing when the IRS requires paper, for example with an ITIN application.",
  },
  {
    stage: "FINAL COPIES",
    title: "You get your final copies",
    text: "You receive copies of everything we filed and the IRS confirmation. We keep your records for at least seven years.",
  },
] as const satisfies readonly HowItWorksStep[];
