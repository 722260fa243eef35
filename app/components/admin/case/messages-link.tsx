import { AlarmClock, MessagesSquare } from "lucide-react";
import { ButtonLink } from "~/components/ui/button";
import { LocalTime } from "~/components/ui/local-time";
import { REPLY_WITHIN_BUSINESS_DAYS } from "~/domain/business-days";
import { staffMessagesPath } from "~/domain/messages";

export type CaseMessagesSummary = { total: number; unread: number; waitingSince: string | null; overdue: boolean };

/**
 * The case page's way into the case's conversation with the client: how many messages, how many
 * unread, and whether the client waits for a reply (and for more than the firm's reply time).
 */
export function CaseMessagesLink({
  clientId,
  taxYear,
  summary,
}: {
  clientId: string;
  taxYear: number;
  summary: CaseMessagesSummary;
}) {
  const { overdue } = summary;
  return (
    <section
      aria-labelledby="case-messages-title"
      className={`flex flex-wrap items-center justify-between gap-3 rounded-2xl border bg-white p-4 shadow-sm ${
        overdue ? "border-accent-500" : "border-line"
      }`}
    >
      <div className="flex min-w-0 items-start gap-3">
        <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
          <MessagesSquare className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <h2 id="case-messages-title" className="text-lg font-semibold tracking-tight text-ink">
            Messages with the client
          </h2>
          <p className="text-sm text-ink-muted">
            {summary.total === 0
              ? "No messages yet."
              : `${summary.total} ${summary.total === 1 ? "message" : "messages"}, ${summary.unread} unread.`}
            {summary.waitingSince ? (
              <>
                {" "}
                The client waits for a reply since <LocalTime iso={summary.waitingSince} />.
              </>
            ) : null}
          </p>
          {overdue ? (
            <p className="mt-1 inline-flex items-center gap-1 text-sm font-semibold text-accent-700">
              <AlarmClock className="size-4" aria-hidden="true" />
              {`Waiting more than ${REPLY_WITHIN_BUSINESS_DAYS} business days`}
            </p>
          ) : null}
        </div>
      </div>
      <ButtonLink
        to={staffMessagesPath(clientId, taxYear)}
        variant={summary.unread > 0 ? "primary" : "secondary"}
        className="min-h-11"
      >
        {summary.unread > 0 ? `Client messages (${summary.unread} unread)` : "Client messages"}
      </ButtonLink>
    </section>
  );
}
