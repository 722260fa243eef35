import { CheckCircle2, CircleAlert, Upload } from "lucide-react";
import { useId, useRef, useState } from "react";
import type { ChangeEvent } from "react";
import { useRevalidator } from "react-router";
import { Select } from "./select-field";
import { useHydrated } from "~/components/hooks";
import { buttonClass } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { DOCUMENT_CATEGORIES, checkUploadName, formatKb, isDocumentCategory } from "~/domain/documents";
import type { DocumentCategoryKey } from "~/domain/documents";
import { uploadFile } from "~/components/upload-file";

/**
 * What the file picker offers: the accepted types by extension, and the camera's JPEG and PNG by
 * type, so that phones offer to take a photo.
 */
export const UPLOAD_ACCEPT = ".pdf,.jpg,.jpeg,.png,.doc,.docx,image/jpeg,image/png";

/** Where a tax year's uploads are posted. */
export const uploadPath = (taxYear: number) => `/my-tax-filing/${taxYear}/documents`;

type ItemStatus = "waiting" | "uploading" | "done" | "refused" | "failed";

type Item = {
  localId: number;
  name: string;
  size: number;
  status: ItemStatus;
  /** 0..100. */
  progress: number;
  /** Why it was refused or not sent. */
  reason?: string;
  file?: File;
  /** Once uploaded: the document it became. */
  documentId?: string;
};

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A requested item the files are sent against: its category is where they go. */
export type UploadRequestTarget = { id: string; title: string; category: DocumentCategoryKey };

/**
 * The client's upload: a category, then one or more files (the phone's camera too). Each file is
 * checked here first (type by name, size; HEIC photos get their own advice), then sent on its
 * own with a progress bar; the server checks it again by content. The documents list is loaded
 * again once everything has been sent. Needs JavaScript; without it the page says so.
 *
 * With `request`, the files answer one requested item: no category to choose (the item's is
 * used), and the upload is sent with the item's id.
 *
 * `present` is the documents the page lists now (the item's files, with `request`): a file
 * uploaded here and removed since is no longer reported as uploaded, and what is said of the
 * last upload counts only what is left of it.
 */
