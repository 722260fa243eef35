import { CheckCircle2, Download, FileText, Lock, ShieldCheck, Trash2 } from "lucide-react";
import { useFetcher } from "react-router";
import { business } from "~/content/business";
import { Alert } from "~/components/ui/field";
import type { ClientDocumentView } from "~/domain/documents";
import { DOCUMENT_CATEGORIES, formatKb } from "~/domain/documents";
import { FEE_TEXTS } from "~/domain/fees";
import type { FilingPageResult } from "~/domain/portal";
import { CASE_MESSAGES } from "~/domain/portal-forms";
import { formatUsDate } from "~/domain/taxpayer";

export type CaseDocumentsProps = {
  taxYear: number;
  documents: ClientDocumentView[];
  /** Whether the client may still remove their own uploads. */
  documentsOpen: boolean;
  /** The answer to a removal posted without JavaScript (the page's action data). */
  postedResult?: FilingPageResult;
  /** Whether the signed engagement letter is listed above: the empty list then says "no other documents". */
  besideSignedLetter?: boolean;
};

/**
 * The client's documents of one tax year, by category in the categories' order (only the
 * categories that hold any): each with its size and date and a Download link; the client's own
 * uploads can be removed while documents are open, except those sent for an item the firm has
 * received (they stay, and say so); the firm's shared documents say so.
 */
export function CaseDocuments({ taxYear, documents, documentsOpen, postedResult, besideSignedLetter = false }: CaseDocumentsProps) {
  const remover = useFetcher<FilingPageResult>();
  const answer = remover.state === "idle" ? (remover.data ?? postedResult) : undefined;
  const removing = remover.state !== "idle" ? remover.formData?.get("documentIds") : null;
  const groups = DOCUMENT_CATEGORIES.map((category) => ({
    ...category,
    documents: documents.filter((doc) => doc.category === category.key),
  })).filter((group) => group.documents.length > 0);

  return (
    <div className="space-y-4">
      <div aria-live="polite" className="empty:hidden">
        {answer && answer.intent !== "stage-notices" ? (
          <Alert tone={answer.ok ? "success" : "error"}>{answer.message}</Alert>
        ) : null}
      </div>
      {groups.length === 0 ? (
        <p className="rounded-xl bg-surface px-4 py-5 text-ink-soft">{besideSignedLetter ? "No other documents for this tax year yet." : "No documents for this tax year yet."}</p>
      ) : (
        groups.map((group) => {
          const headingId = `documents-${group.key}`;
          return (
            <section
              key={group.key}
              aria-labelledby={headingId}
              className="rounded-xl border border-line bg-white p-4"
            >
              <h3 id={headingId} className="text-base font-semibold break-words text-ink">
                {group.label}
              </h3>
              <ul className="mt-2 divide-y divide-line">
                {group.documents.map((doc) => (
                  <li key={doc.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:gap-3">
                    <div className="flex min-w-0 flex-1 items-start gap-2">
                      <FileText className="mt-0.5 size-4 shrink-0 text-primary-600" aria-hidden="true" />
                      <div className="min-w-0">
                        <p className="font-medium break-all text-ink">{doc.name}</p>
                        <p className="text-sm text-ink-muted">
                          {formatKb(doc.size)} · {formatUsDate(doc.uploadedAt)}
                          {doc.mine ? null : (
                            <span className="ml-2 inline-flex items-center gap-1 rounded-full bg-primary-50 px-2 py-0.5 text-xs font-semibold text-primary-800">
                              <ShieldCheck className="size-3.5" aria-hidden="true" />
                              {`Shared by ${business.name}`}
                            </span>
                          )}
                          {doc.mine && doc.accepted ? (
                            <span className="ml-2 inline-flex items-center gap-1 rounded-full bg-green-50 px-2 py-0.5 text-xs font-semibold text-green-800">
                              <CheckCircle2 className="size-3.5" aria-hidden="true" />
                              {CASE_MESSAGES.acceptedLabel}
                            </span>
                          ) : null}
                        </p>
                      </div>
                    </div>
                    <div className="flex shrink-0 flex-wrap gap-2 pl-6 sm:pl-0">
                      {doc.waitsForFee ? (
                        <a href="#fee" className="inline-flex min-h-11 items-center gap-1.5 rounded-lg bg-accent-50 px-3 text-sm font-semibold text-accent-700 hover:underline">
                          <Lock className="size-4" aria-hidden="true" />
                          {FEE_TEXTS.finalCopiesLocked}
                        </a>
                      ) : (
                        // A plain link, not the router's: the browser downloads the file.
                        <a
                          href={`/documents/${doc.id}`}
                          download={doc.name}
                          className="inline-flex min-h-11 items-center gap-1.5 rounded-lg border border-primary-600 px-3 text-sm font-semibold text-primary-700 hover:bg-primary-50"
                        >
                          <Download className="size-4" aria-hidden="true" />
                          Download<span className="sr-only">{` ${doc.name}`}</span>
                        </a>
                      )}
                      {doc.mine && !doc.accepted && documentsOpen ? (
                        <remover.Form method="post" action={`/my-tax-filing/${taxYear}`}>
                          <input type="hidden" name="intent" value="remove" />
                          <input type="hidden" name="documentIds" value={doc.id} />
                          <button
                            type="submit"
                            disabled={removing === doc.id}
                            className="inline-flex min-h-11 items-center gap-1.5 rounded-lg px-3 text-sm font-semibold text-red-700 hover:bg-red-50 disabled:opacity-60"
                          >
                            <Trash2 className="size-4" aria-hidden="true" />
                            {removing === doc.id ? "Removing..." : "Remove"}
                            <span className="sr-only">{` ${doc.name}`}</span>
                          </button>
                        </remover.Form>
                      ) : null}
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          );
        })
      )}
    </div>
  );
}
