import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { requestTemplate } from "~/content/request-templates";
import { RESIDENCY_TEMPLATE_ID, residencyTemplate } from "~/content/residency-template";
import { isDocumentCategory } from "~/domain/documents";
import type { DocumentCategoryKey } from "~/domain/documents";
import {
  ANSWERABLE_STATES,
  RECEIVABLE_STATES,
  RETURNABLE_STATES,
  UPLOADABLE_STATES,
  WITHDRAWABLE_STATES,
} from "~/domain/requests";
import type { ClientAnswer, ClientRequestView, RequestFile, RequestState, StaffRequestView } from "~/domain/requests";
import { logError } from "~/log";
import { recordAudit } from "~/server/audit/audit.server";
import type { AuditAction } from "~/server/audit/audit.server";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import type { Database, Transaction } from "~/server/db/client.server";
import { clientCases, documentRequests, documents, profiles, taxpayerRecords, user } from "~/server/db/schema";
import { visibleToClient } from "~/server/documents/visibility.server";
import { storedResidency } from "~/server/residency/outcome.server";
import { deliverMail, enqueueMail } from "~/server/mail/outbox.server";
import { filingUrl, notifyStaff } from "~/server/notices/notices.server";

// A case's checklist of what the firm needs from the client (domain/requests.ts). Every query
// names the case it is about: the acting client's own id, or a case staff chose (callers under
// the admin layout). No item is ever read or changed by its id alone. Each change and its audit
// entry are one transaction; a state change is one conditional UPDATE, so two people acting at
// once cannot both move the same item. The e-mails are queued in the change's transaction, sent once
// it is stored, and never undo it.

type Case = { clientId: string; taxYear: number };

const ofCase = (c: Case) => and(eq(documentRequests.clientId, c.clientId), eq(documentRequests.taxYear, c.taxYear));


/** `"Form W-2"`: how the audit trail names an item. */
const quoted = (title: string) => `"${title}"`;

/**
 * Queues, in the change's transaction, the e-mail telling the client about their case (a client
 * account only): its outbox row's id, for deliverMail once the change commits (ADR 0023).
 */
async function queueClientNotice(
  tx: Transaction,
  c: Case,
  notice: { kind: "requests-added"; count: number } | { kind: "request-returned" },
): Promise<string | null> {
  const [client] = await tx
    .select({ email: user.email, name: user.name })
    .from(user)
    .where(and(eq(user.id, c.clientId), eq(user.role, "user")));
  if (!client) return null;
  const base = { name: client.name, taxYear: c.taxYear, url: filingUrl(c.taxYear) };
  return enqueueMail(
    notice.kind === "requests-added"
      ? { kind: "requests-added", to: client.email, payload: { ...base, count: notice.count } }
      : { kind: "request-returned", to: client.email, payload: base },
    tx,
  );
}

// --- reading -----------------------------------------------------------------------------------

const itemColumns = {
  id: documentRequests.id,
  title: documentRequests.title,
  detail: documentRequests.detail,
  category: documentRequests.category,
  state: documentRequests.state,
  clientNote: documentRequests.clientNote,
  returnReason: documentRequests.returnReason,
  answeredAt: documentRequests.answeredAt,
};

type ItemRow = {
  id: string;
  title: string;
  detail: string;
  category: string;
  state: RequestState;
  clientNote: string;
  returnReason: string;
  answeredAt: Date | null;
};

function clientView(row: ItemRow, files: RequestFile[]): ClientRequestView {
  return {
    id: row.id,
    title: row.title,
    detail: row.detail,
    category: isDocumentCategory(row.category) ? row.category : "other-documents",
    state: row.state,
    clientNote: row.clientNote,
    // A reason is the client's to read only while the item stands returned.
    returnReason: row.state === "returned" ? row.returnReason : "",
    answeredAt: row.answeredAt?.toISOString() ?? null,
    files,
  };
}

type FileJson = { id: string; name: string; size: number; uploadedAt: string };

/**
 * The files uploaded against an item, oldest first, as a JSON column of the item's row (the list
 * and its files in one query). `clientOnly`: only what the client may see of them (their own
 * uploads, and staff's once shared). The item is named in full ("document_requests"."id"): drizzle
 * writes a one-table select's columns without their table; the files' own columns (and
 * visibleToClient's) are the inner query's.
 */
