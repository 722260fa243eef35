import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import { clientCode, MAX_ASSIGN_AT_ONCE } from "~/domain/admin";
import type { StaffMember } from "~/domain/admin";
import { STAFF_ROLES } from "~/domain/policy";
import { currentStage, STAGE_KEYS } from "~/domain/workflow";
import type { StageKey, WorkflowFlags } from "~/domain/workflow";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { clientCases, user } from "~/server/db/schema";
import { deliverMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/db/client.server";
import { queueStageNotice } from "~/server/notices/notices.server";
import { clientsHiddenFrom, staffSeesClientSql } from "~/server/consents/outside-us.server";

// A case's workflow (its stage flags and assignee) as staff save it, one case from its page or
// several from the list. Staff only: callers sit under the admin layout.

export type WorkflowInput = { clientId: string; taxYear: number; flags: WorkflowFlags; stage: StageKey; assigneeId: string | null };

/**
 * Writes a case's flags, stage and assignee with the audit entry, in `tx` (the caller holds the
 * case's row locked). `because`: the event that ticked a flag, when one did.
 */
async function writeWorkflow(tx: Transaction, actor: { id: string; email: string } | null, input: WorkflowInput, ip: string, because?: string): Promise<void> {
  const done = Object.entries(input.flags)
    .filter(([, v]) => v)
    .map(([k]) => k);
  await tx
    .update(clientCases)
    .set({ ...input.flags, currentStage: input.stage, assigneeId: input.assigneeId, updatedBy: actor?.id ?? null, updatedAt: new Date() })
    .where(and(eq(clientCases.userId, input.clientId), eq(clientCases.taxYear, input.taxYear)));
  await recordAudit(
    {
      actor,
      action: "workflow-saved",
      clientId: input.clientId,
      taxYear: input.taxYear,
      detail: `stage ${input.stage}; completed: ${done.join(", ") || "none"}; assignee: ${input.assigneeId ?? "none"}${because ? `; ${because}` : ""}`,
      ip,
    },
    tx,
  );
}

/**
 * Ticks one stage's flag because an event of the case says it is done (the client's approval of
 * the draft, the IRS's acceptance, final copies released), in the event's own transaction `tx`:
 * the stage is computed again from the flags and stored with its audit entry, and when it moved,
 * the client's stage notice is queued there too. Nothing is written when the flag was already
 * ticked. Answers the outbox row to deliver once `tx` commits (null when none). `actor` is null
 * when nobody on the product's side acted (a payment Stripe confirmed).
 */
export async function completeStageInTx(
  tx: Transaction,
  actor: { id: string; email: string } | null,
  ref: { clientId: string; taxYear: number },
  stage: StageKey,
  ip: string,
  because: string,
): Promise<string | null> {
  const [row] = await tx
    .select()
    .from(clientCases)
    .where(and(eq(clientCases.userId, ref.clientId), eq(clientCases.taxYear, ref.taxYear)))
    .for("update");
  if (!row || row[stage]) return null;
  const flags = { ...(Object.fromEntries(STAGE_KEYS.map((k) => [k, row[k]])) as WorkflowFlags), [stage]: true };
  const next = currentStage(flags);
  await writeWorkflow(tx, actor, { ...ref, flags, stage: next, assigneeId: row.assigneeId }, ip, because);
  if (next === row.currentStage) return null;
  return (await queueStageNotice(tx, ref.clientId, ref.taxYear)).mailId;
}

/**
 * Stores a case's flags and assignee; the stage is recomputed from the flags. Answers the
 * stage before and after, so that a move can be told to the client (saveCaseWorkflow does).
 * Staff who work outside the United States find no case whose client's consent to disclose is
 * not in force, and cannot be made its new assignee ("not-disclosed").
 */
export async function saveWorkflow(
  actor: SessionUser,
  input: WorkflowInput,
  ip: string,
  /** Run in the save's transaction with the stage before (the stage notice is queued there). */
  withinSave?: (tx: Transaction, from: StageKey) => Promise<void>,
): Promise<{ outcome: "saved"; from: StageKey; to: StageKey } | { outcome: "no-such-case" | "no-such-staff" | "not-disclosed" }> {
  const db = getDb();
  const [theCase] = await db
    .select({ stage: clientCases.currentStage, assigneeId: clientCases.assigneeId })
    .from(clientCases)
    .where(and(eq(clientCases.userId, input.clientId), eq(clientCases.taxYear, input.taxYear), staffSeesClientSql(actor.id, clientCases.userId)));
  if (!theCase) return { outcome: "no-such-case" };
  let hidden = false;
  const from = await db.transaction(async (tx) => {
    if (input.assigneeId) {
      // Active staff, read under a lock: a deactivation (which unassigns their cases) cannot slip in between.
      const [staff] = await tx
        .select({ id: user.id })
        .from(user)
        .where(and(eq(user.id, input.assigneeId), inArray(user.role, [...STAFF_ROLES]), isNull(user.deactivatedAt)))
        .for("share");
      if (!staff) return null;
      // A new assignee who works outside the United States needs the client's consent to disclose.
      if (input.assigneeId !== theCase.assigneeId && (await clientsHiddenFrom(tx, input.assigneeId, [input.clientId])).length > 0) {
        hidden = true;
        return null;
      }
    }
    // The stage before, read under the row's lock: two saves at once each see the other's result.
    const [before] = await tx
      .select({ stage: clientCases.currentStage })
      .from(clientCases)
      .where(and(eq(clientCases.userId, input.clientId), eq(clientCases.taxYear, input.taxYear)))
      .for("update");
    await writeWorkflow(tx, actor, input, ip);
    const stageBefore = before?.stage ?? theCase.stage;
    await withinSave?.(tx, stageBefore);
    return stageBefore;
  });
  if (from === null) return { outcome: hidden ? "not-disclosed" : "no-such-staff" };
  return { outcome: "saved", from, to: input.stage };
}

/**
 * Saves a case's workflow (saveWorkflow) and, when its stage moved, tells the client unless they
 * turned stage e-mails off. `clientNotified`: whether the client was e-mailed about a move (false
 * when the stage did not move or they turned the e-mails off), from the one reading of their
 * preference that decided it.
 */
export async function saveCaseWorkflow(actor: SessionUser, input: WorkflowInput, ip: string) {
  let notice: { wanted: boolean; mailId: string | null } = { wanted: false, mailId: null };
  const saved = await saveWorkflow(actor, input, ip, async (tx, from) => {
    if (from !== input.stage) notice = await queueStageNotice(tx, input.clientId, input.taxYear);
  });
  if (saved.outcome !== "saved") return saved;
  deliverMail(notice.mailId);
  return { ...saved, clientNotified: notice.wanted };
}

/**
 * Assigns cases of one tax year to a staff member (null: to nobody), from the client list: one
 * row or the rows ticked. All or nothing, in one transaction with one audit entry per case:
 * refused when nothing is chosen, when more than MAX_ASSIGN_AT_ONCE are, when the staff member is
 * not active staff (read under a lock, so a deactivation cannot slip in between), when one of
 * the clients has no case of that year (or is one the acting staff member, working outside the
 * United States, may not see), or when the assignee works outside the United States and one of
 * the clients' consent to disclose is not in force ("not-disclosed").
 */
export async function assignCases(
  actor: SessionUser,
  input: { taxYear: number; clientIds: readonly string[]; assigneeId: string | null },
  ip: string,
): Promise<
  | { outcome: "assigned"; clients: Array<{ id: string; label: string }>; assignee: StaffMember | null }
  | { outcome: "nothing-selected" | "too-many" | "no-such-staff" | "not-this-year" }
  | { outcome: "not-disclosed"; assignee: StaffMember }
> {
  const ids = [...new Set(input.clientIds)];
  if (ids.length === 0) return { outcome: "nothing-selected" };
  if (ids.length > MAX_ASSIGN_AT_ONCE) return { outcome: "too-many" };
  return getDb().transaction(async (tx) => {
    let assignee: StaffMember | null = null;
    if (input.assigneeId !== null) {
      const [staff] = await tx
        .select({ id: user.id, name: user.name, email: user.email })
        .from(user)
        .where(and(eq(user.id, input.assigneeId), inArray(user.role, [...STAFF_ROLES]), isNull(user.deactivatedAt)))
        .for("share");
      if (!staff) return { outcome: "no-such-staff" as const };
      assignee = staff;
    }
    const cases = await tx
      .select({ clientId: clientCases.userId, number: clientCases.number, name: user.name })
      .from(clientCases)
      .innerJoin(user, eq(user.id, clientCases.userId))
      .where(and(eq(clientCases.taxYear, input.taxYear), inArray(clientCases.userId, ids), staffSeesClientSql(actor.id, clientCases.userId)))
      .orderBy(desc(clientCases.number))
      .for("update", { of: clientCases });
    if (cases.length !== ids.length) return { outcome: "not-this-year" as const };
    // An assignee who works outside the United States: only clients whose consent to disclose is in force.
    if (assignee && (await clientsHiddenFrom(tx, assignee.id, ids)).length > 0) return { outcome: "not-disclosed" as const, assignee };
    await tx
      .update(clientCases)
      .set({ assigneeId: assignee?.id ?? null, updatedBy: actor?.id ?? null, updatedAt: new Date() })
      .where(and(eq(clientCases.taxYear, input.taxYear), inArray(clientCases.userId, ids)));
    for (const { clientId } of cases)
      await recordAudit(
        {
          actor,
          action: "case-assigned",
          clientId,
          taxYear: input.taxYear,
          detail: `assignee: ${assignee?.id ?? "none"}${ids.length > 1 ? ` (${ids.length} cases at once)` : ""}`,
          ip,
        },
        tx,
      );
    const clients = cases.map((c) => ({ id: c.clientId, label: `${c.name} (${clientCode(c.number)})` }));
    return { outcome: "assigned" as const, clients, assignee };
  });
}
