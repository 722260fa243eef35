import { FileText, Undo2, Upload, X } from "lucide-react";
import type { ChangeEvent } from "react";
import { buttonClass } from "~/components/ui/button";
import { ACCEPT_ATTRIBUTE, formatKb } from "~/domain/documents";
import { formatUsDate } from "~/domain/taxpayer";
import type { ManagedDocument, ManagedDocumentGroup, PendingUpload, Refusal } from "./types";

type CategoryCardProps = {
  group: ManagedDocumentGroup;
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

/** One category of Document Management: its saved documents, the files waiting for Save Documents and the refused ones. */
export function CategoryCard({
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

/** A saved document: its download link, and Remove (or Keep, once marked for removal). */
function SavedRow({
  doc,
  marked,
  enabled,
  onToggle,
}: {
  doc: ManagedDocument;
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
