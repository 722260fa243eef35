import { ChevronDown, Download, FileText, ListChecks, Plus, RotateCcw, Trash2 } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { useFetcher, useSearchParams } from "react-router";
import { EnhancedField } from "~/components/enhanced-field";
import { RequestStateBadge } from "~/components/portal/case-requests";
import { Select } from "~/components/portal/select-field";
import { Button } from "~/components/ui/button";
import { Alert, Input, Textarea } from "~/components/ui/field";
import { LocalTime } from "~/components/ui/local-time";
import { DASHBOARD_PATH } from "~/domain/admin-links";
import { DOCUMENT_CATEGORIES, categoryLabel, formatKb } from "~/domain/documents";
import {
  MAX_REQUEST_DETAIL_LENGTH,
  MAX_REQUEST_TITLE_LENGTH,
  MAX_RETURN_REASON_LENGTH,
  RECEIVABLE_STATES,
  RETURNABLE_STATES,
  STAFF_STATE_LABELS,
  requestResultFromSearch,
  staffRequestSummary,
  staffRequestsPath,
  stateIn,
} from "~/domain/requests";
import type { RequestCode, RequestResult, StaffRequestView } from "~/domain/requests";
import { CaseSection } from "./case-section";

/** A template staff may start from: its name and how many items it holds. */
export type TemplateChoice = { id: string; label: string; items: number };

const TEMPLATE_CODES: ReadonlySet<RequestCode> = new Set(["template-added", "template-nothing", "choose-template"]);
const ITEM_FIELD_CODES: Readonly<Partial<Record<RequestCode, "title" | "detail" | "category">>> = {
  "title-empty": "title",
  "title-too-long": "title",
  "title-invalid": "title",
  "title-exists": "title",
  "detail-too-long": "detail",
  "detail-invalid": "detail",
  "choose-category": "category",
};
const ITEM_CODES: ReadonlySet<RequestCode> = new Set(["item-added", ...Object.keys(ITEM_FIELD_CODES)] as RequestCode[]);

/**
 * What the firm has asked the client for in this case: start the list from a template (the
 * ones that suit the client's visa first), add items of your own, and review the client's
 * answers: mark an item received, return it with a reason the client reads, or remove one the
 * client never answered. Plain forms that work without JavaScript; with it, answered in place.
 */
export function RequestsSection({
  clientId,
  taxYear,
  back,
  items,
  templates,
}: {
  clientId: string;
  taxYear: number;
  back: string;
  items: readonly StaffRequestView[];
  templates: { suggested: readonly TemplateChoice[]; others: readonly TemplateChoice[] };
}) {
  const [search] = useSearchParams();
  const posted = requestResultFromSearch(search);
  const action = `${staffRequestsPath(clientId, taxYear)}${back === DASHBOARD_PATH ? "" : `?back=${encodeURIComponent(back)}`}`;
  const postedFor = (codes: ReadonlySet<RequestCode>) => (posted && codes.has(posted.code) ? posted : undefined);
  const postedForList =
    posted && !TEMPLATE_CODES.has(posted.code) && !ITEM_CODES.has(posted.code) && !items.some((i) => i.id === posted.requestId)
      ? posted
      : undefined;

  return (
    <CaseSection
      id="requests"
      title="What we need from the client"
      icon={<ListChecks className="size-5" aria-hidden="true" />}
      lead={staffRequestSummary(items)}
    >
      {postedForList ? (
        <div className="mb-4">
          <Alert tone={postedForList.tone}>{postedForList.message}</Alert>
        </div>
      ) : null}
      {items.length === 0 ? (
        <p className="text-ink-soft">
          Nothing has been asked of the client for this year. Start from a template or add an item below: the
          client is e-mailed a link to the list.
        </p>
      ) : (
        <ol className="space-y-3">
          {items.map((item) => (
            <StaffItem
              key={item.id}
              item={item}
              action={action}
              posted={posted?.requestId === item.id ? posted : undefined}
            />
          ))}
        </ol>
      )}
      <div className="mt-5 grid gap-4 lg:grid-cols-2">
        <TemplateForm action={action} templates={templates} posted={postedFor(TEMPLATE_CODES)} />
        <AddItemForm action={action} posted={postedFor(ITEM_CODES)} />
      </div>
    </CaseSection>
  );
}

