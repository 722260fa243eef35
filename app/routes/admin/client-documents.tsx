import { FileText, FolderOpen, Undo2, Upload, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { ChangeEvent, MouseEvent } from "react";
import { data, Link, useFetcher, useLoaderData, useLocation, useNavigate, useRevalidator } from "react-router";
import type { Route } from "./+types/client-documents";
import { plural } from "~/components/admin/format";
import { DASHBOARD_PATH, staffReturn } from "~/domain/admin-links";
import { useHydrated } from "~/components/hooks";
import { uploadFile } from "~/components/upload-file";
import { Button, buttonClass } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { Modal } from "~/components/ui/modal";
import { RemoveDocumentsForm } from "~/domain/admin";
import { ACCEPT_ATTRIBUTE, checkUploadName, formatKb } from "~/domain/documents";
import type { DocumentCategoryKey } from "~/domain/documents";
import { yearFromSearch } from "~/domain/tax-year";
import { formatUsDate } from "~/domain/taxpayer";
import { seo } from "~/seo";
import { findCase } from "~/server/clients/list.server";
import { recordAudit } from "~/server/audit/audit.server";
import { caseExists } from "~/server/cases/cases.server";
import { listDocumentsByCategory } from "~/server/documents/listing.server";
import { removeDocuments } from "~/server/documents/changes.server";
import type { ClientDocument, DocumentGroup } from "~/server/documents/listing.server";
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

export type RemoveResult = { ok: boolean; removed: number; message: string };

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

// ---------------------------------------------------------------------------------------------
// The Document Management modal. Picked files and removals wait in state until Save Documents.

type PendingUpload = {
  localId: number;
  category: DocumentCategoryKey;
  file: File;
  status: "waiting" | "uploading" | "failed";
  /** 0..1 while uploading. */
  progress: number;
  error?: string;
};

type Refusal = { localId: number; category: DocumentCategoryKey; name: string; reason: string };

const DISCARD_QUESTION = "Discard the changes you have not saved?";

export default function ClientDocuments() {
  const { client, groups } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const removeFetcher = useFetcher<RemoveResult>();
  const nextId = useRef(1);
  // Close and Back return to the list as it was (its search, filters, page and year): ?back=.
  const back = staffReturn(new URLSearchParams(useLocation().search).get("back"));
  // The link says where it goes: the client list, or the case page the modal was opened from.
  const backLabel = back.startsWith(DASHBOARD_PATH) ? "Back to all clients" : "Back to the case";

  const [pending, setPending] = useState<PendingUpload[]>([]);
  const [refusals, setRefusals] = useState<Refusal[]>([]);
  const [removals, setRemovals] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<{ tone: "success" | "error" | "warning"; text: string } | null>(null);
  // Whether the last save sent removals, so the fetcher's answer belongs to it.
  const [removalSent, setRemovalSent] = useState(false);
  const removal = removalSent && removeFetcher.state === "idle" ? removeFetcher.data : undefined;

  const dirty = pending.length > 0 || removals.length > 0;
  const uploadUrl = `/admin/clients/${client.id}/documents/upload?year=${client.taxYear}`;

  // Leaving the page (reload, closing the tab) with unsaved changes asks the browser's question.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const mayLeave = () => !dirty || window.confirm(DISCARD_QUESTION);

  const close = () => {
    if (mayLeave()) navigate(back);
  };

  const onCloseLink = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!mayLeave()) event.preventDefault();
  };

  const pick = (category: DocumentCategoryKey, event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.currentTarget.files ?? []);
    event.currentTarget.value = "";
    const accepted: PendingUpload[] = [];
    const refused: Refusal[] = [];
    for (const file of files) {
      const localId = nextId.current++;
      const check = checkUploadName(file.name, file.size);
      if (check.ok) accepted.push({ localId, category, file, status: "waiting", progress: 0 });
      else refused.push({ localId, category, name: file.name, reason: check.reason });
    }
    setPending((p) => [...p, ...accepted]);
    setRefusals((r) => [...r, ...refused]);
    setNotice(null);
    setRemovalSent(false);
  };

  const update = (localId: number, change: Partial<PendingUpload>) =>
    setPending((p) => p.map((u) => (u.localId === localId ? { ...u, ...change } : u)));

  const save = async () => {
    if (saving || !dirty) return;
    setSaving(true);
    setNotice(null);
    let uploaded = 0;
    let refused = 0;
    let failed = 0;
    for (const item of pending) {
      update(item.localId, { status: "uploading", progress: 0, error: undefined });
      const result = await uploadFile(uploadUrl, item.category, item.file, (progress) =>
        update(item.localId, { progress }),
      );
      if (result.kind === "answer" && !result.body.error) {
        uploaded += result.body.uploaded.length;
        refused += result.body.refused.length;
        setRefusals((r) => [
          ...r,
          ...result.body.refused.map((x) => ({
            localId: nextId.current++,
            category: item.category,
            name: x.name,
            reason: x.reason,
          })),
        ]);
        setPending((p) => p.filter((u) => u.localId !== item.localId));
      } else {
        failed += 1;
        const message = result.kind === "answer" ? (result.body.error ?? "") : result.message;
        update(item.localId, { status: "failed", progress: 0, error: message });
      }
    }
    const removing = removals.length > 0;
    setRemovalSent(removing);
    if (removing) {
      const form = new FormData();
      form.append("intent", "remove");
      for (const id of removals) form.append("documentIds", id);
      // The fetcher's action is followed by a fresh load of the list; its answer shows below.
      await removeFetcher.submit(form, {
        method: "post",
        action: `/admin/clients/${client.id}/documents?year=${client.taxYear}`,
      });
      setRemovals([]);
    } else {
      await revalidator.revalidate();
    }
    setSaving(false);

    const problems: string[] = [];
    if (refused > 0)
      problems.push(
        `${plural(refused, "file was", "files were")} refused (the reason is shown under its category)`,
      );
    if (failed > 0)
      problems.push(`${plural(failed, "file was", "files were")} not sent: Save Documents tries again`);
    if (uploaded === 0 && problems.length === 0) {
      setNotice(null);
      return;
    }
    const text = [
      uploaded > 0 ? `${plural(uploaded, "file", "files")} uploaded.` : "",
      ...problems.map((p) => `${p}.`),
    ]
      .filter(Boolean)
      .join(" ");
    setNotice({ tone: problems.length === 0 ? "success" : uploaded > 0 ? "warning" : "error", text });
  };

  const toggleRemoval = (id: string) =>
    setRemovals((r) => (r.includes(id) ? r.filter((x) => x !== id) : [...r, id]));

  return (
    <>
      <p>
        <Link
          to={back}
          onClick={onCloseLink}
          className="inline-flex min-h-11 items-center text-sm font-semibold text-primary-700 hover:underline sm:min-h-0"
        >
          {backLabel}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold tracking-tight">Documents of {client.name}</h1>
      <p className="mt-1 text-sm text-ink-muted">
        {client.code} · {client.email} · Tax year {client.taxYear}
      </p>

      <Modal
        open
        onClose={close}
        labelledBy="documents-title"
        describedBy="documents-lead"
        closeOnBackdrop={false}
        className="max-h-[calc(100dvh-2rem)] max-w-4xl! overflow-y-auto"
      >
        <div className="flex items-start gap-3">
          <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
            <FolderOpen className="size-5" aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <h2 id="documents-title" className="text-xl font-bold text-ink">
              Document Management
            </h2>
            <p id="documents-lead" className="mt-1 text-sm text-ink-soft">
              {client.name} <span className="text-ink-muted">({client.code})</span>, tax year {client.taxYear}.
              PDF, JPG, PNG, DOC or DOCX, up to 20 MB each.
            </p>
          </div>
        </div>

        <div className="mt-5 grid gap-4 md:grid-cols-2">
          {groups.map((group) => (
            <CategoryCard
              key={group.key}
              group={group}
              pending={pending.filter((p) => p.category === group.key)}
              refusals={refusals.filter((r) => r.category === group.key)}
              removals={removals}
              enabled={hydrated && !saving}
              onPick={(event) => pick(group.key, event)}
              onDropPending={(localId) => setPending((p) => p.filter((u) => u.localId !== localId))}
              onDismissRefusal={(localId) => setRefusals((r) => r.filter((x) => x.localId !== localId))}
              onToggleRemoval={toggleRemoval}
            />
          ))}
        </div>

        <div className="mt-5 min-h-6">
          <div className="space-y-2">
            {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
            {removal ? <Alert tone={removal.ok ? "success" : "error"}>{removal.message}</Alert> : null}
          </div>
        </div>

        <div className="mt-4 flex flex-col-reverse gap-3 border-t border-line pt-4 sm:flex-row sm:items-center sm:justify-end">
          {dirty ? (
            <p className="text-sm text-ink-muted sm:mr-auto">
              {[
                pending.length > 0 ? `${plural(pending.length, "file", "files")} to upload` : "",
                removals.length > 0 ? `${plural(removals.length, "document", "documents")} to remove` : "",
              ]
                .filter(Boolean)
                .join(", ")}
            </p>
          ) : null}
          <Link to={back} onClick={onCloseLink} className={buttonClass("secondary", "md", "min-h-11 sm:min-h-0")}>
            Close
          </Link>
          <Button
            type="button"
            className="min-h-11 sm:min-h-0"
            onClick={save}
            disabled={!hydrated || saving || !dirty}
            busy={saving}
            aria-busy={saving}
          >
            Save Documents
          </Button>
        </div>
      </Modal>
    </>
  );
}