function filesOfItem(c: Case, clientOnly: boolean): SQL<FileJson[]> {
  return sql<FileJson[]>`coalesce((select json_agg(json_build_object(
      'id', ${documents.id}, 'name', ${documents.originalName}, 'size', ${documents.size}, 'uploadedAt', ${documents.createdAt})
      order by ${documents.createdAt}, ${documents.id})
    from ${documents}
    where ${and(eq(documents.clientId, c.clientId), eq(documents.taxYear, c.taxYear), clientOnly ? visibleToClient() : undefined)}
      and ${documents.requestId} = "document_requests"."id"), '[]'::json)`;
}

const filesOf = (files: FileJson[]): RequestFile[] => files.map((f) => ({ ...f, uploadedAt: new Date(f.uploadedAt).toISOString() }));

/** The acting client's own items of a tax year, in the list's order, each with its files. */
export async function listOwnRequests(userId: string, taxYear: number): Promise<ClientRequestView[]> {
  const c = { clientId: userId, taxYear };
  const rows = await getDb()
    .select({ ...itemColumns, files: filesOfItem(c, true) })
    .from(documentRequests)
    .where(ofCase(c))
    .orderBy(asc(documentRequests.position), asc(documentRequests.createdAt));
  return rows.map((r) => clientView(r, filesOf(r.files)));
}

/** A case's items for its page in the panel: as the client sees them, and who reviewed each. */
export async function listCaseRequests(actor: SessionUser, clientId: string, taxYear: number): Promise<StaffRequestView[]> {
  assertStaff(actor, "change a case's requested items");
  const c = { clientId, taxYear };
  const rows = await getDb()
    .select({
      ...itemColumns,
      template: documentRequests.template,
      createdAt: documentRequests.createdAt,
      reviewedAt: documentRequests.reviewedAt,
      reviewerName: user.name,
      files: filesOfItem(c, false),
    })
    .from(documentRequests)
    .leftJoin(user, eq(user.id, documentRequests.reviewedBy))
    .where(ofCase(c))
    .orderBy(asc(documentRequests.position), asc(documentRequests.createdAt));
  return rows.map((r) => {
    const own = filesOf(r.files);
    return {
      ...clientView(r, own),
      // Staff read the reason they gave even after the client answered again.
      returnReason: r.returnReason,
      template: r.template,
      createdAt: r.createdAt.toISOString(),
      reviewedBy: r.reviewedAt === null ? null : (r.reviewerName ?? "A former staff member"),
      reviewedAt: r.reviewedAt?.toISOString() ?? null,
      removable: r.state === "requested" && r.answeredAt === null && own.length === 0,
    };
  });
}

/**
 * The client's visa as far as it is known, for the templates staff are offered first: the
 * year's taxpayer information, and the sign-up profile.
 */
export async function caseVisa(clientId: string, taxYear: number): Promise<{ status: string | null; type: string | null }> {
  const [profile] = await getDb().select({ status: profiles.visaStatus }).from(profiles).where(eq(profiles.id, clientId));
  const [record] = await getDb()
    .select({ type: taxpayerRecords.visa_type })
    .from(taxpayerRecords)
    .where(and(eq(taxpayerRecords.userId, clientId), eq(taxpayerRecords.taxYear, taxYear)));
  return { status: profile?.status ?? null, type: record?.type ?? null };
}


/** Why a conditional change did not happen: the item is not (or no longer) in the case, or it is in another state. */
async function missOutcome(c: Case, requestId: string): Promise<"no-such-item" | "item-changed"> {
  const [row] = await getDb()
    .select({ id: documentRequests.id })
    .from(documentRequests)
    .where(and(ofCase(c), eq(documentRequests.id, requestId)));
  return row ? "item-changed" : "no-such-item";
}

// --- the client --------------------------------------------------------------------------------

export type ClientRequestOutcome = "done" | "no-such-item" | "item-changed";

/**
 * Moves one item of the case from one of the states `from` to what `set` says, in one
 * conditional update (a stale second click finds it in another state and changes nothing), and
 * writes its audit entry in the same transaction. False when nothing moved.
 */
