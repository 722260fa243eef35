/**
 * A client's immigration history as the residency rules read it (docs/product/residency.md): each
 * person of the household with their visa and status periods and their stays in the US, and the
 * facts of the case the flags need. It spans years, not one tax year.
 */

/** A calendar day, YYYY-MM-DD. */
export type IsoDay = string;

export const STATUSES = [
  "F-1",
  "J-1",
  "M-1",
  "Q-1",
  "H-1B",
  "H-4",
  "L-1",
  "L-2",
  "O-1",
  "TN",
  "E",
  "B-1/B-2",
  "F-2",
  "J-2",
  "M-2",
  "Q-3",
  "LPR",
  "USC",
  "other",
] as const;
export type Status = (typeof STATUSES)[number];

export const STATUS_LABELS: Record<Status, string> = {
  "F-1": "F-1 student",
  "J-1": "J-1 exchange visitor",
  "M-1": "M-1 vocational student",
  "Q-1": "Q-1 cultural exchange visitor",
  "H-1B": "H-1B worker",
  "H-4": "H-4 dependant",
  "L-1": "L-1 intracompany transferee",
  "L-2": "L-2 dependant",
  "O-1": "O-1 worker",
  TN: "TN professional",
  E: "E treaty trader or investor",
  "B-1/B-2": "B-1/B-2 visitor",
  "F-2": "F-2 dependant",
  "J-2": "J-2 dependant",
  "M-2": "M-2 dependant",
  "Q-3": "Q-3 dependant",
  LPR: "lawful permanent resident (green card)",
  USC: "US citizen",
  other: "another status",
};

/** What a J-1 or Q-1 holder came to do: a student, or a teacher, trainee, researcher or scholar. */
export const PROGRAM_CATEGORIES = ["student", "teacher", "trainee", "researcher", "scholar"] as const;
export type ProgramCategory = (typeof PROGRAM_CATEGORIES)[number];

/** The statuses whose category says whether the holder is a student or a teacher or trainee. */
export const CATEGORY_STATUSES: readonly Status[] = ["J-1", "Q-1"];

/** The family statuses that follow the person they depend on, and that person's status. */
export const DERIVATIVE_OF: Partial<Record<Status, Status>> = { "F-2": "F-1", "J-2": "J-1", "M-2": "M-1", "Q-3": "Q-1" };

export type StatusPeriod = {
  status: Status;
  /** J-1 and Q-1 only (a Q-1 without one is a student). */
  category: ProgramCategory | null;
  from: IsoDay;
  /** The last day in the status; null while it lasts. */
  to: IsoDay | null;
};

export type Stay = {
  /** Both days are days of presence. */
  arrival: IsoDay;
  /** Null for a stay still open (present up to today). */
  departure: IsoDay | null;
  /** In transit between two foreign places, under 24 hours: no day of it counts. */
  transit: boolean;
};

export type PersonRole = "client" | "spouse" | "dependant";

/** What staff recorded for a person and a tax year after looking at the evidence. */
export type StaffFindings = {
  /** A student past 5 exempt years showed no intent to reside and kept to the visa (Pub 519, exempt individuals). */
  studentException: boolean;
  /** The person kept a closer connection abroad on their first days in the year (up to 10: the de minimis rule). */
  deMinimis: boolean;
  /** After the last day present, the tax home and closer connection were abroad for the rest of the year. */
  abroadAfterLeaving: boolean;
};

export const NO_FINDINGS: StaffFindings = { studentException: false, deMinimis: false, abroadAfterLeaving: false };

export type PersonHistory = {
  /** Stable within the case: "client", "spouse", or the dependant's id. */
  key: string;
  role: PersonRole;
  name: string;
  periods: StatusPeriod[];
  /** The person's own stays, or the client's when they travel with the client. */
  stays: Stay[];
  /** Country of citizenship, as a name ("India"); null when not known. */
  citizenship: string | null;
  /** Has applied for a green card or taken other steps toward it (the closer connection exception is then closed). */
  greenCardSteps: boolean;
  /** ITIN holders: the year it was issued and the last tax year it was on a federal return. */
  itin: { issuedYear: number; lastUsedYear: number | null } | null;
  /** Whether Social Security or Medicare tax was withheld from their pay in the tax year (null: not asked or not known). */
  ficaWithheld: boolean | null;
  /** Staff's findings by tax year. */
  findings: Record<number, StaffFindings>;
};

export type Household = {
  people: PersonHistory[];
  /** The client's foreign financial accounts in the tax year: the highest combined balance, in cents (null: none held). */
  foreignAccountsHighestCents: number | null;
  /** Whether the client files jointly (the thresholds of Form 8938 double). */
  filesJointly: boolean;
};
