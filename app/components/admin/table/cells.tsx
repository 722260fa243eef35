import { CircleCheck, CircleDashed, FileSignature, ListTodo, MessageSquare } from "lucide-react";
import type { AdminClientRow } from "~/domain/admin";
import { LETTER_BADGES, LETTER_MARKS } from "~/domain/engagement";
import { formatUsDateTime } from "../format";

const dayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const dayYearFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** "Nov 3" this year, "Nov 3, 2025" another year (read in UTC, as every date of the panel). */
export function shortDate(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "N/A";
  return (date.getUTCFullYear() === now.getUTCFullYear() ? dayFormat : dayYearFormat).format(date);
}

/** Changes within a minute of the first send are the send itself. */
const SAME_SAVE_MS = 60_000;

/** What the Tax Info cell says: whether the year's taxpayer information came in, and when it last changed. */
export function taxInfoText(
  taxInfo: AdminClientRow["taxInfo"],
  now: Date = new Date(),
): { status: string; when: string | null; title: string } {
  if (!taxInfo)
    return {
      status: "Not yet",
      when: null,
      title: "The client has not sent this year's taxpayer information.",
    };
  const changed =
    new Date(taxInfo.updatedAt).getTime() - new Date(taxInfo.submittedAt).getTime() > SAME_SAVE_MS;
  return {
    status: "Submitted",
    when: changed
      ? `changed ${shortDate(taxInfo.updatedAt, now)}`
      : `on ${shortDate(taxInfo.submittedAt, now)}`,
    title: `Submitted ${formatUsDateTime(taxInfo.submittedAt)}; last changed ${formatUsDateTime(taxInfo.updatedAt)}.`,
  };
}

/** The Tax Info cell: Submitted (and when it last changed) or Not yet. */
export function TaxInfoStatus({ taxInfo }: { taxInfo: AdminClientRow["taxInfo"] }) {
  const { status, when, title } = taxInfoText(taxInfo);
  return (
    <span className="flex flex-col" title={title}>
      {taxInfo ? (
        <span className="inline-flex items-center gap-1 font-semibold whitespace-nowrap text-emerald-800">
          <CircleCheck className="size-3.5 shrink-0" aria-hidden="true" />
          {status}
        </span>
      ) : (
        <span className="inline-flex items-center gap-1 whitespace-nowrap text-ink-muted">
          <CircleDashed className="size-3.5 shrink-0" aria-hidden="true" />
          {status}
        </span>
      )}
      {when ? <span className="text-xs whitespace-nowrap text-ink-muted">{when}</span> : null}
    </span>
  );
}

/** "2 new": the client's uploads since this staff member last opened the case (nothing when none). */
export function NewUploadsBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  const noun = count === 1 ? "upload" : "uploads";
  return (
    <span
      className="inline-flex items-center rounded-full border border-accent-500 bg-accent-50 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-accent-700"
      title={`${count} new ${noun} from the client since you last opened this case's documents`}
    >
      <span aria-hidden="true">{`${count} new`}</span>
      <span className="sr-only">{`${count} new ${noun} from the client since you last opened this case's documents`}</span>
    </span>
  );
}

/**
 * What waits on the case: the requested items the client still owes ("3 needed") and the
 * client's messages nobody on the staff has read ("2 unread"). Nothing when neither.
 */
export function CaseBadges({
  outstandingRequests,
  unreadMessages,
  letter,
}: Pick<AdminClientRow, "outstandingRequests" | "unreadMessages" | "letter">) {
  if (outstandingRequests <= 0 && unreadMessages <= 0 && letter === null) return null;
  const owed = `${outstandingRequests} requested ${outstandingRequests === 1 ? "item" : "items"} the client still owes`;
  const unread = `${unreadMessages} unread ${unreadMessages === 1 ? "message" : "messages"} from the client`;
  return (
    <span className="mt-1 flex flex-wrap gap-1">
      {outstandingRequests > 0 ? (
        <span
          className="inline-flex items-center gap-1 rounded-full border border-line bg-surface px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-ink-soft"
          title={owed}
        >
          <ListTodo className="size-3 shrink-0" aria-hidden="true" />
          <span aria-hidden="true">{`${outstandingRequests} needed`}</span>
          <span className="sr-only">{owed}</span>
        </span>
      ) : null}
      {letter !== null ? (
        <span
          className="inline-flex items-center gap-1 rounded-full border border-accent-500 bg-accent-50 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-accent-700"
          title={LETTER_MARKS[letter]}
        >
          <FileSignature className="size-3 shrink-0" aria-hidden="true" />
          <span aria-hidden="true">{LETTER_BADGES[letter]}</span>
          <span className="sr-only">{LETTER_MARKS[letter]}</span>
        </span>
      ) : null}
      {unreadMessages > 0 ? (
        <span
          className="inline-flex items-center gap-1 rounded-full bg-primary-700 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-white"
          title={unread}
        >
          <MessageSquare className="size-3 shrink-0" aria-hidden="true" />
          <span aria-hidden="true">{`${unreadMessages} unread`}</span>
          <span className="sr-only">{unread}</span>
        </span>
      ) : null}
    </span>
  );
}
