import { data } from "react-router";
import type { MiddlewareFunction } from "react-router";
import { NO_STORE, staffContext } from "~/server/auth/session.server";
import { OUTSIDE_US_MESSAGES, staffMaySeeClient, worksOutsideUs } from "./outside-us.server";

/**
 * The staff routes (app/routes.ts patterns) that list many clients' data at once and that have
 * no per-client filter: refused to staff who work outside the United States.
 */
const CLOSED_TO_OUTSIDE_US = new Set(["/admin/audit", "/admin/payments", "/admin/payments.csv", "/admin/notices", "/admin/messages"]);

/**
 * The admin panel's second guard, after the policy's (session.server.ts requireStaff): for a staff
 * member who works outside the United States, every route of a client (its pattern has
 * :clientId: the case and its sections, the client's documents, uploads, return versions and
 * invoices) answers 403 unless that client's consent to disclose is in force, and the pages that
 * list many clients' records without a filter answer 403. Loaders and actions alike.
 */
export const requireConsentOutsideUs: MiddlewareFunction<Response> = async ({ context, params, pattern }) => {
  const staff = context.get(staffContext);
  const path = `/${pattern.replace(/^\/+/, "")}`;
  const clientId = params.clientId;
  if (clientId !== undefined) {
    if (clientId.includes("\u0000")) return;
    if (!(await staffMaySeeClient(staff.id, clientId))) throw data(OUTSIDE_US_MESSAGES.noConsent, { status: 403, headers: NO_STORE });
    return;
  }
  if (CLOSED_TO_OUTSIDE_US.has(path) && (await worksOutsideUs(staff.id)))
    throw data(OUTSIDE_US_MESSAGES.notForOutsideUs, { status: 403, headers: NO_STORE });
};

