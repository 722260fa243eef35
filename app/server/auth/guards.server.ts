import { isStaffRole } from "~/domain/policy";
import type { SessionUser } from "./session-lookup.server";

/**
 * Throws unless the actor is staff (an admin or a preparer): a guard inside functions that
 * only routes under the admin layout call. `what` ends the error's sentence: "Only staff may …".
 */
export function assertStaff(actor: SessionUser, what = "do this"): void {
  if (!isStaffRole(actor.role)) throw new Error(`Only staff may ${what}.`);
}

/**
 * Throws unless the actor is staff or the client whose case it is (`clientId`): staff act on any
 * case, a client only on their own. `what` is the act: "A client may … only to their own case."
 */
export function assertOwnCaseOrStaff(actor: SessionUser, clientId: string, what: string): void {
  if (!isStaffRole(actor.role) && actor.id !== clientId) throw new Error(`A client may ${what} only to their own case.`);
}
