import { Form, Link, useNavigate } from "react-router";
import { useFollowingState } from "~/components/hooks";
import { Select } from "~/components/portal/select-field";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { AUDIT_ACTIONS, AUDIT_PAGE_SIZE, auditHref } from "~/domain/audit";
import type { AuditQuery } from "~/domain/audit";
import { ClientSearchInput } from "./client-search-input";
import { formatUsDateTime, plural } from "./format";
import { Pagination } from "./pagination";

export type AuditEntry = {
  id: number;
  /** ISO timestamp. */
  at: string;
  actorId: string | null;
  /** The actor's name now (null for nobody, or an account that is gone). */
  actorName: string | null;
  actorEmail: string | null;
  action: string;
  clientId: string | null;
  clientLabel: string | null;
  /** In words, people by name. */
  detail: string | null;
  ipAddress: string | null;
};

export type AuditPageData = {
  query: AuditQuery;
  /** What the URL asked for that the page could not use, in words. */
  problems: readonly string[];
  /** How many clients the client search finds (null without a search). */
  matchingClients: number | null;
  /** Entries the filters find, counted up to the deepest page's last. */
  matching: number;
  /** Whether the filters find more entries than the pages reach. */
  more: boolean;
  pageCount: number;
  /** The actor filter's choices. */
  actors: ReadonlyArray<{ value: string; label: string }>;
  entries: readonly AuditEntry[];
};

const th =
  "px-4 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-ink-soft uppercase";
const td = "px-4 py-3 align-top";

/** "Showing 51-100 of 230 entries". */
function showing(page: number, matching: number, more: boolean): string {
  if (matching === 0) return "";
  const from = (page - 1) * AUDIT_PAGE_SIZE + 1;
  const to = Math.min(page * AUDIT_PAGE_SIZE, matching);
  const of = more
    ? `more than ${matching.toLocaleString("en-US")} entries (narrow the filters to reach older ones)`
    : plural(matching, "entry", "entries");
  return `Showing ${from}-${to} of ${of}.`;
}

function Actor({ e }: { e: AuditEntry }) {
  if (e.actorId === null && e.actorEmail === null) return <>System</>;
  return (
    <>
      <span className="block">{e.actorName ?? e.actorEmail ?? "A removed account"}</span>
      {e.actorName && e.actorEmail ? <span className="block text-xs break-all text-ink-muted">{e.actorEmail}</span> : null}
    </>
  );
}

/**
 * The audit log (who opened or changed what), a page at a time, with filters kept in the URL: the
 * client list's search (one field serves ten clients or ten thousand), who acted and the kind of
 * entry. A plain GET form, so it works without JavaScript; with it, a new actor or kind applies
 * at once, and the URL holds only the filters chosen. A new filter starts at page 1.
 */
