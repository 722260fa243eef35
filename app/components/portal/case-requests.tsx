import {
  Ban,
  CheckCircle2,
  ChevronDown,
  CircleDashed,
  CircleSlash,
  Download,
  FileText,
  Hourglass,
  ListChecks,
  RotateCcw,
  Undo2,
} from "lucide-react";
import type { LucideIcon } from "lucide-react";
import { useId, useState } from "react";
import { useFetcher, useSearchParams } from "react-router";
import { EnhancedField } from "~/components/enhanced-field";
import { Button } from "~/components/ui/button";
import { Alert, Textarea } from "~/components/ui/field";
import { formatKb } from "~/domain/documents";
import {
  ANSWER_LABELS,
  ANSWERABLE_STATES,
  CLIENT_ANSWERS,
  CLIENT_STATE_LABELS,
  FINISHED_STATES,
  MAX_REQUEST_NOTE_LENGTH,
  UPLOADABLE_STATES,
  WITHDRAWABLE_STATES,
  clientRequestSummary,
  clientRequestsPath,
  isOutstanding,
  requestResultFromSearch,
  stateIn,
} from "~/domain/requests";
import type { ClientRequestView, RequestResult, RequestState } from "~/domain/requests";
import { formatUsDate } from "~/domain/taxpayer";
import { DocumentUploader } from "./document-uploader";
import { FilingPanel } from "./filing-panel";

const STATE_STYLES: Record<RequestState, { className: string; Icon: LucideIcon }> = {
  requested: { className: "border-accent-500 bg-accent-50 text-accent-700", Icon: CircleDashed },
  returned: { className: "border-red-300 bg-red-50 text-red-800", Icon: RotateCcw },
  uploaded: { className: "border-primary-200 bg-primary-50 text-primary-800", Icon: Hourglass },
  "not-applicable": { className: "border-line bg-surface text-ink-soft", Icon: CircleSlash },
  unavailable: { className: "border-line bg-surface text-ink-soft", Icon: Ban },
  received: { className: "border-green-300 bg-green-50 text-green-800", Icon: CheckCircle2 },
};

