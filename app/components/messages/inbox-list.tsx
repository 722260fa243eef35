import { AlarmClock, ChevronLeft, ChevronRight, MessagesSquare } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link, useSubmit } from "react-router";
import { pageItems } from "~/components/admin/pagination";
import { useFollowingState } from "~/components/hooks";
import { Select } from "~/components/portal/select-field";
import { Button } from "~/components/ui/button";
import { LocalTime } from "~/components/ui/local-time";
import {
  INBOX_FILTER_LABELS,
  INBOX_FILTERS,
  inboxHref,
  inboxShowingText,
  staffMessagesPath,
  waitedText,
} from "~/domain/messages";
import type { InboxQuery, InboxRow } from "~/domain/messages";
import { REPLY_WITHIN_BUSINESS_DAYS } from "~/domain/business-days";

export type InboxListProps = {
  query: InboxQuery;
  rows: readonly InboxRow[];
  matching: number;
  pageCount: number;
  /** The tax years to choose from, newest first. */
  years: readonly number[];
  /** The clients' unread messages per tax year (every year, for "unread in other years"). */
  unreadByYear: Readonly<Record<number, number>>;
};

const pill =
  "inline-flex min-h-11 items-center gap-2 rounded-full border px-4 text-sm font-semibold sm:min-h-9";

/**
 * The staff inbox: the year (a plain GET form), the filters (links: the state lives in the URL),
 * one page of conversations, "Showing X-Y of Z conversations" and the page links. Each
 * conversation is a card: who, the newest message, how long the client has waited, the unread
 * count and the assignee.
 */