export function DocumentUploader({
  taxYear,
  request,
  present,
}: {
  taxYear: number;
  request?: UploadRequestTarget;
  present: readonly string[];
}) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const ids = useId();
  const nextId = useRef(1);
  const [chosenCategory, setCategory] = useState<DocumentCategoryKey | "">("");
  const category = request ? request.category : chosenCategory;
  const [rows, setRows] = useState<Item[]>([]);
  const [busy, setBusy] = useState(false);
  /** Whether the last files chosen have all been sent (and the page read again). */
  const [finished, setFinished] = useState(false);
  const items = busy ? rows : rows.filter((item) => item.status !== "done" || present.includes(item.documentId ?? ""));
  const summary = finished ? summaryOf(items) : null;
  const categoryId = `${ids}-category`;
  const hintId = `${ids}-hint`;
  const enabled = hydrated && !busy && category !== "";

  const update = (localId: number, change: Partial<Item>) =>
    setRows((all) => all.map((item) => (item.localId === localId ? { ...item, ...change } : item)));

  async function pick(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.currentTarget.files ?? []);
    event.currentTarget.value = "";
    if (files.length === 0 || category === "") return;
    const picked: Item[] = files.map((file) => {
      const check = checkUploadName(file.name, file.size);
      return check.ok
        ? {
            localId: nextId.current++,
            name: file.name,
            size: file.size,
            status: "waiting",
            progress: 0,
            file,
          }
        : {
            localId: nextId.current++,
            name: file.name,
            size: file.size,
            status: "refused",
            progress: 0,
            reason: check.reason,
          };
    });
    setRows(picked);
    setFinished(false);
    setBusy(true);
    let uploaded = 0;
    for (const item of picked) {
      if (!item.file) continue;
      update(item.localId, { status: "uploading", progress: 0 });
      const sent = await uploadFile(
        uploadPath(taxYear),
        category,
        item.file,
        (fraction) => update(item.localId, { progress: Math.round(fraction * 100) }),
        { requestId: request?.id },
      );
      if (sent.kind === "answer" && sent.body.uploaded.length > 0) {
        uploaded += 1;
        update(item.localId, { status: "done", progress: 100, file: undefined, documentId: sent.body.uploaded[0]!.id });
      } else if (sent.kind === "answer" && sent.body.refused.length > 0) {
        update(item.localId, {
          status: "refused",
          progress: 0,
          reason: sent.body.refused[0]!.reason,
          file: undefined,
        });
      } else {
        const reason =
          sent.kind === "answer" ? (sent.body.error ?? "the file was not accepted") : sent.message;
        update(item.localId, { status: "failed", progress: 0, reason, file: undefined });
      }
    }
    // The page is read again before the rows are matched with its documents.
    if (uploaded > 0) await revalidator.revalidate();
    setBusy(false);
    setFinished(true);
  }

  const progress = (
    <>
      {items.length > 0 ? (
        <ul className="mt-4 space-y-3" aria-label="Files sent">
          {items.map((item) => (
            <UploadRow key={item.localId} item={item} />
          ))}
        </ul>
      ) : null}
      <div aria-live="polite" className="mt-4 empty:hidden">
        {summary ? <Alert tone={summary.tone}>{summary.text}</Alert> : null}
      </div>
    </>
  );

  if (request) {
    return (
      <div>
        <noscript>
          <p className="mb-2 text-sm font-medium text-accent-700">
            Uploading files needs JavaScript. Please turn it on in your browser to upload files here.
          </p>
        </noscript>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <FilePicker enabled={enabled} busy={busy} hintId={hintId} onPick={pick} label="Upload files" request={request} />
          <p id={hintId} className="text-sm text-ink-muted">
            PDF, JPG, PNG, DOC or DOCX, up to 20 MB each.
          </p>
        </div>
        {progress}
      </div>
    );
  }

  return (
    <div className="rounded-xl border border-line bg-white p-4 sm:p-5">
      <h3 className="text-base font-semibold text-ink">Add documents</h3>
      <noscript>
        <p className="mt-2 text-sm font-medium text-accent-700">
          Uploading documents needs JavaScript. Please turn it on in your browser to add documents here.
        </p>
      </noscript>
      <div className="mt-3 grid gap-4 sm:grid-cols-[minmax(0,18rem)_auto] sm:items-end">
        <div className="min-w-0">
          <label htmlFor={categoryId} className="mb-1.5 block text-sm font-medium text-ink">
            Category
          </label>
          <Select
            id={categoryId}
            name="category"
            value={category}
            disabled={busy}
            className="min-h-11"
            onChange={(event) => {
              const value = event.currentTarget.value;
              setCategory(isDocumentCategory(value) ? value : "");
            }}
          >
            <option value="">Choose a category</option>
            {DOCUMENT_CATEGORIES.map((c) => (
              <option key={c.key} value={c.key}>
                {c.label}
              </option>
            ))}
          </Select>
        </div>
        <FilePicker enabled={enabled} busy={busy} hintId={hintId} onPick={pick} label="Choose files" />
      </div>
      <p id={hintId} className="mt-2 text-sm text-ink-muted">
        {category === "" && hydrated ? "Choose a category first. " : ""}
        PDF, JPG, PNG, DOC or DOCX, up to 20 MB each. You can choose several files at once, or take a photo
        with your phone.
      </p>

      {progress}
    </div>
  );
}

