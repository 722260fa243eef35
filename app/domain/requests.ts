/**
 * Document requests: a case's checklist of what the firm needs from the client. Each item is
 * in one of these states:
 * - requested: the client owes it (outstanding);
 * - uploaded: the client sent files against it, staff have not looked yet;
 * - not-applicable / unavailable: the client answered "doesn't apply" or "can't get it", with a note;
 * - received: staff accepted it (done);
 * - returned: staff sent it back with a reason the client sees (outstanding again).
 */
export const REQUEST_STATES = ["requested", "uploaded", "not-applicable", "unavailable", "received", "returned"] as const;
export type RequestState = (typeof REQUEST_STATES)[number];

/** The states in which the client still owes the item: these count as outstanding and are reminded of. */
export const OUTSTANDING_STATES = ["requested", "returned"] as const satisfies readonly RequestState[];

export function isOutstanding(state: RequestState): boolean {
  return (OUTSTANDING_STATES as readonly RequestState[]).includes(state);
}