export function InboxList({ query, rows, matching, pageCount, years, unreadByYear }: InboxListProps) {
  const otherYears = Object.entries(unreadByYear)
    .map(([year, n]) => ({ year: Number(year), n }))
    .filter((y) => y.year !== query.year && y.n > 0)
    .sort((a, b) => b.year - a.year);
  const thisYearUnread = unreadByYear[query.year] ?? 0;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-4 rounded-[var(--radius-card)] border border-line bg-white p-4 shadow-card sm:p-5">
        <nav aria-label="Filter conversations">
          <ul className="flex flex-wrap gap-2">
            {INBOX_FILTERS.map((filter) => {
              const current = filter === query.filter;
              const label =
                filter === "unread" && thisYearUnread > 0
                  ? `${INBOX_FILTER_LABELS.unread} (${thisYearUnread})`
                  : INBOX_FILTER_LABELS[filter];
              return (
                <li key={filter}>
                  <Link
                    to={inboxHref(query, { filter, page: 1 })}
                    aria-current={current ? "page" : undefined}
                    className={`${pill} ${
                      current
                        ? "border-primary-600 bg-primary-600 text-white"
                        : "border-line bg-white text-primary-700 hover:border-primary-600 hover:bg-primary-50"
                    }`}
                  >
                    {filter === "waiting" ? <AlarmClock className="size-4" aria-hidden="true" /> : null}
                    {label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <YearForm query={query} years={years} />
      </div>

      {otherYears.length > 0 ? (
        <p className="text-sm text-ink-soft">
          Unread in other years:{" "}
          {otherYears.map((y, i) => (
            <span key={y.year}>
              {i > 0 ? ", " : null}
              <Link
                to={inboxHref(query, { year: y.year, filter: "unread", page: 1 })}
                className="font-semibold text-primary-700 underline underline-offset-2"
              >
                {`${y.year} (${y.n})`}
              </Link>
            </span>
          ))}
        </p>
      ) : null}

      {rows.length === 0 ? (
        <p className="rounded-[var(--radius-card)] border border-line bg-white px-5 py-10 text-center text-ink-soft shadow-card">
          {query.filter === "waiting"
            ? `No client of ${query.year} has waited more than ${REPLY_WITHIN_BUSINESS_DAYS} business days for a reply.`
            : query.filter === "unread"
              ? `No unread messages in ${query.year}.`
              : `No conversations in ${query.year} yet.`}
        </p>
      ) : (
        <ul className="space-y-3" aria-label="Conversations">
          {rows.map((row) => (
            <li key={`${row.clientId}/${row.taxYear}`}>
              <InboxCard row={row} />
            </li>
          ))}
        </ul>
      )}

      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-ink-soft">
          {inboxShowingText(query.page, matching)}
        </p>
        {pageCount > 1 ? <InboxPages query={query} pageCount={pageCount} /> : null}
      </div>
    </div>
  );
}

function YearForm({ query, years }: { query: InboxQuery; years: readonly number[] }) {
  const submit = useSubmit();
  const [year, setYear] = useFollowingState(String(query.year));
  return (
    <Form method="get" action="/admin/inbox" className="flex items-end gap-2">
      {query.filter !== "all" ? <input type="hidden" name="filter" value={query.filter} /> : null}
      <div>
        <label htmlFor="inbox-year" className="mb-1.5 block text-sm font-medium text-ink">
          Tax year
        </label>
        <Select
          id="inbox-year"
          name="year"
          value={year}
          className="min-h-11 min-w-28"
          onChange={(event) => {
            setYear(event.currentTarget.value);
            void submit(event.currentTarget.form, { preventScrollReset: true });
          }}
        >
          {years.map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </Select>
      </div>
      <noscript>
        <Button type="submit" variant="secondary" className="min-h-11">
          Show
        </Button>
      </noscript>
    </Form>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-ink-muted uppercase">{label}</dt>
      <dd className="mt-0.5 text-sm break-words text-ink">{children}</dd>
    </div>
  );
}

function InboxCard({ row }: { row: InboxRow }) {
  const titleId = `conversation-${row.clientId}-${row.taxYear}`;
  return (
    <article
      aria-labelledby={titleId}
      className={`rounded-[var(--radius-card)] border bg-white p-4 shadow-card sm:p-5 ${row.overdue ? "border-accent-500" : "border-line"}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 id={titleId} className="min-w-0 text-base font-semibold break-words">
          <Link
            to={staffMessagesPath(row.clientId, row.taxYear)}
            className="inline-flex min-h-11 items-center gap-2 text-primary-700 underline-offset-2 hover:underline sm:min-h-0"
          >
            <MessagesSquare className="size-4 shrink-0" aria-hidden="true" />
            <span>
              <span className="tabular-nums">{row.code}</span> {row.name}
            </span>
          </Link>
        </h2>
        <div className="flex flex-wrap gap-2">
          {row.unread > 0 ? (
            <span className="rounded-full bg-primary-600 px-2.5 py-1 text-xs font-semibold text-white">
              {`${row.unread} unread`}
            </span>
          ) : null}
          {row.overdue ? (
            <span className="inline-flex items-center gap-1 rounded-full border border-accent-500 bg-accent-50 px-2.5 py-1 text-xs font-semibold text-accent-700">
              <AlarmClock className="size-3.5" aria-hidden="true" />
              {`Over ${REPLY_WITHIN_BUSINESS_DAYS} business days`}
            </span>
          ) : null}
        </div>
      </div>
      <dl className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Detail label="Last message">
          <LocalTime iso={row.lastMessageAt} />
          <span className="block text-ink-muted">{row.lastFromClient ? "From the client" : "From staff"}</span>
        </Detail>
        <Detail label="Client waiting">
          {row.waitingSince && row.waitedDays !== null ? (
            <>
              {waitedText(row.waitedDays)}
              <span className="block text-ink-muted">
                since <LocalTime iso={row.waitingSince} />
              </span>
            </>
          ) : (
            "No: answered"
          )}
        </Detail>
        <Detail label="Unread">{row.unread}</Detail>
        <Detail label="Assigned to">{row.assignee ?? "Not assigned"}</Detail>
      </dl>
    </article>
  );
}

const itemBase =
  "inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-lg border px-3 text-sm font-semibold";

function InboxPages({ query, pageCount }: { query: InboxQuery; pageCount: number }) {
  const current = Math.min(Math.max(query.page, 1), pageCount);
  const href = (page: number) => inboxHref(query, { page });
  const link = `${itemBase} border-line bg-white text-primary-700 hover:border-primary-600 hover:bg-primary-50`;
  const off = `${itemBase} cursor-not-allowed border-line bg-surface text-ink-muted`;
  return (
    <nav aria-label="Pagination">
      <ul className="flex flex-wrap items-center gap-1.5">
        <li>
          {current > 1 ? (
            <Link to={href(current - 1)} className={link}>
              <ChevronLeft className="size-4" aria-hidden="true" />
              Previous
            </Link>
          ) : (
            <span className={off} role="link" aria-disabled="true">
              <ChevronLeft className="size-4" aria-hidden="true" />
              Previous
            </span>
          )}
        </li>
        {pageItems(current, pageCount).map((item, i) =>
          item === "gap" ? (
            <li key={`gap-${i}`} className="px-1 text-ink-muted" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item}>
              <Link
                to={href(item)}
                aria-label={`Page ${item}`}
                aria-current={item === current ? "page" : undefined}
                className={item === current ? `${itemBase} border-primary-600 bg-primary-600 text-white` : link}
              >
                {item}
              </Link>
            </li>
          ),
        )}
        <li>
          {current < pageCount ? (
            <Link to={href(current + 1)} className={link}>
              Next
              <ChevronRight className="size-4" aria-hidden="true" />
            </Link>
          ) : (
            <span className={off} role="link" aria-disabled="true">
              Next
              <ChevronRight className="size-4" aria-hidden="true" />
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
