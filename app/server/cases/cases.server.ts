import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { clientCode } from "~/domain/admin";
import { isStaffRole } from "~/domain/policy";
import type { CaseNote, ClientCaseView, MaskedTaxpayer } from "~/domain/cases";
import { MAX_NOTE_LENGTH } from "~/domain/cases";
import { clientResidencyOf } from "~/domain/residency/client";
import { openableYears } from "~/domain/tax-year";
import { currentStage, flagsWithProgress, STAGE_KEYS } from "~/domain/workflow";
import type { StageKey, WorkflowFlags } from "~/domain/workflow";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { decryptSecret } from "~/server/platform/crypto.server";
import { worksOutsideUs } from "~/server/consents/outside-us.server";
import { recomputeResidency } from "~/server/residency/outcome.server";
import { getDb } from "~/server/db/client.server";
import type { Transaction } from "~/server/db/client.server";
import { auditLog, caseNotes, caseViews, clientCases, profiles, taxpayerRecords, user } from "~/server/db/schema";
import { caseProgressColumns, stageFlagColumns } from "./progress.server";
import { toFilingView } from "./taxpayer.server";

// A case is a client and a tax year. Every query here names the client: the acting client's own
// id, or a client a staff member chose (callers under the admin layout only).

type CaseRow = typeof clientCases.$inferSelect;

function flagsOf(row: Pick<CaseRow, StageKey>): WorkflowFlags {
  return Object.fromEntries(STAGE_KEYS.map((k) => [k, row[k]])) as WorkflowFlags;
}

/** The case's columns a client's pages read: its year and its stage flags (not its stored residency, nor staff's fields). */
const ownCaseColumns = { taxYear: clientCases.taxYear, ...stageFlagColumns };

/**
 * The client's own cases (of one tax year, when given), newest tax year first, each with its
 * taxpayer information (SSN masked). The stage and flags are the ones the client reads: the
 * stored flags with what the case's records show passed (flagsWithProgress), so that the stage
 * shown is never before the furthest one the return and the fee reached
 * (docs/product/workflow.md#the-stage-the-client-reads). Whether documents are open stays the
 * staff's DOCUMENTS flag.
 */
async function ownCases(userId: string, taxYear?: number): Promise<ClientCaseView[]> {
  const rows = await getDb()
    .select({
      c: ownCaseColumns,
      // One year's page shows its residency; the list of years does not read it.
      residency: taxYear === undefined ? sql<null>`null` : clientCases.residencyOutcome,
      confirmed: clientCases.residencyConfirmedStatus,
      t: taxpayerRecords,
      progress: caseProgressColumns,
      stageNotices: sql<boolean | null>`(select ${profiles.stageNotices} from ${profiles} where ${profiles.id} = ${clientCases.userId})`,
    })
    .from(clientCases)
    .leftJoin(taxpayerRecords, and(eq(taxpayerRecords.userId, clientCases.userId), eq(taxpayerRecords.taxYear, clientCases.taxYear)))
    .where(and(eq(clientCases.userId, userId), taxYear === undefined ? undefined : eq(clientCases.taxYear, taxYear)))
    .orderBy(desc(clientCases.taxYear));
  return rows.map(({ c, t, progress, stageNotices, residency, confirmed }) => {
    const flags = flagsWithProgress(flagsOf(c), progress);
    return {
      taxYear: c.taxYear,
      stage: currentStage(flags),
      flags,
      filing: t ? toFilingView(t) : null,
      documentsOpen: !c.documents,
      stageNotices: stageNotices ?? true,
      residency: clientResidencyOf(residency, confirmed),
    };
  });
}

/** The client's own cases, newest tax year first (see ownCases). */
export async function listOwnCases(userId: string): Promise<ClientCaseView[]> {
  return ownCases(userId);
}

/** The tax years the user has a case for, newest first ([] for staff, who have none). */
export async function ownCaseYears(userId: string): Promise<number[]> {
  const rows = await getDb()
    .select({ year: clientCases.taxYear })
    .from(clientCases)
    .where(eq(clientCases.userId, userId))
    .orderBy(desc(clientCases.taxYear));
  return rows.map((r) => r.year);
}

