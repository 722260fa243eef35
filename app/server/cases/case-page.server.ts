import { desc, eq } from "drizzle-orm";
import type { ActivityEntry } from "~/domain/cases";
import { UUIDS_IN_TEXT } from "~/domain/validation";
import { isStageKey, stageLabel } from "~/domain/workflow";
import { listStaff } from "~/server/team/active-staff.server";
import { caseActivityRows } from "./cases.server";
import { getDb } from "~/server/db/client.server";
import { clientCases } from "~/server/db/schema";

// The staff's case page (routes/admin/case.tsx): what it needs beyond the case functions.
// Callers sit under the admin layout.

/** The tax years the client has a case for, newest first. */
export async function clientCaseYears(clientId: string): Promise<number[]> {
  const rows = await getDb()
    .select({ year: clientCases.taxYear })
    .from(clientCases)
    .where(eq(clientCases.userId, clientId))
    .orderBy(desc(clientCases.taxYear));
  return rows.map((r) => r.year);
}

export type ActivityRow = Awaited<ReturnType<typeof caseActivityRows>>[number];

/** Ids as stored (UUIDs, long random tokens): never shown on the page. */
const ID_SHAPES = [UUIDS_IN_TEXT, /\b[A-Za-z0-9_-]{24,}\b/g];

function withoutIds(text: string): string {
  return ID_SHAPES.reduce((t, shape) => t.replace(shape, "…"), text);
}

/** Stage keys as their labels: "taxinfo" → "TAX INFO"; an unknown key stays out. */
function stageLabels(keys: string): string[] {
  return keys
    .split(",")
    .map((k) => k.trim())
    .filter(isStageKey)
    .map(stageLabel);
}

/**
 * A workflow-saved entry's detail (`stage <key>; completed: <keys>; assignee: <id|none>`, as
 * cases/workflow.server.ts saveWorkflow writes it) in words: labels for the stages, a name for the assignee.
 */
export function describeWorkflow(detail: string, staffNames: ReadonlyMap<string, string>): string {
  const match = /^stage (\S+); completed: (.*); assignee: (.*)$/.exec(detail.trim());
  if (!match) return "Workflow saved";
  const [, stage = "", completed = "", assignee = ""] = match;
  const parts: string[] = [];
  if (isStageKey(stage)) parts.push(`stage ${stageLabel(stage)}`);
  const done = completed === "none" ? [] : stageLabels(completed);
  parts.push(done.length > 0 ? `completed ${done.join(", ")}` : "no stage completed");
  if (assignee === "none" || assignee === "") parts.push("not assigned");
  else parts.push(`assigned to ${staffNames.get(assignee) ?? "a former staff member"}`);
  return `Workflow saved: ${parts.join("; ")}`;
}

