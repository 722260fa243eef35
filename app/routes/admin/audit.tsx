import { data, useLoaderData } from "react-router";
import type { Route } from "./+types/audit";
import { AdminShell } from "~/components/admin/admin-shell";
import { AuditList } from "~/components/admin/audit-list";
import { seo } from "~/seo";
import { listClientLabels } from "~/server/admin.server";
import { listAudit } from "~/server/audit.server";
import { NO_STORE, requireAdmin } from "~/server/session.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "Audit trail", description: "Who did what, and when.", noindex: true });

export function headers() {
  return NO_STORE;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const client = new URL(request.url).searchParams.get("client") ?? "";
  const clients = await listClientLabels();
  const label = new Map(clients.map((c) => [c.id, `${c.code} ${c.name}`]));
  const entries = await listAudit({ clientId: label.has(client) ? client : undefined, limit: 200 });
  return data(
    {
      totalClients: clients.length,
      clientFilter: label.has(client) ? client : "",
      clients: clients.map((c) => ({ id: c.id, label: label.get(c.id)! })),
      entries: entries.map((e) => ({
        id: e.id,
        at: e.at.toISOString(),
        actorEmail: e.actorEmail,
        action: e.action,
        clientId: e.clientId,
        clientLabel: e.clientId ? (label.get(e.clientId) ?? e.clientId) : null,
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
    <AdminShell section="home" active="audit" totalClients={d.totalClients}>
      <h1 className="text-2xl font-bold tracking-tight">Audit trail</h1>
      <p className="mt-1 text-sm text-ink-muted">Every sign-in, change, export and client creation, newest first. Entries cannot be changed or deleted.</p>
      <div className="mt-6">
        <AuditList entries={d.entries} clientFilter={d.clientFilter} clients={d.clients} />
      </div>
    </AdminShell>
  );
}
