import { Form, Link } from "react-router";
import { useFollowingState } from "~/components/hooks";
import { Button } from "~/components/ui/button";
import { ClientSearchInput } from "./client-search-input";
import { formatUsDateTime, plural } from "./format";

export type AuditEntry = {
  id: number;
  /** ISO timestamp. */
  at: string;
  actorEmail: string | null;
  action: string;
  clientId: string | null;
  clientLabel: string | null;
  detail: string | null;
  ipAddress: string | null;
};

export type AuditListProps = {
  entries: readonly AuditEntry[];
  /** The client search in ?client=, "" for all clients. */
  clientFilter: string;
  /** How many clients the search finds (null without a search). */
  matchingClients: number | null;
  /** The most entries shown; the page says so when it shows that many. */
  limit: number;
};

const th =
  "px-4 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-ink-soft uppercase";
const td = "px-4 py-3 align-top";

/**
 * The audit log (who opened or changed what), with a filter by client kept in the URL: the same
 * search as the client list, so one field serves ten clients or ten thousand.
 */
export function AuditList({ entries, clientFilter, matchingClients, limit }: AuditListProps) {
  // Back/forward changes the URL: the field follows it.
  const [search, setSearch] = useFollowingState(clientFilter);
  const filtered = clientFilter !== "";

  return (
    <div className="space-y-4">
      <Form
        method="get"
        role="search"
        aria-label="Audit log filter"
        className="flex flex-col gap-3 rounded-[var(--radius-card)] border border-line bg-white p-4 shadow-card sm:flex-row sm:items-end sm:p-5"
      >
        <div className="sm:w-96">
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
        <Button type="submit" variant="secondary" className="h-[2.875rem]">
          Filter
        </Button>
        {filtered ? (
          <Link
            to="/admin/audit"
            className="self-start rounded-md px-1 text-sm font-semibold text-primary-700 underline-offset-2 hover:underline sm:self-center"
          >
            Clear filter
          </Link>
        ) : null}
      </Form>

      <p role="status" className="text-sm text-ink-soft">
        {filtered
          ? matchingClients === 0
            ? `No client matches “${clientFilter}”.`
            : `Entries for ${plural(matchingClients ?? 0, "client", "clients")} matching “${clientFilter}”${entries.length >= limit ? `, the newest ${limit}` : ""}.`
          : entries.length >= limit
            ? `The newest ${limit} entries.`
            : null}
      </p>

      <div className="overflow-hidden rounded-[var(--radius-card)] border border-line bg-white shadow-card">
        <div role="region" aria-label="Audit log" tabIndex={0} className="overflow-x-auto">
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
              {entries.length === 0 ? (
                <tr>
                  <td colSpan={6} className="px-4 py-12 text-center text-base text-ink-soft">
                    {filtered ? "No audit entries for these clients." : "No audit entries yet."}
                  </td>
                </tr>
              ) : (
                entries.map((e) => (
                  <tr key={e.id} className="border-t border-line">
                    <td className={`${td} whitespace-nowrap text-ink-soft`}>
                      <time dateTime={e.at}>{formatUsDateTime(e.at)}</time>
                    </td>
                    <td className={`${td} break-words text-ink`}>{e.actorEmail ?? "System"}</td>
                    <td className={`${td} font-mono text-xs whitespace-nowrap text-ink`}>{e.action}</td>
                    <td className={`${td} text-ink`}>{e.clientLabel ?? e.clientId ?? "N/A"}</td>
                    <td className={`${td} max-w-[28rem] break-words whitespace-pre-wrap text-ink-soft`}>
                      {e.detail ?? ""}
                    </td>
                    <td className={`${td} font-mono text-xs whitespace-nowrap text-ink-soft`}>
                      {e.ipAddress ?? "N/A"}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}