async function moveItem(
  actor: SessionUser,
  c: Case,
  requestId: string,
  move: { from: readonly RequestState[]; set: PgUpdateSetSource<typeof documentRequests> },
  audit: { action: AuditAction; detail?: (title: string) => string },
  ip: string,
  /** Run in the move's transaction once the item moved (its e-mail is queued there). */
  withinMove?: (tx: Transaction) => Promise<void>,
): Promise<boolean> {
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .update(documentRequests)
      .set({ ...move.set, updatedAt: new Date() })
      .where(and(ofCase(c), eq(documentRequests.id, requestId), inArray(documentRequests.state, [...move.from])))
      .returning({ title: documentRequests.title });
    if (!row) return false;
    const detail = audit.detail ? audit.detail(row.title) : quoted(row.title);
    await recordAudit({ actor, action: audit.action, clientId: c.clientId, taxYear: c.taxYear, detail, ip }, tx);
    await withinMove?.(tx);
    return true;
  });
}

/**
 * The acting client answers one of their own items "doesn't apply" or "can't get it", with a
 * note: only while it is requested or returned. The case's staff are told (a link, no text).
 */
export async function answerRequest(
  actor: SessionUser,
  input: { taxYear: number; requestId: string; answer: ClientAnswer; note: string },
  ip: string,
): Promise<ClientRequestOutcome> {
  const c = { clientId: actor.id, taxYear: input.taxYear };
  const changed = await moveItem(
    actor,
    c,
    input.requestId,
    {
      from: ANSWERABLE_STATES,
      set: { state: input.answer, clientNote: input.note, answeredAt: new Date(), outstandingSince: null },
    },
    {
      action: "request-answered",
      detail: (title) => `${quoted(title)} (${input.answer === "not-applicable" ? "doesn't apply" : "can't get it"})`,
    },
    ip,
  );
  if (!changed) return missOutcome(c, input.requestId);
  try {
    await notifyStaff(c.clientId, c.taxYear, "request-answered");
  } catch (error) {
    logError("requests", "could not tell staff about an answer", error);
  }
  return "done";
}

/**
 * The acting client takes back "doesn't apply" or "can't get it" before staff reviewed it: the
 * item is needed again (returned again, with its reason, when staff had returned it before).
 */
export async function withdrawAnswer(
  actor: SessionUser,
  input: { taxYear: number; requestId: string },
  ip: string,
): Promise<ClientRequestOutcome> {
  const c = { clientId: actor.id, taxYear: input.taxYear };
  const changed = await moveItem(
    actor,
    c,
    input.requestId,
    {
      from: WITHDRAWABLE_STATES,
      set: {
        state: sql`case when ${documentRequests.returnReason} <> '' then 'returned' else 'requested' end`,
        clientNote: "",
        answeredAt: null,
        outstandingSince: new Date(),
      },
    },
    { action: "request-answer-withdrawn" },
    ip,
  );
  return changed ? "done" : missOutcome(c, input.requestId);
}

export type UploadTarget = { id: string; category: DocumentCategoryKey };

/**
 * The acting client's own item of the year that files may be uploaded against: "no-such-item"
 * when it is not one of theirs (whoever else has it), "received" once staff accepted it.
 */
export async function requestForUpload(
  userId: string,
  taxYear: number,
  requestId: string,
): Promise<UploadTarget | "no-such-item" | "received"> {
  const [row] = await getDb()
    .select({ id: documentRequests.id, category: documentRequests.category, state: documentRequests.state })
    .from(documentRequests)
    .where(and(ofCase({ clientId: userId, taxYear }), eq(documentRequests.id, requestId)));
  if (!row) return "no-such-item";
  if (!(UPLOADABLE_STATES as readonly RequestState[]).includes(row.state)) return "received";
  return { id: row.id, category: isDocumentCategory(row.category) ? row.category : "other-documents" };
}

/**
 * After the acting client's files were recorded against one of their items: the item is
 * uploaded (waiting for staff's review), unless staff accepted it in the meantime.
 */