export function AuditList({ page }: { page: AuditPageData }) {
  const { query, entries } = page;
  const navigate = useNavigate();
  // Back/forward changes the URL: the fields follow it.
  const [search, setSearch] = useFollowingState(query.client);
  const [actor, setActor] = useFollowingState(query.actor);
  const [action, setAction] = useFollowingState<AuditQuery["action"]>(query.action);
  const apply = (changed: Partial<AuditQuery>) =>
    void navigate(auditHref({ client: search.trim(), actor, action, page: 1, ...changed }), { preventScrollReset: true });
  const filtered = query.client !== "" || query.actor !== "" || query.action !== "";

  return (
    <div className="space-y-4">
      <Form
        method="get"
        action="/admin/audit"
        role="search"
        aria-label="Audit log filter"
        onSubmit={(event) => {
          event.preventDefault();
          apply({});
        }}
        className="grid gap-3 rounded-[var(--radius-card)] border border-line bg-white p-4 shadow-card sm:p-5 lg:grid-cols-[minmax(0,1fr)_14rem_14rem_auto] lg:items-end"
      >
        <div className="min-w-0">
          <label htmlFor="audit-client" className="mb-1.5 block text-sm font-medium text-ink">
            Client
          </label>
          <ClientSearchInput
            id="audit-client"
            name="client"
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            placeholder="Client ID, name or email"
          />
        </div>
        <div className="min-w-0">
          <label htmlFor="audit-actor" className="mb-1.5 block text-sm font-medium text-ink">
            Who acted
          </label>
          <Select
            id="audit-actor"
            name="actor"
            value={actor}
            onChange={(event) => {
              setActor(event.currentTarget.value);
              apply({ actor: event.currentTarget.value });
            }}
          >
            <option value="">Anyone</option>
            {page.actors.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </Select>
        </div>
        <div className="min-w-0">
          <label htmlFor="audit-action" className="mb-1.5 block text-sm font-medium text-ink">
            Kind
          </label>
          <Select
            id="audit-action"
            name="action"
            value={action}
            onChange={(event) => {
              const chosen = AUDIT_ACTIONS.find((a) => a === event.currentTarget.value) ?? "";
              setAction(chosen);
              apply({ action: chosen });
            }}
          >
            <option value="">Every kind</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex items-center gap-3">
          <Button type="submit" variant="secondary" className="h-[2.875rem]">
            Filter
          </Button>
          {filtered ? (
            <Link
              to="/admin/audit"
              className="rounded-md px-1 text-sm font-semibold text-primary-700 underline-offset-2 hover:underline"
            >
              Clear filter
            </Link>
          ) : null}
        </div>
      </Form>

      {page.problems.length > 0 ? (
        <Alert tone="warning">
          {page.problems.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </Alert>
      ) : null}

      <p role="status" className="text-sm text-ink-soft">
        {query.client !== ""
          ? page.matchingClients === 0
            ? `No client matches “${query.client}”.`
            : `Entries for ${plural(page.matchingClients ?? 0, "client", "clients")} matching “${query.client}”. `
          : null}
        {page.matchingClients === 0 ? null : showing(query.page, page.matching, page.more)}
      </p>

      <div className="overflow-hidden rounded-[var(--radius-card)] border border-line bg-white shadow-card">
        {entries.length === 0 ? (
          <p className="px-4 py-12 text-center text-base text-ink-soft">
            {query.client !== ""
              ? "No audit entries for these clients."
              : filtered
                ? "No audit entries match these filters."
                : "No audit entries yet."}
          </p>
        ) : (
          <>
            <div role="region" aria-label="Audit log" tabIndex={0} className="hidden overflow-x-auto md:block">
              <table className="w-full min-w-[56rem] border-collapse text-sm">
                <caption className="sr-only">Audit entries, newest first</caption>
                <thead className="border-b border-line bg-surface">
                  <tr>
                    {["Time", "Actor", "Action", "Client", "Detail", "IP"].map((c) => (
                      <th key={c} scope="col" className={th}>
                        {c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {entries.map((e) => (
                    <tr key={e.id} className="border-t border-line">
                      <td className={`${td} whitespace-nowrap text-ink-soft`}>
                        <time dateTime={e.at}>{formatUsDateTime(e.at)}</time>
                      </td>
                      <td className={`${td} break-words text-ink`}>
                        <Actor e={e} />
                      </td>
                      <td className={`${td} font-mono text-xs whitespace-nowrap text-ink`}>{e.action}</td>
                      <td className={`${td} text-ink`}>{e.clientLabel ?? e.clientId ?? "N/A"}</td>
                      <td className={`${td} max-w-[28rem] break-words whitespace-pre-wrap text-ink-soft`}>{e.detail ?? ""}</td>
                      <td className={`${td} font-mono text-xs whitespace-nowrap text-ink-soft`}>{e.ipAddress ?? "N/A"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {/* On a phone, one card per entry. */}
            <ul aria-label="Audit entries" className="divide-y divide-line md:hidden">
              {entries.map((e) => (
                <li key={e.id} className="space-y-1 px-4 py-3 text-sm">
                  <p className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <span className="font-mono text-xs text-ink">{e.action}</span>
                    <time dateTime={e.at} className="text-xs text-ink-soft">
                      {formatUsDateTime(e.at)}
                    </time>
                  </p>
                  <div className="break-words text-ink">
                    <Actor e={e} />
                  </div>
                  {e.clientLabel ?? e.clientId ? <p className="break-words text-ink">Client: {e.clientLabel ?? e.clientId}</p> : null}
                  {e.detail ? <p className="break-words whitespace-pre-wrap text-ink-soft">{e.detail}</p> : null}
                  <p className="font-mono text-xs break-all text-ink-muted">IP {e.ipAddress ?? "N/A"}</p>
                </li>
              ))}
            </ul>
          </>
        )}
        {page.pageCount > 1 ? (
          <div className="border-t border-line px-4 py-4 sm:px-5">
            <Pagination page={query.page} pageCount={page.pageCount} href={(p) => auditHref(query, { page: p })} />
          </div>
        ) : null}
      </div>
    </div>
  );
}