/** One audit entry's action in words, with its detail where the detail helps (never a raw id). */
export function describeAction(
  action: string,
  detail: string | null,
  staffNames: ReadonlyMap<string, string>,
): string {
  const d = (detail ?? "").trim();
  const withDetail = (text: string) => (d ? `${text}: ${d}` : text);
  switch (action) {
    case "sign-in":
      return "Signed in";
    case "sign-in-failed":
      return "A sign-in failed";
    case "second-factor-locked":
      return "Security code entry paused";
    case "case-viewed":
      return "Opened the case";
    case "documents-viewed":
      return d ? `Opened the documents (${withoutIds(d)})` : "Opened the documents";
    case "workflow-saved":
      return describeWorkflow(d, staffNames);
    case "case-assigned": {
      // `assignee: <id|none>` and, for several cases at once, ` (<n> cases at once)`, as cases/workflow.server.ts assignCases writes it.
      const assignee = /^assignee: (\S+)/.exec(d)?.[1] ?? "";
      const atOnce = /\((\d+) cases at once\)$/.exec(d)?.[1];
      const together = atOnce ? `, one of ${atOnce} cases at once` : "";
      if (assignee === "none") return `Unassigned the case${together}`;
      return assignee ? `Assigned the case to ${staffNames.get(assignee) ?? "a former staff member"}${together}` : "Assigned the case";
    }
    case "document-uploaded":
      return withDetail("Uploaded a document");
    case "document-downloaded":
      return withDetail("Downloaded a document");
    case "document-removed":
      return withDetail("Removed a document");
    case "document-shared":
      return withDetail("Shared a document");
    case "document-unshared":
      return withDetail("Stopped sharing a document");
    case "clients-exported":
      return "Exported the client list";
    case "client-created":
      return "Created the client's account";
    case "invitation-sent":
      return d.endsWith(" again") ? "Sent the invitation e-mail again" : "Sent the invitation e-mail";
    case "role-changed":
      return "Changed the account's role";
    case "message-handled":
      return "Marked a contact message handled";
    case "case-opened": {
      const year = /\b(\d{4})\b/.exec(d)?.[1];
      return year ? `Opened tax year ${year}` : "Opened a tax year";
    }
    case "taxpayer-info-saved":
      return d === "submitted"
        ? "Submitted the taxpayer information"
        : d === "changed"
          ? "Changed the taxpayer information"
          : "Saved the taxpayer information";
    case "ssn-revealed":
      return "Revealed the SSN/ITIN";
    case "note-added":
      return "Added an internal note";
    case "message-sent":
      return d === "from the client" ? "Sent a message" : "Sent the client a message";
    case "message-hidden":
      return withDetail("Hid a message from the client");
    case "messages-viewed":
      return "Opened the messages";
    case "stage-notices-changed":
      return d.endsWith(" off")
        ? "Turned stage e-mails off"
        : d.endsWith(" on")
          ? "Turned stage e-mails on"
          : "Changed stage e-mails";
    case "request-added":
      return withDetail("Requested from the client");
    case "request-answered":
      return withDetail("Answered a requested item");
    case "request-answer-withdrawn":
      return withDetail("Took back an answer to a requested item");
    case "request-received":
      return withDetail("Marked a requested item received");
    case "request-returned":
      return withDetail("Returned a requested item");
    case "request-removed":
      return withDetail("Removed a requested item");
    case "mail-resent":
      return withDetail("Sent an undelivered e-mail again");
    case "return-version-uploaded":
      return withDetail("Uploaded a draft of the return");
    case "return-approved":
      return withDetail("Approved the draft return");
    case "return-changes-requested":
      return withDetail("Asked for changes to the draft return");
    case "id-check-recorded":
      return withDetail("Recorded an identity check");
    case "signature-requested":
      return withDetail("Requested a signature");
    case "signing-code-sent":
      return withDetail("Sent a signing code");
    case "return-signed":
      return withDetail("Signed the authorisation form");
    case "handwritten-signature-uploaded":
      return withDetail("Uploaded a form signed by hand");
    case "handwritten-signature-accepted":
      return withDetail("Accepted a form signed by hand");
    case "handwritten-signature-returned":
      return withDetail("Sent back a form signed by hand");
    case "signature-request-voided":
      return withDetail("A new version voided the signature request");
    case "signature-request-cancelled":
      return withDetail("Cancelled the signature request");
    case "tolerance-declared":
      return withDetail("Declared the change within the IRS tolerances");
    case "return-authorised":
      return withDetail("Every signer has signed");
    case "return-transmitted":
      return withDetail("Recorded a transmission");
    case "return-accepted":
      return withDetail("Recorded the return's acceptance");
    case "return-rejected":
      return withDetail("Recorded the return's rejection");
    case "final-copies-released":
      return withDetail("Released the final copies");
    case "invoice-created":
      return withDetail("Made an invoice");
    case "invoice-updated":
      return withDetail("Changed a draft invoice");
    case "invoice-sent":
      return withDetail("Sent an invoice");
    case "invoice-voided":
      return withDetail("Voided an invoice");
    case "invoice-paid":
      return withDetail("An invoice was paid in full");
    case "payment-recorded":
      return withDetail("Recorded a payment");
    case "payment-processing":
      return withDetail("A bank payment is processing");
    case "payment-failed":
      return withDetail("A payment failed");
    case "payment-announced":
      return withDetail("Said a payment was sent");
    case "refund-requested":
      return withDetail("Asked Stripe for a refund");
    case "refund-recorded":
      return withDetail("Recorded a refund");
    case "refund-failed":
      return withDetail("A refund failed");
    case "final-copies-gate-changed":
      return withDetail("Changed whether the final copies wait for payment");
    case "invoice-downloaded":
      return withDetail("Downloaded an invoice");
    case "payments-exported":
      return "Exported the payments";
    default:
      return d ? `Other activity: ${withoutIds(d)}` : "Other activity";
  }
}

/** Who did it: "Client" for the client themself, "System" for nobody, else the staff member's name. */
export function actorOf(row: Pick<ActivityRow, "actorId" | "actorName">, clientId: string): string {
  if (row.actorId === null) return "System";
  if (row.actorId === clientId) return "Client";
  return row.actorName ?? "A former staff member";
}

/** The views that read as one entry when one person makes them one after another. */
const VIEW_TEXTS: Readonly<Record<string, string>> = {
  "case-viewed": "Opened the case",
  "messages-viewed": "Opened the messages",
};

/**
 * A case's activity ready to show, newest first: each entry's action in words, the actor's name,
 * the time as an ISO timestamp (the page shows it in the viewer's time zone). Views of the case
 * by one person one after another read as one entry.
 */
export function formatActivity(
  rows: readonly ActivityRow[],
  clientId: string,
  staffNames: ReadonlyMap<string, string>,
): ActivityEntry[] {
  const out: ActivityEntry[] = [];
  let run: { entry: ActivityEntry; action: string; actorId: string | null; count: number } | null = null;
  for (const row of rows) {
    const actor = actorOf(row, clientId);
    const viewed = VIEW_TEXTS[row.action];
    if (viewed && run && run.action === row.action && run.actorId === row.actorId) {
      run.count += 1;
      run.entry.text = `${viewed} (${run.count} times)`;
      continue;
    }
    const entry: ActivityEntry = {
      id: row.id,
      at: row.at.toISOString(),
      actor,
      text: describeAction(row.action, row.detail, staffNames),
    };
    out.push(entry);
    run = viewed ? { entry, action: row.action, actorId: row.actorId, count: 1 } : null;
  }
  return out;
}

/** The case's activity (see formatActivity). `staffNames` maps staff ids to names (listStaff when not given). */
export async function caseActivity(
  clientId: string,
  taxYear: number,
  staffNames?: ReadonlyMap<string, string>,
): Promise<ActivityEntry[]> {
  const [rows, names] = await Promise.all([
    caseActivityRows(clientId, taxYear),
    staffNames ?? listStaff().then((staff) => new Map(staff.map((s) => [s.id, s.name]))),
  ]);
  return formatActivity(rows, clientId, names);
}
