import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, notInArray, sql } from "drizzle-orm";
import { newYorkDay } from "~/domain/business-days";
import { isStaffRole } from "~/domain/policy";
import { blankPerson, countHistory, countsText, parseCaseFacts, parseFindings, parseHistoryInput, RESIDENCY_FORM_MESSAGES } from "~/domain/residency/forms";
import type { PersonInput } from "~/domain/residency/forms";
import type { IsoDay, StaffFindings } from "~/domain/residency/history";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { clientCases, residencyFindings, residencyPeople, residencyPeriods, residencyStays, user } from "~/server/db/schema";
import { historyRows, lockClient, mayActFor, personKey, recomputeResidency, refusedWith } from "./outcome.server";
import type { ResidencyResult } from "./outcome.server";

// A client's immigration history (docs/product/residency.md#the-history): the people of their
// household with their status periods and stays, across years. The client reads and changes their
// own; staff read and change any client's, and alone record findings. Every change is one
// transaction with its audit entry and the new residency of each of the client's cases
// (outcome.server.ts). Every query names the client.

const M = RESIDENCY_FORM_MESSAGES;

export type { ResidencyResult } from "./outcome.server";

/** A person as a page shows them: what the history input holds, their id once saved, and (staff only) staff's findings by tax year. */
export type PersonView = PersonInput & {
  /** Null for the client shown before any history was saved. */
  id: string | null;
  /** Staff's findings by tax year; null when a client reads their own history. */
  findings: Record<number, StaffFindings> | null;
};

export type HistoryView = {
  clientId: string;
  /** In the client's order; the client is always there (an empty one named after the account before anything is saved). */
  people: PersonView[];
  /** When the history was last saved (null: never). */
  savedAt: string | null;
};

/**
 * The client's history with every person's periods (oldest first) and stays (oldest first). Null
 * when `clientId` is no client, or not the actor's own (a client reads only their own).
 */
export async function readHistory(actor: SessionUser, clientId: string): Promise<HistoryView | null> {
  if (!mayActFor(actor, clientId)) return null;
  const db = getDb();
  const [account] = await db
    .select({ name: user.name })
    .from(user)
    .where(and(eq(user.id, clientId), eq(user.role, "user")));
  if (!account) return null;
  const rows = await historyRows(db, clientId);
  const staff = isStaffRole(actor.role);
  const people: PersonView[] = rows.people.map((p) => ({
    id: p.id,
    key: personKey(p),
    role: p.role,
    name: p.name,
    relation: p.relation,
    dateOfBirth: p.dateOfBirth,
    citizenship: p.citizenship,
    taxResidence: p.taxResidence,
    ownStays: p.role === "client" ? true : p.ownStays,
    greenCardSteps: p.greenCardSteps,
    itin: p.itinIssuedYear === null ? null : { issuedYear: p.itinIssuedYear, lastUsedYear: p.itinLastUsedYear },
    ficaWithheld: p.ficaWithheld,
    school: p.school,
    sponsor: p.sponsor,
    periods: rows.periods.filter((r) => r.personId === p.id).map((r) => ({ status: r.status, category: r.category, from: r.fromDay, to: r.toDay })),
    stays: rows.stays.filter((s) => s.personId === p.id).map((s) => ({ arrival: s.arrival, departure: s.departure, transit: s.transit, source: s.source })),
    findings: staff
      ? Object.fromEntries(
          rows.findings
            .filter((f) => f.personId === p.id)
            .map((f) => [f.taxYear, { studentException: f.studentException, deMinimis: f.deMinimis, abroadAfterLeaving: f.abroadAfterLeaving }]),
        )
      : null,
  }));
  if (!people.some((p) => p.role === "client")) people.unshift(emptyClient(account.name, staff));
  const saved = rows.people.map((p) => p.updatedAt.getTime());
  return { clientId, people, savedAt: saved.length > 0 ? new Date(Math.max(...saved)).toISOString() : null };
}

function emptyClient(name: string, staff: boolean): PersonView {
  return { id: null, ...blankPerson("client", "client", name), findings: staff ? {} : null };
}