type CategoryCardProps = {
  group: DocumentGroup;
  pending: PendingUpload[];
  refusals: Refusal[];
  removals: string[];
  enabled: boolean;
  onPick: (event: ChangeEvent<HTMLInputElement>) => void;
  onDropPending: (localId: number) => void;
  onDismissRefusal: (localId: number) => void;
  onToggleRemoval: (id: string) => void;
};

const iconButton =
  "inline-flex size-11 shrink-0 sm:size-9 items-center justify-center rounded-lg text-ink-muted hover:bg-red-50 hover:text-red-700 disabled:cursor-not-allowed disabled:opacity-50";

function CategoryCard({
  group,
  pending,
  refusals,
  removals,
  enabled,
  onPick,
  onDropPending,
  onDismissRefusal,
  onToggleRemoval,
}: CategoryCardProps) {
  const headingId = `category-${group.key}`;
  const empty = group.documents.length === 0 && pending.length === 0;
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-line bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="text-base font-semibold text-ink">
          {group.label}
        </h3>
        <label
          className={buttonClass(
            "secondary",
            "sm",
            `min-h-11 sm:min-h-0 has-focus-visible:outline-3 has-focus-visible:outline-offset-2 has-focus-visible:outline-primary-500 ${
              enabled ? "cursor-pointer" : "cursor-not-allowed opacity-70"
            }`,
          )}
        >
          <Upload className="size-4" aria-hidden="true" />
          Upload Files
          <span className="sr-only"> to {group.label}</span>
          <input
            type="file"
            multiple
            accept={ACCEPT_ATTRIBUTE}
            className="sr-only"
            disabled={!enabled}
            onChange={onPick}
          />
        </label>
      </div>

      {empty ? <p className="mt-3 text-sm text-ink-muted">No documents uploaded</p> : null}

      {group.documents.length > 0 || pending.length > 0 ? (
        <ul className="mt-3 divide-y divide-line">
          {group.documents.map((doc) => (
            <SavedRow
              key={doc.id}
              doc={doc}
              marked={removals.includes(doc.id)}
              enabled={enabled}
              onToggle={() => onToggleRemoval(doc.id)}
            />
          ))}
          {pending.map((item) => (
            <li key={item.localId} className="py-2">
              <div className="flex items-center gap-2">
                <FileText className="size-4 shrink-0 text-primary-600" aria-hidden="true" />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-ink" title={item.file.name}>
                    {item.file.name}
                  </p>
                  <p className="text-xs text-ink-muted">
                    {formatKb(item.file.size)} ·{" "}
                    {item.status === "uploading" ? "Uploading…" : "Not saved yet"}
                  </p>
                </div>
                <button
                  type="button"
                  className={iconButton}
                  disabled={!enabled}
                  onClick={() => onDropPending(item.localId)}
                  aria-label={`Remove ${item.file.name}`}
                >
                  <X className="size-4" aria-hidden="true" />
                </button>
              </div>
              {item.status === "uploading" ? (
                <div className="mt-1 flex items-center gap-2">
                  <progress
                    className="h-2 flex-1 accent-primary-600"
                    max={100}
                    value={Math.round(item.progress * 100)}
                    aria-label={`Uploading ${item.file.name}`}
                  />
                  <span className="w-10 text-right text-xs text-ink-muted tabular-nums">{`${Math.round(item.progress * 100)}%`}</span>
                </div>
              ) : null}
              {item.status === "failed" && item.error ? (
                <p className="mt-1 text-xs font-medium text-red-700">{`Not sent: ${item.error}.`}</p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}

      {refusals.length > 0 ? (
        <ul className="mt-2 space-y-1">
          {refusals.map((r) => (
            <li
              key={r.localId}
              className="flex items-start gap-2 rounded-lg bg-red-50 px-3 py-2 text-xs font-medium text-red-800"
            >
              <span className="min-w-0 flex-1 break-words">{`${r.name}: ${r.reason}.`}</span>
              <button
                type="button"
                className="shrink-0 rounded underline hover:no-underline"
                onClick={() => onDismissRefusal(r.localId)}
                aria-label={`Dismiss the message about ${r.name}`}
              >
                Dismiss
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function SavedRow({
  doc,
  marked,
  enabled,
  onToggle,
}: {
  doc: ClientDocument;
  marked: boolean;
  enabled: boolean;
  onToggle: () => void;
}) {
  return (
    <li className="flex items-center gap-2 py-2">
      <FileText className="size-4 shrink-0 text-primary-600" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <a
          href={`/documents/${doc.id}`}
          download={doc.name}
          className={`block truncate text-sm font-medium hover:underline max-sm:py-3 ${marked ? "text-ink-muted line-through" : "text-primary-700"}`}
          title={`Download ${doc.name}`}
        >
          {doc.name}
        </a>
        <p className="text-xs text-ink-muted">
          {formatKb(doc.size)} · {formatUsDate(doc.uploadedAt)}
          {marked ? <span className="font-semibold text-red-700"> · Removed when you save</span> : null}
        </p>
      </div>
      {marked ? (
        <button
          type="button"
          className={`${iconButton} hover:bg-primary-50 hover:text-primary-700`}
          disabled={!enabled}
          onClick={onToggle}
          aria-label={`Keep ${doc.name}`}
        >
          <Undo2 className="size-4" aria-hidden="true" />
        </button>
      ) : (
        <button
          type="button"
          className={iconButton}
          disabled={!enabled}
          onClick={onToggle}
          aria-label={`Remove ${doc.name}`}
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      )}
    </li>
  );
}
