/**
 * The audit trail's kinds of entry and the state of its page (/admin/audit) in the URL: the
 * client search, who acted, the kind and the page. Shared by the page's loader and its form.
 */

export const AUDIT_ACTIONS = [
  "sign-in",
  "sign-in-failed",
  "second-factor-locked",
  "password-set",
  "password-reset",
  "case-viewed",
  "documents-viewed",
  "workflow-saved",
  "document-uploaded",
  "document-downloaded",
  "document-removed",
  "clients-exported",
  "client-created",
  "invitation-sent",
  "role-changed",
  "message-handled",
  "case-opened",
  "taxpayer-info-saved",
  "ssn-revealed",
  "document-shared",
  "document-unshared",
  "note-added",
  "stage-notices-changed",
  "staff-invited",
  "staff-deactivated",
  "staff-reactivated",
  "second-factor-reset",
  "case-assigned",
  "message-sent",
  "message-hidden",
  "messages-viewed",
  "request-added",
  "request-answered",
  "request-answer-withdrawn",
  "request-received",
  "request-returned",
  "request-removed",
  "mail-resent",
  "return-version-uploaded",
  "return-approved",
  "return-changes-requested",
  "id-check-recorded",
  "signature-requested",
  "signing-code-sent",
  "return-signed",
  "handwritten-signature-uploaded",
  "handwritten-signature-accepted",
  "handwritten-signature-returned",
  "signature-request-voided",
  "signature-request-cancelled",
  "tolerance-declared",
  "return-authorised",
  "return-transmitted",
  "return-accepted",
  "return-rejected",
  "final-copies-released",
  "invoice-created",
  "invoice-updated",
  "invoice-sent",
  "invoice-voided",
  "invoice-paid",
  "payment-recorded",
  "payment-processing",
  "payment-failed",
  "payment-announced",
  "refund-requested",
  "refund-recorded",
  "refund-failed",
  "final-copies-gate-changed",
  "invoice-downloaded",
  "payments-exported",
  "residency-history-changed",
  "residency-findings-saved",
  "residency-facts-changed",
  "residency-confirmed",
  "engagement-template-saved",
  "engagement-setting-changed",
  "engagement-letter-sent",
  "engagement-letter-accepted",
  "engagement-letter-declined",
  "consent-given",
  "consent-refused",
  "consent-withdrawn",
  "staff-location-changed",
  "season-started",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string | null): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value ?? "");
}

/** Entries on one page of the trail. */
export const AUDIT_PAGE_SIZE = 50;

/**
 * The deepest page the trail numbers: the newest 50,000 entries of a filter. Counting and
 * skipping stay quick however large the table grows; older entries are reached by narrowing the
 * filters (a client, an actor, a kind).
 */
export const AUDIT_MAX_PAGES = 1000;

/** The actor filter's value for entries nobody signed in made (failed sign-ins, automatic changes). */
export const SYSTEM_ACTOR = "system";

export type AuditQuery = {
  /** The client search (the client list's), "" for every client. */
  client: string;
  /** A staff member's account id, SYSTEM_ACTOR, or "" for anyone. */
  actor: string;
  /** One kind of entry, or "" for every kind. */
  action: AuditAction | "";
  page: number;
};

/**
 * Reads the page's state from the URL. A kind that is not one is left out and named in
 * `problems`; the actor is checked against the staff by the loader; a page that is not a whole
 * number from 1 reads as 1.
 */
export function parseAuditQuery(params: URLSearchParams): { query: AuditQuery; problems: string[] } {
  const problems: string[] = [];
  const action = (params.get("action") ?? "").trim();
  if (action !== "" && !isAuditAction(action)) problems.push("The kind of entry in this link is not one the trail has; every kind is shown.");
  const page = /^\d{1,9}$/.test(params.get("page") ?? "") ? Number(params.get("page")) : 1;
  return {
    query: {
      client: (params.get("client") ?? "").trim().slice(0, 100),
      actor: (params.get("actor") ?? "").trim().slice(0, 200),
      action: isAuditAction(action) ? action : "",
      page: Math.min(Math.max(page, 1), AUDIT_MAX_PAGES),
    },
    problems,
  };
}

/** The page's URL for a state (empty filters and page 1 left out). */
export function auditHref(query: AuditQuery, overrides: Partial<AuditQuery> = {}): string {
  const next = { ...query, ...overrides };
  const params = new URLSearchParams();
  if (next.client) params.set("client", next.client);
  if (next.actor) params.set("actor", next.actor);
  if (next.action) params.set("action", next.action);
  if (next.page > 1) params.set("page", String(next.page));
  const s = params.toString();
  return s ? `/admin/audit?${s}` : "/admin/audit";
}
