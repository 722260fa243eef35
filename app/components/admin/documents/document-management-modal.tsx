import { FolderOpen } from "lucide-react";
import { Link } from "react-router";
import { plural } from "~/components/admin/format";
import { useHydrated } from "~/components/hooks";
import { Button, buttonClass } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { Modal } from "~/components/ui/modal";
import { CategoryCard } from "./category-card";
import type { ManagedClient, ManagedDocumentGroup } from "./types";
import type { DocumentChanges } from "./use-document-changes";

/**
 * The Document Management modal: the case's documents by category, files to upload and documents
 * to remove, kept by `changes` until Save Documents. Close (and Escape) returns to `back`.
 */
export function DocumentManagementModal({
  client,
  groups,
  back,
  changes,
}: {
  client: ManagedClient;
  groups: ManagedDocumentGroup[];
  back: string;
  changes: DocumentChanges;
}) {
  const hydrated = useHydrated();
  const { pending, refusals, removals, saving, notice, removal, dirty, close, onCloseLink, pick, save } = changes;
  return (
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
            onDropPending={changes.dropPending}
            onDismissRefusal={changes.dismissRefusal}
            onToggleRemoval={changes.toggleRemoval}
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
  );
}
