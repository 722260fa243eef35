import { and, eq, sql } from "drizzle-orm";
import { clientCode } from "~/domain/admin";
import type { DocumentCategoryKey } from "~/domain/documents";
import type { StageKey, WorkflowFlags } from "~/domain/workflow";
import { logError } from "~/log";
import { saveWorkflow } from "./admin.server";
import type { SessionUser } from "./auth.server";
import { getDb } from "./db/client.server";
import { clientCases, profiles, user } from "./db/schema";
import { setDocumentsShared } from "./documents.server";
import { getEnv } from "./env.server";
import type { Mail } from "./mail.server";
import { sendMail } from "./mail.server";
import { documentsSharedMail, staffCaseNoticeMail, stageChangedMail } from "./mail-templates.server";
import type { StaffNoticeKind } from "./mail-templates.server";

// The e-mail notices about a case (issue: a link, never tax details). A change is stored first;
// its notice follows, and a notice that cannot be sent is logged without failing the change.

async function send(what: string, mail: Mail): Promise<void> {
  try {
    await sendMail(mail);
  } catch (error) {
    logError("mail", `${what} e-mail failed`, error);
  }
}

/** The client's page for a tax year's filing. */
export function filingUrl(taxYear: number): string {
  return `${getEnv().appUrl}/my-tax-filing/${taxYear}`;
}

/** The staff's page for a case. */
export function casePageUrl(clientId: string, taxYear: number): string {
  return `${getEnv().appUrl}/admin/clients/${encodeURIComponent(clientId)}/${taxYear}`;
}

async function clientContact(clientId: string) {
  const [row] = await getDb()
    .select({ email: user.email, name: user.name, stageNotices: profiles.stageNotices })
    .from(user)
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(and(eq(user.id, clientId), eq(user.role, "user")));
  return row ?? null;
}

/**
 * Saves a case's workflow (admin.server saveWorkflow) and, when its stage moved, tells the
 * client unless they turned stage e-mails off.
 */
export async function saveCaseWorkflow(
  actor: SessionUser,
  input: { clientId: string; taxYear: number; flags: WorkflowFlags; stage: StageKey; assigneeId: string | null },
  ip: string,
) {
  const saved = await saveWorkflow(actor, input, ip);
  if (saved.outcome === "saved" && saved.from !== saved.to) {
    const client = await clientContact(input.clientId);
    if (client && client.stageNotices !== false)
      await send("stage notice", stageChangedMail(client.email, client.name, input.taxYear, filingUrl(input.taxYear)));
  }
  return saved;
}

/** Shares staff documents with the client (or takes them back); a share is e-mailed to the client. */
export async function shareDocuments(
  actor: SessionUser,
  input: { clientId: string; taxYear: number; documentIds: string[]; shared: boolean },
  ip: string,
): Promise<Array<{ id: string; name: string; category: DocumentCategoryKey }>> {
  const changed = await setDocumentsShared(actor, input, ip);
  if (input.shared && changed.length > 0) {
    const client = await clientContact(input.clientId);
    if (client) await send("document notice", documentsSharedMail(client.email, client.name, input.taxYear, changed.length, filingUrl(input.taxYear)));
  }
  return changed;
}

/**
 * Tells staff that a client sent something for a case: the case's assignee, or the firm's
 * address (STAFF_EMAIL) when nobody is assigned or the assignee's account is deactivated (a
 * deactivation unassigns their cases; this holds for any assignment stored before it did).
 */
export async function notifyStaff(clientId: string, taxYear: number, kind: StaffNoticeKind, count = 1): Promise<void> {
  const [row] = await getDb()
    .select({
      name: user.name,
      number: clientCases.number,
      assigneeEmail: sql<string | null>`(select s.email from "user" s where s.id = ${clientCases.assigneeId} and s.role in ('admin', 'preparer') and s.deactivated_at is null)`,
    })
    .from(clientCases)
    .innerJoin(user, eq(user.id, clientCases.userId))
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
  if (!row) return;
  const to = row.assigneeEmail ?? getEnv().staffEmail;
  // A message is read on the case's conversation page; anything else on the case page.
  const url = kind === "message-received" ? `${casePageUrl(clientId, taxYear)}/messages` : casePageUrl(clientId, taxYear);
  await send("staff notice", staffCaseNoticeMail(to, `${clientCode(row.number)} ${row.name}`, taxYear, kind, count, url));
}
