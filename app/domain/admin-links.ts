/**
 * The staff panel's links that leave a page and come back: the case page and the documents
 * modal carry `back` (the client list's own URL with its search, filters, page and year, or a
 * case page) and return to it. Pure rules shared by the browser and the server.
 */

import { CASE_SECTIONS, caseSectionPath } from "./case-sections";
import type { CaseSectionKey } from "./case-sections";

export const DASHBOARD_PATH = "/admin/dashboard";

/** A case page: its overview or one of its sections (domain/case-sections.ts). */
const CASE_PAGE = new RegExp(
  `^/admin/clients/[^/?#\\\\]+/\\d{4}(?:/(?:${CASE_SECTIONS.map((s) => s.path).filter(Boolean).join("|")}))?(?:\\?|$)`,
);

/** No backslash or control character: nothing a browser could read as another place. */
function plain(raw: string): boolean {
  return raw.length <= 2000 && ![...raw].some((c) => c === "\\" || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
}

/**
 * Where the case page's "Back to clients" goes: `raw` when it is an address of the client list
 * (the panel's own page, nothing else: no other path, no other site), else the list's first page.
 */
export function dashboardReturn(raw: string | null | undefined): string {
  if (!raw || !plain(raw)) return DASHBOARD_PATH;
  return raw === DASHBOARD_PATH || raw.startsWith(`${DASHBOARD_PATH}?`) ? raw : DASHBOARD_PATH;
}

/**
 * Where the documents modal's Close goes: the client list (as dashboardReturn) or the case page
 * it was opened from.
 */
export function staffReturn(raw: string | null | undefined): string {
  if (raw && plain(raw) && CASE_PAGE.test(raw)) return raw;
  return dashboardReturn(raw);
}

/** The list's URL for `search` (the page's `location.search`, "" or "?…"). */
export function dashboardHref(search: string): string {
  return `${DASHBOARD_PATH}${search && search !== "?" ? search : ""}`;
}

/**
 * A client's case of one tax year (its overview, or `section`), remembering the list to come back
 * to (left out when it is the plain list).
 */
export function caseHref(
  clientId: string,
  taxYear: number,
  back: string = DASHBOARD_PATH,
  section: CaseSectionKey = "overview",
): string {
  const path = caseSectionPath(clientId, taxYear, section);
  return back === DASHBOARD_PATH ? path : `${path}?back=${encodeURIComponent(back)}`;
}

/** The Document Management modal of a client's case, remembering the page to come back to. */
export function documentsHref(clientId: string, taxYear: number, back: string): string {
  return `/admin/clients/${encodeURIComponent(clientId)}/documents?year=${taxYear}&back=${encodeURIComponent(back)}`;
}