function StaffItem({ item, action, posted }: { item: StaffRequestView; action: string; posted?: RequestResult }) {
  const fetcher = useFetcher<RequestResult>();
  const ids = useId();
  const busy = fetcher.state !== "idle" ? fetcher.formData?.get("intent") : null;
  const result = fetcher.state === "idle" ? (fetcher.data ?? posted) : undefined;
  const reasonProblem = result?.tone === "error" && result.code.startsWith("reason-");
  const titleId = `${ids}-title`;
  const reasonId = `${ids}-reason`;
  const reasonErrorId = `${ids}-reason-error`;

  return (
    <li id={`request-${item.id}`} aria-labelledby={titleId} className="scroll-mt-24 rounded-xl border border-line p-3 sm:p-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="min-w-0">
          <h3 id={titleId} className="font-semibold break-words text-ink">
            {item.title}
          </h3>
          <p className="mt-0.5 text-sm text-ink-muted">
            {`Files go to ${categoryLabel(item.category)} · ${item.template ? "from a template" : "written by staff"} · asked `}
            <LocalTime iso={item.createdAt} format="date" />
          </p>
        </div>
        <RequestStateBadge state={item.state} label={STAFF_STATE_LABELS[item.state]} />
      </div>
      {item.detail ? <p className="mt-1.5 text-sm break-words text-ink-soft">{item.detail}</p> : null}
      {item.clientNote ? (
        <div className="mt-2 rounded-lg bg-surface px-3 py-2 text-sm text-ink">
          <p className="font-semibold text-ink-soft">The client&apos;s note</p>
          <p className="mt-0.5 break-words whitespace-pre-wrap">{item.clientNote}</p>
        </div>
      ) : null}
      {item.returnReason ? (
        <div className="mt-2 rounded-lg border border-accent-500 bg-accent-50 px-3 py-2 text-sm text-ink">
          <p className="font-semibold text-accent-700">
            {item.state === "returned" ? "Returned: the reason the client reads" : "Returned before, with this reason"}
          </p>
          <p className="mt-0.5 break-words whitespace-pre-wrap">{item.returnReason}</p>
        </div>
      ) : null}
      {item.reviewedBy && item.reviewedAt ? (
        <p className="mt-2 text-sm text-ink-muted">
          {`Last reviewed by ${item.reviewedBy}, `}
          <LocalTime iso={item.reviewedAt} />
        </p>
      ) : null}
      {item.files.length > 0 ? (
        <ul className="mt-2 divide-y divide-line rounded-lg border border-line" aria-label={`Files for ${item.title}`}>
          {item.files.map((file) => (
            <li key={file.id} className="flex flex-col gap-2 px-3 py-2 sm:flex-row sm:items-center sm:justify-between">
              <div className="flex min-w-0 items-start gap-2">
                <FileText className="mt-0.5 size-4 shrink-0 text-primary-600" aria-hidden="true" />
                <div className="min-w-0">
                  <p className="text-sm font-medium break-all text-ink">{file.name}</p>
                  <p className="text-xs text-ink-muted">
                    {formatKb(file.size)} · <LocalTime iso={file.uploadedAt} />
                  </p>
                </div>
              </div>
              <a
                href={`/documents/${file.id}`}
                download={file.name}
                className="inline-flex min-h-11 shrink-0 items-center gap-1.5 self-start rounded-lg px-3 text-sm font-semibold text-primary-700 hover:bg-primary-50 sm:min-h-0 sm:self-auto sm:py-1.5"
              >
                <Download className="size-4" aria-hidden="true" />
                Download<span className="sr-only">{` ${file.name}`}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}

      <div aria-live="polite" className="mt-2 empty:hidden">
        {result && !reasonProblem ? <Alert tone={result.tone}>{result.message}</Alert> : null}
      </div>

      <div className="mt-3 flex flex-wrap items-start gap-2">
        {stateIn(item.state, RECEIVABLE_STATES) ? (
          <fetcher.Form method="post" action={action}>
            <input type="hidden" name="intent" value="receive" />
            <input type="hidden" name="requestId" value={item.id} />
            <EnhancedField />
            <Button
              type="submit"
              size="sm"
              className="min-h-11 sm:min-h-0"
              disabled={busy === "receive"}
              busy={busy === "receive"}
              aria-label={`Mark received: ${item.title}`}
            >
              Mark received
            </Button>
          </fetcher.Form>
        ) : null}
        {item.removable ? (
          <fetcher.Form method="post" action={action}>
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="requestId" value={item.id} />
            <EnhancedField />
            <Button
              type="submit"
              size="sm"
              variant="ghost"
              className="min-h-11 text-red-700 hover:bg-red-50 sm:min-h-0"
              disabled={busy === "remove"}
              busy={busy === "remove"}
              aria-label={`Remove: ${item.title}`}
            >
              {busy === "remove" ? null : <Trash2 className="size-4" aria-hidden="true" />}
              Remove
            </Button>
          </fetcher.Form>
        ) : null}
      </div>

      {stateIn(item.state, RETURNABLE_STATES) ? (
        <details className="group mt-3 rounded-lg border border-line" open={reasonProblem || undefined}>
          <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 px-3 text-sm font-semibold text-primary-700 hover:bg-primary-50 sm:min-h-9 [&::-webkit-details-marker]:hidden">
            <span className="inline-flex items-center gap-1.5">
              <RotateCcw className="size-4" aria-hidden="true" />
              Return with a reason
              <span className="sr-only">{` (${item.title})`}</span>
            </span>
            <ChevronDown className="size-4 shrink-0 transition-transform group-open:rotate-180 motion-reduce:transition-none" aria-hidden="true" />
          </summary>
          <fetcher.Form method="post" action={action} className="space-y-3 border-t border-line p-3">
            <input type="hidden" name="intent" value="return" />
            <input type="hidden" name="requestId" value={item.id} />
            <EnhancedField />
            <div>
              <label htmlFor={reasonId} className="mb-1.5 block text-sm font-medium text-ink">
                Why are you returning it? The client reads this.
              </label>
              <Textarea
                id={reasonId}
                name="reason"
                rows={3}
                required
                maxLength={MAX_RETURN_REASON_LENGTH}
                aria-invalid={reasonProblem ? true : undefined}
                aria-describedby={reasonProblem ? reasonErrorId : undefined}
              />
              {reasonProblem && result ? (
                <p id={reasonErrorId} role="alert" className="mt-1 text-sm font-medium text-red-700">
                  {result.message}
                </p>
              ) : null}
            </div>
            <Button type="submit" size="sm" className="min-h-11 sm:min-h-0" disabled={busy === "return"} busy={busy === "return"}>
              Return to the client
            </Button>
          </fetcher.Form>
        </details>
      ) : null}
    </li>
  );
}

function TemplateForm({
  action,
  templates,
  posted,
}: {
  action: string;
  templates: { suggested: readonly TemplateChoice[]; others: readonly TemplateChoice[] };
  posted?: RequestResult;
}) {
  const fetcher = useFetcher<RequestResult>();
  const busy = fetcher.state !== "idle";
  const result = fetcher.state === "idle" ? (fetcher.data ?? posted) : undefined;
  const problem = result?.code === "choose-template";
  const option = (t: TemplateChoice) => (
    <option key={t.id} value={t.id}>
      {`${t.label} (${t.items} items)`}
    </option>
  );
  return (
    <fetcher.Form method="post" action={action} className="space-y-3 rounded-xl border border-line bg-surface p-4">
      <input type="hidden" name="intent" value="add-template" />
      <EnhancedField />
      <div>
        <label htmlFor="request-template" className="mb-1.5 block text-sm font-medium text-ink">
          Start from a template
        </label>
        <Select
          id="request-template"
          name="template"
          defaultValue={templates.suggested[0]?.id ?? ""}
          className="min-h-11"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? "request-template-error request-template-hint" : "request-template-hint"}
        >
          <option value="">Choose a template</option>
          {templates.suggested.length > 0 ? (
            <optgroup label="Suggested for the client's visa">{templates.suggested.map(option)}</optgroup>
          ) : null}
          <optgroup label={templates.suggested.length > 0 ? "Other templates" : "Templates"}>
            {templates.others.map(option)}
          </optgroup>
        </Select>
        <p id="request-template-hint" className="mt-1 text-sm text-ink-muted">
          Items already on the list are not added again.
        </p>
        {problem && result ? (
          <p id="request-template-error" className="mt-1 text-sm font-medium text-red-700">
            {result.message}
          </p>
        ) : null}
      </div>
      <div aria-live="polite" className="empty:hidden">
        {result && !problem ? <Alert tone={result.tone}>{result.message}</Alert> : null}
      </div>
      <Button type="submit" size="sm" className="min-h-11 sm:min-h-0" disabled={busy} busy={busy}>
        {busy ? null : <ListChecks className="size-4" aria-hidden="true" />}
        Add the template&apos;s items
      </Button>
    </fetcher.Form>
  );
}

function AddItemForm({ action, posted }: { action: string; posted?: RequestResult }) {
  const fetcher = useFetcher<RequestResult>();
  const form = useRef<HTMLFormElement>(null);
  const busy = fetcher.state !== "idle";
  const result = fetcher.state === "idle" ? (fetcher.data ?? posted) : undefined;
  const field = result ? ITEM_FIELD_CODES[result.code] : undefined;
  // An item added: the form is empty again for the next one.
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.code === "item-added") form.current?.reset();
  }, [fetcher.state, fetcher.data]);

  const described = (name: "title" | "detail" | "category", hint?: string) => ({
    "aria-invalid": field === name ? true : undefined,
    "aria-describedby": [field === name ? `request-new-${name}-error` : null, hint ?? null].filter(Boolean).join(" ") || undefined,
  });
  const error = (name: "title" | "detail" | "category") =>
    field === name && result ? (
      <p id={`request-new-${name}-error`} className="mt-1 text-sm font-medium text-red-700">
        {result.message}
      </p>
    ) : null;

  return (
    <fetcher.Form ref={form} method="post" action={action} className="space-y-3 rounded-xl border border-line bg-surface p-4">
      <input type="hidden" name="intent" value="add-item" />
      <EnhancedField />
      <div>
        <label htmlFor="request-new-title" className="mb-1.5 block text-sm font-medium text-ink">
          Add an item
        </label>
        <Input
          id="request-new-title"
          name="title"
          required
          maxLength={MAX_REQUEST_TITLE_LENGTH}
          autoComplete="off"
          {...described("title")}
        />
        {error("title")}
      </div>
      <div>
        <label htmlFor="request-new-detail" className="mb-1.5 block text-sm font-medium text-ink">
          What exactly to send (optional)
        </label>
        <Textarea
          id="request-new-detail"
          name="detail"
          rows={2}
          maxLength={MAX_REQUEST_DETAIL_LENGTH}
          {...described("detail", "request-new-detail-hint")}
        />
        <p id="request-new-detail-hint" className="mt-1 text-sm text-ink-muted">
          One line the client reads under the title.
        </p>
        {error("detail")}
      </div>
      <div>
        <label htmlFor="request-new-category" className="mb-1.5 block text-sm font-medium text-ink">
          The client&apos;s files go to
        </label>
        <Select
          id="request-new-category"
          name="category"
          defaultValue="other-documents"
          className="min-h-11"
          {...described("category")}
        >
          {DOCUMENT_CATEGORIES.map((c) => (
            <option key={c.key} value={c.key}>
              {c.label}
            </option>
          ))}
        </Select>
        {error("category")}
      </div>
      <div aria-live="polite" className="empty:hidden">
        {result && !field ? <Alert tone={result.tone}>{result.message}</Alert> : null}
      </div>
      <Button type="submit" size="sm" className="min-h-11 sm:min-h-0" disabled={busy} busy={busy}>
        {busy ? null : <Plus className="size-4" aria-hidden="true" />}
        Add item
      </Button>
    </fetcher.Form>
  );
}