export async function markRequestUploaded(
  actor: SessionUser,
  input: { taxYear: number; requestId: string; files: number },
  ip: string,
): Promise<boolean> {
  return moveItem(
    actor,
    { clientId: actor.id, taxYear: input.taxYear },
    input.requestId,
    {
      from: UPLOADABLE_STATES,
      set: { state: "uploaded", clientNote: "", answeredAt: new Date(), outstandingSince: null },
    },
    {
      action: "request-answered",
      detail: (title) => `${quoted(title)} (${input.files === 1 ? "1 file uploaded" : `${input.files} files uploaded`})`,
    },
    ip,
  );
}

/**
 * After documents were removed: an item left "uploaded" with no file against it any more is
 * needed again (returned again when staff had returned it before). The removal is audited;
 * this follows from it.
 */
export async function reopenEmptiedRequests(c: Case, requestIds: readonly string[]): Promise<void> {
  const ids = [...new Set(requestIds)];
  if (ids.length === 0) return;
  await getDb()
    .update(documentRequests)
    .set({
      state: sql`case when ${documentRequests.returnReason} <> '' then 'returned' else 'requested' end`,
      answeredAt: null,
      outstandingSince: new Date(),
      updatedAt: new Date(),
    })
    .where(
      and(
        ofCase(c),
        inArray(documentRequests.id, ids),
        eq(documentRequests.state, "uploaded"),
        sql`not exists (select 1 from ${documents} where ${documents.requestId} = ${documentRequests.id})`,
      ),
    );
}

// --- staff -------------------------------------------------------------------------------------

/** Locks the case for the transaction (two staff adding at once cannot both add a title); false when there is no such case. */
async function lockCase(tx: Pick<Database, "select">, c: Case): Promise<boolean> {
  const [row] = await tx
    .select({ year: clientCases.taxYear })
    .from(clientCases)
    .where(and(eq(clientCases.userId, c.clientId), eq(clientCases.taxYear, c.taxYear)))
    .for("update");
  return row !== undefined;
}

const titleKey = (title: string) => title.trim().replace(/\s+/g, " ").toLowerCase();

export type AddTemplateOutcome = { outcome: "added"; count: number } | { outcome: "nothing" | "no-such-case" | "no-such-template" };

/**
 * Adds a template's items to the case, after those already there, leaving out each whose title
 * is on the list already (a template added twice adds nothing the second time). One audit entry
 * and one e-mail to the client for the whole template.
 */
export async function addTemplateItems(
  actor: SessionUser,
  c: Case,
  templateId: string,
  ip: string,
): Promise<AddTemplateOutcome> {
  assertStaff(actor, "change a case's requested items");
  const template =
    templateId === RESIDENCY_TEMPLATE_ID ? residencyTemplate((await storedResidency(c.clientId, c.taxYear)).outcome, c.taxYear) : requestTemplate(templateId);
  if (!template) return { outcome: "no-such-template" };
  let notice: string | null = null;
  const result = await getDb().transaction(async (tx): Promise<AddTemplateOutcome> => {
    if (!(await lockCase(tx, c))) return { outcome: "no-such-case" };
    const existing = await tx
      .select({ title: documentRequests.title, position: documentRequests.position })
      .from(documentRequests)
      .where(ofCase(c));
    const taken = new Set(existing.map((e) => titleKey(e.title)));
    const fresh = template.items.filter((item) => !taken.has(titleKey(item.title)));
    if (fresh.length === 0) return { outcome: "nothing" };
    const start = Math.max(0, ...existing.map((e) => e.position)) + 1;
    await tx.insert(documentRequests).values(
      fresh.map((item, i) => ({
        clientId: c.clientId,
        taxYear: c.taxYear,
        position: start + i,
        title: item.title,
        detail: item.detail,
        category: item.category,
        template: template.id,
        createdBy: actor.id,
      })),
    );
    await recordAudit(
      {
        actor,
        action: "request-added",
        clientId: c.clientId,
        taxYear: c.taxYear,
        detail: `${fresh.length === 1 ? "1 item" : `${fresh.length} items`} from the template ${quoted(template.label)}`,
        ip,
      },
      tx,
    );
    notice = await queueClientNotice(tx, c, { kind: "requests-added", count: fresh.length });
    return { outcome: "added", count: fresh.length };
  });
  deliverMail(notice);
  return result;
}

