import { eq } from "drizzle-orm";
import { isDocumentId } from "~/domain/documents";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { invoices } from "~/server/db/schema";
import type { Transaction } from "~/server/db/client.server";

// What the fee's functions share (docs/product/fees.md): the answer's shape, an invoice read
// with its row locked, who counts as an administrator.

export { refused as feeRefused } from "~/domain/validation";
export type { Refused as FeeRefused } from "~/domain/validation";

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
