import { eq } from "drizzle-orm";
import { newYorkDay } from "~/domain/business-days";
import { isDocumentId } from "~/domain/documents";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { invoices } from "~/server/db/schema";
import type { Transaction } from "~/server/mail/outbox.server";

// What the fee's functions share (docs/product/fees.md): the answer's shape, the days they
// compare dates with, an invoice read with its row locked, who counts as an administrator.

/** A refusal: what the person is told, and the HTTP status a route answers with; nothing was changed. */
export type FeeRefused = { ok: false; error: string; status: 400 | 403 | 404 };
export const feeRefused = (error: string, status: FeeRefused["status"] = 400): FeeRefused => ({ ok: false, error, status });

/**
 * Today, for the dates staff enter: a payment received "today" is accepted wherever in the
 * world it was received (the later of New York's and UTC's calendar day), and a due date of
 * today is accepted from the start of New York's day (the earlier of the two).
 */
export function latestToday(now = new Date()): string {
  const utc = now.toISOString().slice(0, 10);
  const ny = newYorkDay(now);
  return utc > ny ? utc : ny;
}
export function earliestToday(now = new Date()): string {
  const utc = now.toISOString().slice(0, 10);
  const ny = newYorkDay(now);
  return utc < ny ? utc : ny;
}

/** Whether a YYYY-MM-DD text is a real calendar day. */
export function isRealDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** The invoice `id` with its row locked for the transaction (null: no such invoice, or not an id). */
export async function lockInvoice(tx: Transaction, id: string) {
  if (!isDocumentId(id)) return null;
  const [row] = await tx.select().from(invoices).where(eq(invoices.id, id)).for("update");
  return row ?? null;
}

/** Voiding and refunding are an administrator's (docs/product/fees.md#who-may-do-what). */
export function isAdmin(actor: SessionUser): boolean {
  return actor.role === "admin";
}

/** The first message of a failed parse, or the fallback. */
export function firstMessage(error: { issues: ReadonlyArray<{ message: string }> }, fallback: string): string {
  return error.issues[0]?.message ?? fallback;
}