/** Adds one item staff wrote, at the end of the list; refused when its title is on the list already. */
export async function addRequestItem(
  actor: SessionUser,
  c: Case,
  input: { title: string; detail: string; category: DocumentCategoryKey },
  ip: string,
): Promise<"added" | "title-exists" | "no-such-case"> {
  assertStaff(actor, "change a case's requested items");
  let notice: string | null = null;
  const outcome = await getDb().transaction(async (tx) => {
    if (!(await lockCase(tx, c))) return "no-such-case" as const;
    const existing = await tx
      .select({ title: documentRequests.title, position: documentRequests.position })
      .from(documentRequests)
      .where(ofCase(c));
    if (existing.some((e) => titleKey(e.title) === titleKey(input.title))) return "title-exists" as const;
    await tx.insert(documentRequests).values({
      clientId: c.clientId,
      taxYear: c.taxYear,
      position: Math.max(0, ...existing.map((e) => e.position)) + 1,
      title: input.title,
      detail: input.detail,
      category: input.category,
      createdBy: actor.id,
    });
    await recordAudit(
      { actor, action: "request-added", clientId: c.clientId, taxYear: c.taxYear, detail: quoted(input.title), ip },
      tx,
    );
    notice = await queueClientNotice(tx, c, { kind: "requests-added", count: 1 });
    return "added" as const;
  });
  deliverMail(notice);
  return outcome;
}

export type StaffRequestOutcome = "done" | "no-such-item" | "item-changed";

/** Staff accept an item: from any state but received (a file may also have come another way). */
export async function receiveRequest(actor: SessionUser, c: Case, requestId: string, ip: string): Promise<StaffRequestOutcome> {
  assertStaff(actor, "change a case's requested items");
  const changed = await moveItem(
    actor,
    c,
    requestId,
    {
      from: RECEIVABLE_STATES,
      set: { state: "received", returnReason: "", reviewedBy: actor.id, reviewedAt: new Date(), outstandingSince: null },
    },
    { action: "request-received" },
    ip,
  );
  return changed ? "done" : missOutcome(c, requestId);
}

/**
 * Staff send an item back with a reason the client reads: once the client answered it, or
 * after it was received. It is outstanding again, and the client is e-mailed (a link only).
 */
export async function returnRequest(
  actor: SessionUser,
  c: Case,
  input: { requestId: string; reason: string },
  ip: string,
): Promise<StaffRequestOutcome> {
  assertStaff(actor, "change a case's requested items");
  let notice: string | null = null;
  const changed = await moveItem(
    actor,
    c,
    input.requestId,
    {
      from: RETURNABLE_STATES,
      set: {
        state: "returned",
        returnReason: input.reason,
        reviewedBy: actor.id,
        reviewedAt: new Date(),
        outstandingSince: new Date(),
      },
    },
    { action: "request-returned" },
    ip,
    async (tx) => {
      notice = await queueClientNotice(tx, c, { kind: "request-returned" });
    },
  );
  deliverMail(notice);
  if (!changed) return missOutcome(c, input.requestId);
  return "done";
}

/** Staff take an item off the list: only one the client never answered and uploaded nothing against. */
export async function removeRequest(
  actor: SessionUser,
  c: Case,
  requestId: string,
  ip: string,
): Promise<"done" | "no-such-item" | "not-removable"> {
  assertStaff(actor, "change a case's requested items");
  const removed = await getDb().transaction(async (tx) => {
    const [row] = await tx
      .delete(documentRequests)
      .where(
        and(
          ofCase(c),
          eq(documentRequests.id, requestId),
          eq(documentRequests.state, "requested"),
          sql`${documentRequests.answeredAt} is null`,
          sql`not exists (select 1 from ${documents} where ${documents.requestId} = ${documentRequests.id})`,
        ),
      )
      .returning({ title: documentRequests.title });
    if (!row) return false;
    await recordAudit(
      { actor, action: "request-removed", clientId: c.clientId, taxYear: c.taxYear, detail: quoted(row.title), ip },
      tx,
    );
    return true;
  });
  if (removed) return "done";
  return (await missOutcome(c, requestId)) === "no-such-item" ? "no-such-item" : "not-removable";
}
