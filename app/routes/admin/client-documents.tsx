import { data, useLoaderData, useLocation } from "react-router";
import type { Route } from "./+types/client-documents";
import { DocumentManagementModal } from "~/components/admin/documents/document-management-modal";
import { DocumentsHeading } from "~/components/admin/documents/documents-heading";
import type { RemoveResult } from "~/components/admin/documents/types";
import { useDocumentChanges } from "~/components/admin/documents/use-document-changes";
import { staffReturn } from "~/domain/admin-links";
import { RemoveDocumentsForm } from "~/domain/admin";
import { yearFromSearch } from "~/domain/tax-year";
import { seo } from "~/seo";
import { findCase } from "~/server/clients/list.server";
import { recordAudit } from "~/server/audit/audit.server";
import { caseExists } from "~/server/cases/cases.server";
import { listDocumentsByCategory } from "~/server/documents/listing.server";
import { removeDocuments } from "~/server/documents/changes.server";
import { parseForm } from "~/server/http/form.server";
import { NO_STORE, staffContext } from "~/server/auth/session.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "Document Management", description: "A client's documents.", noindex: true });

export function headers() {
  return NO_STORE;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const staff = context.get(staffContext);
  const taxYear = yearFromSearch(new URL(request.url).searchParams);
  const client = taxYear === null ? null : await findCase(params.clientId, taxYear);
  if (!client) throw data(null, { status: 404, headers: NO_STORE });
  const groups = await listDocumentsByCategory(staff, client.id, client.taxYear);
  const count = groups.reduce((n, g) => n + g.documents.length, 0);
  await recordAudit({
    actor: staff,
    action: "documents-viewed",
    clientId: client.id,
    taxYear: client.taxYear,
    detail: `${count} ${count === 1 ? "document" : "documents"}`,
    ip: context.clientIp,
  });
  return data(
    {
      client: { id: client.id, code: client.code, name: client.name, email: client.email, taxYear: client.taxYear },
      groups,
    },
    { headers: NO_STORE },
  );
}

export type { RemoveResult };

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = context.get(staffContext);
  const taxYear = yearFromSearch(new URL(request.url).searchParams);
  if (taxYear === null || !(await caseExists(params.clientId, taxYear))) {
    return data<RemoveResult>(
      { ok: false, removed: 0, message: "That client does not exist." },
      { status: 404 },
    );
  }
  const parsed = await parseForm(request, RemoveDocumentsForm);
  if (!parsed.ok || parsed.values.intent !== "remove" || parsed.values.documentIds.sent === 0) {
    return data<RemoveResult>({ ok: false, removed: 0, message: "Nothing to remove." }, { status: 400 });
  }
  const removed = await removeDocuments(
    staff,
    { clientId: params.clientId, taxYear, documentIds: parsed.values.documentIds.usable },
    context.clientIp,
  );
  return data<RemoveResult>({
    ok: true,
    removed,
    message: `${removed} ${removed === 1 ? "document" : "documents"} removed.`,
  });
}

/** Document Management, opened from the client list or a case page, over the page it returns to. */
export default function ClientDocuments() {
  const { client, groups } = useLoaderData<typeof loader>();
  // Close and Back return to the list as it was (its search, filters, page and year): ?back=.
  const back = staffReturn(new URLSearchParams(useLocation().search).get("back"));
  const changes = useDocumentChanges(client, back);
  return (
    <>
      <DocumentsHeading client={client} back={back} onLeave={changes.onCloseLink} />
      <DocumentManagementModal client={client} groups={groups} back={back} changes={changes} />
    </>
  );
}