/** A person's columns from what was posted. */
function personColumns(person: PersonInput, position: number) {
  return {
    role: person.role,
    name: person.name,
    relation: person.relation,
    dateOfBirth: person.dateOfBirth,
    citizenship: person.citizenship,
    taxResidence: person.taxResidence,
    ownStays: person.ownStays,
    greenCardSteps: person.greenCardSteps,
    itinIssuedYear: person.itin?.issuedYear ?? null,
    itinLastUsedYear: person.itin?.lastUsedYear ?? null,
    ficaWithheld: person.ficaWithheld,
    school: person.school,
    sponsor: person.sponsor,
    position,
  };
}

/**
 * Saves the client's whole history (`posted`: the page's JSON field, or what it parses to): checked
 * first (parseHistoryInput; nothing changes when any field is wrong), then in one transaction the
 * client's people, periods and stays are replaced by the posted ones. A person who keeps their key
 * ("client", "spouse", a dependant's id) keeps their id, and staff's findings with it; people left
 * out are removed with their findings. Audited ("residency-history-changed", counts only), and the
 * residency of every case of the client is computed again.
 */
export async function saveHistory(
  actor: SessionUser,
  clientId: string,
  posted: unknown,
  ip: string,
  today: IsoDay = newYorkDay(),
): Promise<ResidencyResult> {
  if (!mayActFor(actor, clientId)) return refusedWith(M.notYours, 403);
  const parsed = parseHistoryInput(posted, today);
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  const history = parsed.value;
  return getDb().transaction(async (tx) => {
    if (!(await lockClient(tx, clientId))) return refusedWith(M.noSuchClient, 404);
    const before = await historyRows(tx, clientId);
    const existing = new Map(before.people.map((p) => [personKey(p), p]));
    const people = history.people.map((person, position) => {
      const kept = existing.get(person.key);
      return { person, position, id: kept && kept.role === person.role ? kept.id : null };
    });
    const keptIds = people.flatMap((p) => (p.id === null ? [] : [p.id]));
    // People no longer listed go, with their periods, stays and findings (cascade); the others' periods and stays are written anew.
    await tx
      .delete(residencyPeople)
      .where(and(eq(residencyPeople.clientId, clientId), keptIds.length > 0 ? notInArray(residencyPeople.id, keptIds) : undefined));
    if (keptIds.length > 0) {
      await tx.delete(residencyPeriods).where(inArray(residencyPeriods.personId, keptIds));
      await tx.delete(residencyStays).where(inArray(residencyStays.personId, keptIds));
    }
    for (const p of people) {
      if (p.id !== null)
        await tx
          .update(residencyPeople)
          .set({ ...personColumns(p.person, p.position), updatedAt: sql`now()` })
          .where(and(eq(residencyPeople.id, p.id), eq(residencyPeople.clientId, clientId)));
    }
    const added = people.filter((p) => p.id === null).map((p) => ({ ...p, id: randomUUID() }));
    if (added.length > 0) await tx.insert(residencyPeople).values(added.map((p) => ({ id: p.id, clientId, ...personColumns(p.person, p.position) })));
    const all = [...people.filter((p) => p.id !== null), ...added] as Array<{ person: PersonInput; id: string }>;
    const periods = all.flatMap(({ person, id }) => person.periods.map((r) => ({ personId: id, status: r.status, category: r.category, fromDay: r.from, toDay: r.to })));
    const stays = all.flatMap(({ person, id }) =>
      person.stays.map((s) => ({ personId: id, arrival: s.arrival, departure: s.departure, transit: s.transit, source: s.source })),
    );
    if (periods.length > 0) await tx.insert(residencyPeriods).values(periods);
    if (stays.length > 0) await tx.insert(residencyStays).values(stays);
    const was = {
      people: before.people.length,
      periods: before.periods.length,
      stays: before.stays.length,
      fromI94: before.stays.filter((s) => s.source === "i94").length,
    };
    await recordAudit(
      { actor, action: "residency-history-changed", clientId, detail: `${countsText(countHistory(history))}; was ${countsText(was)}`, ip },
      tx,
    );
    await recomputeResidency(tx, clientId, { today });
    return { ok: true as const };
  });
}

const ROLE_WORDS = { client: "the client", spouse: "the spouse", dependant: "a dependant" } as const;
const yesNo = (v: boolean) => (v ? "yes" : "no");