/** What is said of the last files chosen, as far as they are still there (null when none is). */
function summaryOf(items: readonly Item[]): { tone: "success" | "warning" | "error"; text: string } | null {
  const uploaded = items.filter((item) => item.status === "done").length;
  const refused = items.filter((item) => item.status === "refused").length;
  const failed = items.filter((item) => item.status === "failed").length;
  if (uploaded + refused + failed === 0) return null;
  const parts = [
    uploaded > 0 ? `${plural(uploaded, "file", "files")} uploaded.` : "",
    refused > 0 ? `${plural(refused, "file was", "files were")} not accepted (the reason is shown below).` : "",
    failed > 0 ? `${plural(failed, "file was", "files were")} not sent (the reason is shown below).` : "",
  ].filter(Boolean);
  return { tone: refused + failed === 0 ? "success" : uploaded > 0 ? "warning" : "error", text: parts.join(" ") };
}

/** The button that opens the file picker (a label around a hidden file input, so it works with the keyboard). */
function FilePicker({
  enabled,
  busy,
  hintId,
  onPick,
  label,
  request,
}: {
  enabled: boolean;
  busy: boolean;
  hintId: string;
  onPick: (event: ChangeEvent<HTMLInputElement>) => Promise<void>;
  label: string;
  request?: UploadRequestTarget;
}) {
  return (
    <label
      className={buttonClass(
        request ? "secondary" : "primary",
        "md",
        `min-h-11 sm:justify-self-start has-focus-visible:outline-3 has-focus-visible:outline-offset-2 has-focus-visible:outline-primary-500 ${
          enabled ? "cursor-pointer" : "cursor-not-allowed opacity-60"
        }`,
      )}
    >
      <Upload className="size-4" aria-hidden="true" />
      {busy ? "Uploading..." : label}
      {request ? <span className="sr-only">{` for ${request.title}`}</span> : null}
      <input
        type="file"
        name="files"
        multiple
        accept={UPLOAD_ACCEPT}
        className="sr-only"
        disabled={!enabled}
        aria-describedby={hintId}
        onChange={(event) => void onPick(event)}
      />
    </label>
  );
}

const STATUS_WORDS: Record<ItemStatus, string> = {
  waiting: "Waiting",
  uploading: "Uploading",
  done: "Uploaded",
  refused: "Not accepted",
  failed: "Not sent",
};

function UploadRow({ item }: { item: Item }) {
  const problem = item.status === "refused" || item.status === "failed";
  return (
    <li
      className={`rounded-lg border px-3 py-2.5 ${problem ? "border-red-200 bg-red-50" : "border-line bg-surface"}`}
    >
      <div className="flex items-start gap-2">
        {item.status === "done" ? (
          <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-green-700" aria-hidden="true" />
        ) : problem ? (
          <CircleAlert className="mt-0.5 size-4 shrink-0 text-red-700" aria-hidden="true" />
        ) : (
          <Upload className="mt-0.5 size-4 shrink-0 text-primary-600" aria-hidden="true" />
        )}
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium break-all text-ink">{item.name}</p>
          <p className="text-xs text-ink-muted">
            {formatKb(item.size)} · {STATUS_WORDS[item.status]}
          </p>
        </div>
      </div>
      {item.status === "uploading" || item.status === "done" ? (
        <div className="mt-2 flex items-center gap-2">
          <div
            role="progressbar"
            aria-label={`Upload of ${item.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={item.progress}
            className="h-2 flex-1 overflow-hidden rounded-full bg-primary-100"
          >
            <div
              className={`h-full rounded-full transition-[width] duration-200 motion-reduce:transition-none ${item.status === "done" ? "bg-green-700" : "bg-primary-600"}`}
              style={{ width: `${item.progress}%` }}
            />
          </div>
          <span className="w-10 text-right text-xs text-ink-muted tabular-nums">{`${item.progress}%`}</span>
        </div>
      ) : null}
      {problem && item.reason ? (
        <p className="mt-1 text-sm font-medium break-words text-red-800">{`${item.reason}.`}</p>
      ) : null}
    </li>
  );
}
