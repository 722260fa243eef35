import { data, useLoaderData } from "react-router";
import type { Route } from "./+types/audit";
import { AuditList } from "~/components/admin/audit-list";
import { seo } from "~/seo";
import { clientsMatching, countClientsMatching } from "~/server/admin.server";
import { listAudit } from "~/server/audit.server";
import { NO_STORE } from "~/server/session.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "Audit trail", description: "Who did what, and when.", noindex: true });

export function headers() {
  return NO_STORE;
}

/** The newest entries the page shows. */
const AUDIT_PAGE_SIZE = 200;

export async function loader({ request }: Route.LoaderArgs) {
  // The same search as the client list: client id (TB-00042), name, e-mail, account id or assignee.
  const clientFilter = (new URL(request.url).searchParams.get("client") ?? "").trim().slice(0, 100);
  const [matchingClients, entries] = await Promise.all([
    clientFilter ? countClientsMatching(clientFilter) : null,
    listAudit({ clientIds: clientFilter ? clientsMatching(clientFilter) : undefined, limit: AUDIT_PAGE_SIZE }),
  ]);
  return data(
    {
      clientFilter,
      matchingClients,
      limit: AUDIT_PAGE_SIZE,
      entries: entries.map((e) => ({
        id: e.id,
        at: e.at.toISOString(),
        actorEmail: e.actorEmail,
        action: e.action,
        clientId: e.clientId,
        clientLabel: e.clientLabel,
        detail: e.detail,
        ipAddress: e.ipAddress,
      })),
    },
    { headers: NO_STORE },
  );
}

export default function AdminAudit() {
  const d = useLoaderData<typeof loader>();
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Audit trail</h1>
      <p className="mt-1 text-sm text-ink-muted">Every sign-in, change, export and client creation, newest first. Entries cannot be changed or deleted.</p>
      <div className="mt-6">
        <AuditList entries={d.entries} clientFilter={d.clientFilter} matchingClients={d.matchingClients} limit={d.limit} />
      </div>
    </>
  );
}