/** One of the client's own cases, or null when they have none for that year. */
export async function getOwnCase(userId: string, taxYear: number): Promise<ClientCaseView | null> {
  return (await ownCases(userId, taxYear))[0] ?? null;
}

/** A case's stage and flags, or null when there is no such case. */
export async function caseState(clientId: string, taxYear: number): Promise<{ stage: StageKey; flags: WorkflowFlags; assigneeId: string | null } | null> {
  const [row] = await getDb()
    .select()
    .from(clientCases)
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
  return row ? { stage: row.currentStage, flags: flagsOf(row), assigneeId: row.assigneeId } : null;
}

export type OpenCaseOutcome = "opened" | "exists" | "year-not-open" | "no-such-client";

/**
 * Opens a client's case for a tax year: the client for themselves from the portal, or staff
 * from the panel. The years open are the filing season's and three before it. The new case
 * keeps the client's number.
 */
export async function openCase(actor: SessionUser, clientId: string, taxYear: number, ip: string): Promise<OpenCaseOutcome> {
  if (!isStaffRole(actor.role) && actor.id !== clientId) return "no-such-client";
  if (!openableYears().includes(taxYear)) return "year-not-open";
  return getDb().transaction(async (tx) => {
    const outcome = await insertCaseInTx(tx, clientId, taxYear);
    if (outcome === "opened") await recordAudit({ actor, action: "case-opened", clientId, taxYear, detail: `tax year ${taxYear}`, ip }, tx);
    return outcome;
  });
}

/**
 * The client's case for the tax year, made in `tx` when they have none (with the client's
 * number and the year's residency from the history told so far); "exists" when they have one.
 */
export async function insertCaseInTx(tx: Transaction, clientId: string, taxYear: number): Promise<"opened" | "exists" | "no-such-client"> {
  const [client] = await tx
    .select({ number: sql<number | null>`(select min(${clientCases.number}) from ${clientCases} where ${clientCases.userId} = ${user.id})`.mapWith(Number) })
    .from(user)
    .where(and(eq(user.id, clientId), eq(user.role, "user")));
  if (!client) return "no-such-client";
  const inserted = await tx
    .insert(clientCases)
    .values({ userId: clientId, taxYear, ...(client.number ? { number: client.number } : {}) })
    .onConflictDoNothing()
    .returning({ year: clientCases.taxYear });
  if (inserted.length === 0) return "exists";
  // The new year's residency, from the history the client has told so far.
  await recomputeResidency(tx, clientId, { onlyYear: taxYear });
  return "opened";
}

/** True when the client has a case for the tax year. */
export async function caseExists(clientId: string, taxYear: number): Promise<boolean> {
  if (clientId === "") return false;
  const [row] = await getDb()
    .select({ year: clientCases.taxYear })
    .from(clientCases)
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
  return row !== undefined;
}

/** Whether the client is e-mailed when a case of theirs moves to another stage. */

export async function setStageNotices(actor: SessionUser, on: boolean, ip: string): Promise<void> {
  await getDb().transaction(async (tx) => {
    await tx.update(profiles).set({ stageNotices: on, updatedAt: new Date() }).where(eq(profiles.id, actor.id));
    await recordAudit({ actor, action: "stage-notices-changed", clientId: actor.id, detail: on ? "stage e-mails on" : "stage e-mails off", ip }, tx);
  });
}

// ---------------------------------------------------------------------------------------------
// Staff only: callers sit under the admin layout.

/**
 * The client accounts among `emails` (compared in lower case): each with their client code and
 * the tax year of their newest case, so that a contact-form message from a client links to them.
 */
export async function clientsByEmail(emails: readonly string[]): Promise<Map<string, { id: string; code: string; name: string; taxYear: number }>> {
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()))].filter(Boolean);
  if (wanted.length === 0) return new Map();
  const rows = await getDb()
    .select({
      id: user.id,
      email: user.email,
      name: user.name,
      number: sql<number>`min(${clientCases.number})`.mapWith(Number),
      taxYear: sql<number>`max(${clientCases.taxYear})`.mapWith(Number),
    })
    .from(user)
    .innerJoin(clientCases, eq(clientCases.userId, user.id))
    .where(and(eq(user.role, "user"), inArray(user.email, wanted)))
    .groupBy(user.id, user.email, user.name);
  return new Map(rows.map((r) => [r.email, { id: r.id, code: clientCode(r.number), name: r.name, taxYear: r.taxYear }]));
}