/** An item's state as a badge: its colour, an icon and the words (colour is never the only sign). */
export function RequestStateBadge({ state, label }: { state: RequestState; label: string }) {
  const { className, Icon } = STATE_STYLES[state];
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-full border px-2.5 py-1 text-sm font-semibold ${className}`}
    >
      <Icon className="size-4" aria-hidden="true" />
      <span className="sr-only">Status: </span>
      {label}
    </span>
  );
}

/**
 * "What we need from you" on a filing's page: the items the firm asked for, each with its
 * state, what to send, why it was sent back, the files sent against it, an upload, and the two
 * answers other than a file ("doesn't apply", "can't get it", with a note). The answers are
 * plain forms that work without JavaScript (the page comes back with the answer in its
 * address); with JavaScript they are answered in place.
 *
 * Items finished when the page is opened (received, or "doesn't apply") are folded into a
 * "Finished (N)" disclosure, so what is still to do comes first and the page stays short. An
 * item that changes while the page is open stays where it is, with its answer, until the next
 * visit (the caller keys the list by year, so another year's page starts afresh).
 */
export function CaseRequests({
  taxYear,
  items,
  documentsOpen,
}: {
  taxYear: number;
  items: readonly ClientRequestView[];
  /** Whether the client may still add documents to this year (uploads against items too). */
  documentsOpen: boolean;
}) {
  const [search] = useSearchParams();
  const posted = requestResultFromSearch(search);
  const postedForList = posted && !items.some((i) => i.id === posted.requestId) ? posted : undefined;
  const [foldedIds] = useState(() => new Set(items.filter((i) => stateIn(i.state, FINISHED_STATES)).map((i) => i.id)));
  const current = items.filter((i) => !foldedIds.has(i.id));
  const finished = items.filter((i) => foldedIds.has(i.id));
  const finishedId = useId();
  const renderItem = (item: ClientRequestView) => (
    <RequestItem
      key={item.id}
      taxYear={taxYear}
      item={item}
      documentsOpen={documentsOpen}
      posted={posted?.requestId === item.id ? posted : undefined}
    />
  );
  // Every item answered when the page is opened: the part is folded (and stays as it is while the
  // page is open, like the items).
  const [folded] = useState(() => items.length > 0 && !items.some((i) => isOutstanding(i.state)));
  return (
    <FilingPanel
      id="requests-title"
      anchor="requests"
      title="What we need from you"
      icon={<ListChecks className="size-5" aria-hidden="true" />}
      done={folded ? `All ${items.length === 1 ? "the item" : `${items.length.toLocaleString("en-US")} items`} answered.` : null}
      open={posted !== null}
    >
      <p className="font-medium text-ink" data-testid="requests-summary">
        {clientRequestSummary(items)}
      </p>
      {postedForList ? (
        <div className="mt-4">
          <Alert tone={postedForList.tone}>{postedForList.message}</Alert>
        </div>
      ) : null}
      {current.length > 0 ? <ol className="mt-4 space-y-4">{current.map(renderItem)}</ol> : null}
      {finished.length > 0 ? (
        <details
          className="group mt-4 rounded-xl border border-line"
          open={finished.some((i) => i.id === posted?.requestId) || undefined}
        >
          <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 px-4 font-semibold text-ink hover:bg-surface [&::-webkit-details-marker]:hidden">
            <span id={finishedId}>{`Finished (${finished.length.toLocaleString("en-US")})`}</span>
            <ChevronDown className="size-4 shrink-0 transition-transform group-open:rotate-180 motion-reduce:transition-none" aria-hidden="true" />
          </summary>
          <ol aria-labelledby={finishedId} className="space-y-4 border-t border-line p-3 sm:p-4">
            {finished.map(renderItem)}
          </ol>
        </details>
      ) : null}
    </FilingPanel>
  );
}

function RequestItem({
  taxYear,
  item,
  documentsOpen,
  posted,
}: {
  taxYear: number;
  item: ClientRequestView;
  documentsOpen: boolean;
  /** The answer to a post about this item made without JavaScript. */
  posted?: RequestResult;
}) {
  const fetcher = useFetcher<RequestResult>();
  const ids = useId();
  const busy = fetcher.state !== "idle" ? fetcher.formData?.get("intent") : null;
  const result = fetcher.state === "idle" ? (fetcher.data ?? posted) : undefined;
  const titleId = `${ids}-title`;
  const noteId = `${ids}-note`;
  const noteHintId = `${ids}-note-hint`;
  const errorId = `${ids}-error`;
  const answerProblem = result?.tone === "error" && (result.code.startsWith("note-") || result.code === "choose-answer");
  const answerable = stateIn(item.state, ANSWERABLE_STATES);
  const answered = item.state === "not-applicable" || item.state === "unavailable";
  const action = clientRequestsPath(taxYear);

  return (
    <li
      id={`request-${item.id}`}
      aria-labelledby={titleId}
      className="scroll-mt-24 rounded-xl border border-line p-4"
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <h3 id={titleId} className="min-w-0 text-base font-semibold break-words text-ink">
          {item.title}
        </h3>
        <div className="sm:pt-0.5">
          <RequestStateBadge state={item.state} label={CLIENT_STATE_LABELS[item.state]} />
        </div>
      </div>
      {item.detail ? <p className="mt-1.5 break-words text-ink-soft">{item.detail}</p> : null}

      {item.state === "returned" && item.returnReason ? (
        <div className="mt-3 rounded-lg border border-accent-500 bg-accent-50 px-4 py-3 text-sm text-ink">
          <p className="font-semibold text-accent-700">Why we sent it back</p>
          <p className="mt-1 break-words whitespace-pre-wrap">{item.returnReason}</p>
        </div>
      ) : null}
      {answered && item.clientNote ? (
        <div className="mt-3 rounded-lg bg-surface px-4 py-3 text-sm text-ink">
          <p className="font-semibold text-ink-soft">Your note</p>
          <p className="mt-1 break-words whitespace-pre-wrap">{item.clientNote}</p>
        </div>
      ) : null}

      {item.files.length > 0 ? (
        <ul className="mt-3 divide-y divide-line rounded-lg border border-line" aria-label={`Files sent for ${item.title}`}>
          {item.files.map((file) => (
            <li key={file.id} className="flex flex-col gap-2 px-3 py-2 sm:flex-row sm:items-center sm:justify-between">
              <div className="flex min-w-0 items-start gap-2">
                <FileText className="mt-0.5 size-4 shrink-0 text-primary-600" aria-hidden="true" />
                <div className="min-w-0">
                  <p className="text-sm font-medium break-all text-ink">{file.name}</p>
                  <p className="text-xs text-ink-muted">
                    {formatKb(file.size)} · {formatUsDate(file.uploadedAt)}
                  </p>
                </div>
              </div>
              <a
                href={`/documents/${file.id}`}
                download={file.name}
                className="inline-flex min-h-11 shrink-0 items-center gap-1.5 self-start rounded-lg px-3 text-sm font-semibold text-primary-700 hover:bg-primary-50 sm:self-auto"
              >
                <Download className="size-4" aria-hidden="true" />
                Download<span className="sr-only">{` ${file.name}`}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}

      <div aria-live="polite" className="mt-3 empty:hidden">
        {result && !answerProblem ? <Alert tone={result.tone}>{result.message}</Alert> : null}
      </div>

      {documentsOpen && stateIn(item.state, UPLOADABLE_STATES) ? (
        <div className="mt-3">
          <DocumentUploader
            taxYear={taxYear}
            request={{ id: item.id, title: item.title, category: item.category }}
            present={item.files.map((file) => file.id)}
          />
        </div>
      ) : null}

      {answerable ? (
        <details className="group mt-3 rounded-lg border border-line" open={answerProblem || undefined}>
          <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 px-3 text-sm font-semibold text-primary-700 hover:bg-primary-50 [&::-webkit-details-marker]:hidden">
            <span>
              Doesn&apos;t apply to you, or you can&apos;t get it?<span className="sr-only">{` (${item.title})`}</span>
            </span>
            <ChevronDown className="size-4 shrink-0 transition-transform group-open:rotate-180 motion-reduce:transition-none" aria-hidden="true" />
          </summary>
          <fetcher.Form method="post" action={action} className="space-y-3 border-t border-line p-3">
            <input type="hidden" name="intent" value="answer" />
            <input type="hidden" name="requestId" value={item.id} />
            <EnhancedField />
            <fieldset aria-describedby={answerProblem && result?.code === "choose-answer" ? errorId : undefined}>
              <legend className="text-sm font-medium text-ink">Your answer</legend>
              <div className="mt-1 flex flex-col sm:flex-row sm:gap-6">
                {CLIENT_ANSWERS.map((answer) => (
                  <label key={answer} className="flex min-h-11 cursor-pointer items-center gap-2 text-ink">
                    <input type="radio" name="answer" value={answer} required className="size-5 shrink-0 accent-primary-600" />
                    {ANSWER_LABELS[answer]}
                  </label>
                ))}
              </div>
            </fieldset>
            <div>
              <label htmlFor={noteId} className="mb-1.5 block text-sm font-medium text-ink">
                Your note
              </label>
              <Textarea
                id={noteId}
                name="note"
                rows={3}
                required
                maxLength={MAX_REQUEST_NOTE_LENGTH}
                aria-invalid={answerProblem && result?.code.startsWith("note-") ? true : undefined}
                aria-describedby={answerProblem ? `${errorId} ${noteHintId}` : noteHintId}
              />
              <p id={noteHintId} className="mt-1 text-sm text-ink-muted">
                {`Tell us why in a sentence or two (at most ${MAX_REQUEST_NOTE_LENGTH.toLocaleString("en-US")} characters). We read every note.`}
              </p>
            </div>
            {answerProblem && result ? (
              <p id={errorId} role="alert" className="text-sm font-medium text-red-700">
                {result.message}
              </p>
            ) : null}
            <Button type="submit" className="min-h-11" disabled={busy === "answer"} busy={busy === "answer"}>
              {busy === "answer" ? "Sending..." : "Send answer"}
            </Button>
          </fetcher.Form>
        </details>
      ) : null}

      {stateIn(item.state, WITHDRAWABLE_STATES) ? (
        <fetcher.Form method="post" action={action} className="mt-3">
          <input type="hidden" name="intent" value="withdraw" />
          <input type="hidden" name="requestId" value={item.id} />
          <EnhancedField />
          <Button type="submit" variant="secondary" className="min-h-11" disabled={busy === "withdraw"} busy={busy === "withdraw"}>
            {busy === "withdraw" ? null : <Undo2 className="size-4" aria-hidden="true" />}
            {busy === "withdraw" ? "Taking it back..." : "Take back my answer"}
            <span className="sr-only">{` for ${item.title}`}</span>
          </Button>
        </fetcher.Form>
      ) : null}
    </li>
  );
}
