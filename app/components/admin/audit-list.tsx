import { Form, useSubmit } from "react-router";
import { useFollowingState } from "~/components/hooks";
import { Select } from "~/components/portal/select-field";
import { Button } from "~/components/ui/button";
import { formatUsDateTime } from "./format";

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

export type AuditClientOption = { id: string; label: string };

export type AuditListProps = {
  entries: readonly AuditEntry[];
  /** The client id in ?client=, or null/"" for all clients. */
  clientFilter: string | null;
  clients: readonly AuditClientOption[];
};

const th =
  "px-4 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-ink-soft uppercase";
const td = "px-4 py-3 align-top";

/** The audit log (who opened or changed what), with a filter by client kept in the URL. */
export function AuditList({ entries, clientFilter, clients }: AuditListProps) {
  const submit = useSubmit();
  // Back/forward changes the URL: the select follows it.
  const [selected, setSelected] = useFollowingState(clientFilter ?? "");

  return (
    <div className="space-y-4">
      <Form
        method="get"
        role="search"
        aria-label="Audit log filter"
        className="flex flex-col gap-3 rounded-[var(--radius-card)] border border-line bg-white p-4 shadow-card sm:flex-row sm:items-end sm:p-5"
      >
        <div className="sm:w-80">
          <label htmlFor="audit-client" className="mb-1.5 block text-sm font-medium text-ink">
            Client
          </label>
          <Select
            id="audit-client"
            name="client"
            value={selected}
            onChange={(event) => {
              setSelected(event.currentTarget.value);
              void submit(event.currentTarget.form, { preventScrollReset: true });
            }}
          >
            <option value="">All clients</option>
            {clients.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </Select>
        </div>
        <Button type="submit" variant="secondary" className="h-[2.875rem]">
          Filter
        </Button>
      </Form>

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
                    No audit entries yet.
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
