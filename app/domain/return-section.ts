/**
 * The staff's Return section of a case page (docs/product/return-and-signature.md): its forms'
 * intents, the labels of the return's records and the short confirmation shown after each change.
 * Pure: shared by the browser and the server.
 */
import type { AuthorizationForm, IdCheckMethod, IdDocumentType, Jurisdiction, ReturnForm, SignatureMethod, SignerRole } from "./returns";

/** The forms of the section, each posted with its `intent`. */
export const RETURN_INTENTS = [
  "upload-version",
  "id-check",
  "request-signature",
  "cancel-request",
  "accept-scan",
  "return-scan",
  "make-signed-copy",
  "declare-tolerance",
  "transmit",
  "accepted",
  "rejected",
  "release-final",
] as const;
export type ReturnIntent = (typeof RETURN_INTENTS)[number];

export function isReturnIntent(value: unknown): value is ReturnIntent {
  return typeof value === "string" && (RETURN_INTENTS as readonly string[]).includes(value);
}

/** The intents whose form carries a file (sent as multipart/form-data). */
export const RETURN_FILE_INTENTS: ReadonlySet<ReturnIntent> = new Set<ReturnIntent>(["upload-version", "request-signature", "release-final"]);

/** What the section says after each change (the address's `?done=`). */
export const RETURN_DONE = {
  "version-uploaded": "The draft return was uploaded.",
  "version-uploaded-voided": "The draft return was uploaded. The signature request on the earlier version is now void.",
  "id-checked": "The identity check was recorded.",
  "signature-requested": "The signature was requested. The signers were e-mailed.",
  "request-cancelled": "The signature request was cancelled: its links no longer work. Request the signature again to send new ones.",
  "scan-accepted": "The hand-signed form was accepted.",
  "scan-returned": "The hand-signed form was sent back with your reason.",
  "signed-copy-made": "The signed copy was made.",
  "tolerance-declared": "The change was declared within the IRS tolerances: the signature holds for the current version.",
  transmitted: "The transmission was recorded.",
  accepted: "The acceptance was recorded.",
  rejected: "The rejection was recorded. The client was e-mailed.",
  released: "The final copies were released to the client.",
} as const;
export type ReturnDone = keyof typeof RETURN_DONE;

export function returnDoneMessage(key: string | null): string | null {
  return key !== null && Object.hasOwn(RETURN_DONE, key) ? RETURN_DONE[key as ReturnDone] : null;
}

/** The refusals of the section's own (the return's functions have theirs in domain/returns.ts). */
export const RETURN_SECTION_MESSAGES = {
  unknown: "That change is not one this page makes. Reload the page and try again.",
  noFile: "Choose a PDF file to upload.",
  unreadable: "The form could not be read. Please try again.",
  tooLarge: "The upload is larger than 100 MB.",
  controlCharacters: "The form holds characters that cannot be stored. Remove them and try again.",
  noSuchVersion: "There is no such version of this case's return.",
  noSuchRequest: "There is no such signature request on this case.",
  noSuchScan: "There is no such hand-signed form on this case.",
  noSuchTransmission: "There is no such transmission of this case waiting for an answer.",
  notAuthorised: "The request is not authorised yet: the signed copy is made once every signer has signed.",
  noVersion: "Upload the draft return first.",
  noSignedCopy: "There is no signed copy yet: upload the signed authorisation as a PDF.",
  notAccepted: "The final copies are released once the IRS has accepted the federal return.",
} as const;

export const ID_DOCUMENT_LABELS: Readonly<Record<IdDocumentType, string>> = {
  passport: "Passport",
  visa: "Visa",
  ead: "EAD (employment authorisation)",
  "drivers-licence": "Driver's licence",
  "national-id": "National ID card",
};

export const ID_METHOD_LABELS: Readonly<Record<IdCheckMethod, string>> = {
  "in-person": "In person",
  "live-video": "Live video",
};

/** A SHA-256 shortened for a list (its first 12 characters); the full value goes in a title. */
export function shortSha256(sha256: string): string {
  return `${sha256.slice(0, 12)}…`;
}

// What the section shows (app/server/returns/return-section.server.ts reads it).

export type SectionVersion = {
  id: string;
  number: number;
  form: ReturnForm;
  note: string;
  sha256: string;
  fileName: string;
  uploadedAt: string;
  /** Whether a newer version replaced it. */
  superseded: boolean;
  approvedAt: string | null;
  documentId: string;
  uploadedBy: string | null;
  /** The client's latest review of this version. */
  review: { decision: "approved" | "changes-requested"; at: string; comment: string | null } | null;
};

export type SectionIdCheck = {
  id: string;
  signer: SignerRole;
  documentType: IdDocumentType;
  issuingCountry: string;
  expiresOn: string;
  numberLast4: string;
  how: IdCheckMethod;
  checkedBy: string | null;
  checkedAt: string;
};

export type SectionRequest = {
  id: string;
  form: AuthorizationForm;
  formDocumentId: string;
  versionId: string;
  versionNumber: number;
  jointReturn: boolean;
  createdAt: string;
  void: boolean;
  authorised: boolean;
  /** The version that voided it, when void. */
  voidedBy: string | null;
  /** Why staff cancelled it (or the client's request for changes did), when cancelled. */
  cancelled: string | null;
  signers: Array<{ role: SignerRole; name: string; email: string; signed: { method: SignatureMethod; at: string; name: string } | null }>;
  /** Hand-signed forms waiting for staff's answer. */
  pendingScans: Array<{ id: string; role: SignerRole; name: string; documentId: string; fileName: string; at: string }>;
  signedCopy: { documentId: string; sha256: string } | null;
};

export type SectionEfileEvent = {
  id: string;
  kind: "transmitted" | "accepted" | "rejected";
  jurisdiction: Jurisdiction;
  date: string;
  submissionId: string | null;
  transmissionId: string | null;
  codes: string[];
  note: string | null;
  recordedAt: string;
  recordedBy: string | null;
};

export type ReturnSectionData = {
  versions: SectionVersion[];
  /** The authorisation form the current version is signed on. */
  expectedForm: AuthorizationForm | null;
  /** The return's form the case's residency calls for (a new version's default); null before there is one. */
  residencyForm: ReturnForm | null;
  idChecks: SectionIdCheck[];
  requests: SectionRequest[];
  efile: SectionEfileEvent[];
  /** Transmissions still waiting for an answer. */
  waiting: SectionEfileEvent[];
  /** Rejections not yet followed by a new transmission, with the days left to send again (negative once passed). */
  openRejections: Array<{ id: string; jurisdiction: Jurisdiction; resendBy: string; daysLeft: number }>;
  /** Whether a federal transmission was accepted. */
  accepted: boolean;
  finalCopies: { releasedAt: string; filedReturnDocumentId: string; signedAuthorizationDocumentId: string } | null;
};