/**
 * Staff record their findings for a person of the client's history (by key: "client", "spouse" or
 * a dependant's id) and a tax year. Audited ("residency-findings-saved"); every case's residency is
 * computed again (a student's exception counts toward later years too).
 */
export async function saveFindings(
  staff: SessionUser,
  clientId: string,
  key: string,
  taxYear: number,
  findings: unknown,
  ip: string,
  today: IsoDay = newYorkDay(),
): Promise<ResidencyResult> {
  if (!isStaffRole(staff.role)) return refusedWith(M.staffOnly, 403);
  if (!Number.isInteger(taxYear) || taxYear < 1950 || taxYear > Number(today.slice(0, 4))) return refusedWith(M.taxYearInvalid, undefined, "taxYear");
  const parsed = parseFindings(findings);
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  const found = parsed.value;
  return getDb().transaction(async (tx) => {
    if (!(await lockClient(tx, clientId))) return refusedWith(M.noSuchClient, 404);
    const people = await tx
      .select({ id: residencyPeople.id, role: residencyPeople.role })
      .from(residencyPeople)
      .where(eq(residencyPeople.clientId, clientId));
    const person = people.find((p) => personKey(p) === key);
    if (!person) return refusedWith(M.noSuchPerson, 404);
    const values = { ...found, recordedBy: staff.id, recordedAt: sql`now()` };
    await tx
      .insert(residencyFindings)
      .values({ personId: person.id, taxYear, ...values })
      .onConflictDoUpdate({ target: [residencyFindings.personId, residencyFindings.taxYear], set: values });
    await recordAudit(
      {
        actor: staff,
        action: "residency-findings-saved",
        clientId,
        taxYear,
        detail: `${ROLE_WORDS[person.role]}, ${taxYear}: student exception ${yesNo(found.studentException)}, de minimis ${yesNo(found.deMinimis)}, abroad after leaving ${yesNo(found.abroadAfterLeaving)}`,
        ip,
      },
      tx,
    );
    await recomputeResidency(tx, clientId, { today });
    return { ok: true as const };
  });
}

/**
 * The facts of a case the residency flags need: the client's highest combined foreign balance in
 * the tax year (integer cents, null: none) and whether they file jointly. The client for their own
 * case, or staff. Audited ("residency-facts-changed", never the amount); that case's residency is
 * computed again.
 */
export async function setCaseFacts(
  actor: SessionUser,
  clientId: string,
  taxYear: number,
  facts: unknown,
  ip: string,
  today: IsoDay = newYorkDay(),
): Promise<ResidencyResult> {
  if (!mayActFor(actor, clientId)) return refusedWith(M.notYours, 403);
  const parsed = parseCaseFacts(facts);
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  const { foreignAccountsHighestCents, filesJointly } = parsed.value;
  if (!Number.isInteger(taxYear)) return refusedWith(M.noSuchCase, 404);
  return getDb().transaction(async (tx) => {
    if (!(await lockClient(tx, clientId))) return refusedWith(M.noSuchClient, 404);
    const updated = await tx
      .update(clientCases)
      .set({ foreignAccountsHighestCents, filesJointly })
      .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)))
      .returning({ taxYear: clientCases.taxYear });
    if (updated.length === 0) return refusedWith(M.noSuchCase, 404);
    await recordAudit(
      {
        actor,
        action: "residency-facts-changed",
        clientId,
        taxYear,
        detail: `${foreignAccountsHighestCents === null ? "no foreign accounts" : "foreign accounts recorded"}, ${filesJointly ? "filing jointly" : "not filing jointly"}`,
        ip,
      },
      tx,
    );
    await recomputeResidency(tx, clientId, { today, onlyYear: taxYear });
    return { ok: true as const };
  });
}

/** The client's own cases' facts, newest tax year first: each year's highest balance outside the US and whether they file jointly. */
export async function ownCaseFacts(clientId: string): Promise<Array<{ taxYear: number; foreignAccountsHighestCents: number | null; filesJointly: boolean }>> {
  return getDb()
    .select({ taxYear: clientCases.taxYear, foreignAccountsHighestCents: clientCases.foreignAccountsHighestCents, filesJointly: clientCases.filesJointly })
    .from(clientCases)
    .where(eq(clientCases.userId, clientId))
    .orderBy(desc(clientCases.taxYear));
}