/** Records that a staff member opened a case now: the client's uploads before it are no longer new to them. */
export async function markCaseViewed(staffId: string, clientId: string, taxYear: number): Promise<void> {
  await getDb()
    .insert(caseViews)
    .values({ staffId, clientId, taxYear })
    .onConflictDoUpdate({ target: [caseViews.staffId, caseViews.clientId, caseViews.taxYear], set: { viewedAt: sql`now()` } });
}

/** The year's taxpayer information for staff, SSN masked (last four), or null before the client sends it. */
export async function maskedTaxpayer(clientId: string, taxYear: number): Promise<MaskedTaxpayer | null> {
  const [row] = await getDb()
    .select()
    .from(taxpayerRecords)
    .where(and(eq(taxpayerRecords.userId, clientId), eq(taxpayerRecords.taxYear, taxYear)));
  if (!row) return null;
  const { ssn_tin: _cipher, ssn_last4, id: _id, userId: _user, taxYear: _year, createdAt, updatedAt, ...rest } = row;
  return { ...rest, ssn_tin: `***-**-${ssn_last4}`, submittedAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}

/**
 * Reveal: the full SSN/ITIN of a case, for staff, written to the audit trail first. Never for
 * staff who work outside the United States, whatever the client consented to ("outside-us").
 */
export async function revealSsn(actor: SessionUser, clientId: string, taxYear: number, ip: string): Promise<string | null | "outside-us"> {
  if (!isStaffRole(actor.role)) return null;
  if (await worksOutsideUs(actor.id)) return "outside-us";
  const [row] = await getDb()
    .select({ ssn: taxpayerRecords.ssn_tin, last4: taxpayerRecords.ssn_last4 })
    .from(taxpayerRecords)
    .where(and(eq(taxpayerRecords.userId, clientId), eq(taxpayerRecords.taxYear, taxYear)));
  if (!row) return null;
  await recordAudit({ actor, action: "ssn-revealed", clientId, taxYear, detail: `SSN/ITIN ending ${row.last4}`, ip });
  return decryptSecret(row.ssn, clientId);
}

export async function listNotes(clientId: string, taxYear: number): Promise<CaseNote[]> {
  const rows = await getDb()
    .select({ id: caseNotes.id, body: caseNotes.body, author: user.name, createdAt: caseNotes.createdAt })
    .from(caseNotes)
    .leftJoin(user, eq(user.id, caseNotes.authorId))
    .where(and(eq(caseNotes.clientId, clientId), eq(caseNotes.taxYear, taxYear)))
    .orderBy(asc(caseNotes.createdAt), asc(caseNotes.id));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

export async function addNote(actor: SessionUser, clientId: string, taxYear: number, body: string, ip: string): Promise<"added" | "no-such-case" | "empty"> {
  if (!isStaffRole(actor.role)) return "no-such-case";
  const text = body.trim().slice(0, MAX_NOTE_LENGTH);
  if (text === "") return "empty";
  if (!(await caseState(clientId, taxYear))) return "no-such-case";
  await getDb().transaction(async (tx) => {
    await tx.insert(caseNotes).values({ clientId, taxYear, authorId: actor.id, body: text });
    // The note's text stays in the notes: the trail says only that one was added.
    await recordAudit({ actor, action: "note-added", clientId, taxYear, detail: "internal note", ip }, tx);
  });
  return "added";
}

/** The case's audit entries, newest first, with the actor's name (formatting is the page's). */
export async function caseActivityRows(clientId: string, taxYear: number, limit = 100) {
  return getDb()
    .select({
      id: auditLog.id,
      at: auditLog.at,
      action: auditLog.action,
      detail: auditLog.detail,
      actorName: user.name,
      actorEmail: auditLog.actorEmail,
      actorId: auditLog.actorId,
    })
    .from(auditLog)
    .leftJoin(user, eq(user.id, auditLog.actorId))
    .where(and(eq(auditLog.clientId, clientId), sql`(${auditLog.taxYear} = ${taxYear} or ${auditLog.taxYear} is null)`))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(limit);
}

