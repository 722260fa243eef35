import { data, useLoaderData } from "react-router";
import type { Route } from "./+types/audit";
import { AuditList } from "~/components/admin/audit-list";
import { seo } from "~/seo";
import { loadAuditPage } from "~/server/audit/audit-page.server";
import { NO_STORE } from "~/server/auth/session.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "Audit trail", description: "Who did what, and when.", noindex: true });

export function headers() {
  return NO_STORE;
}

export async function loader({ request }: Route.LoaderArgs) {
  // Filters in the URL: the client list's search (client id TB-00042, name, e-mail, account id or
  // assignee), who acted, the kind of entry, and the page.
  return data(await loadAuditPage(new URL(request.url).searchParams), { headers: NO_STORE });
}

export default function AdminAudit() {
  const d = useLoaderData<typeof loader>();
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Audit trail</h1>
      <p className="mt-1 text-sm text-ink-muted">Every sign-in, change, export and client creation, newest first. Entries cannot be changed or deleted.</p>
      <div className="mt-6">
        <AuditList page={d} />
      </div>
    </>
  );
}
