import { Link } from "react-router";
import { MAIL_OUTBOX_MESSAGES } from "~/domain/mail-outbox";

/**
 * The admin dashboard's line about the e-mails that failed for good (a rejection notice, a
 * spouse's signing link, an invitation...): how many, and the link to "Undelivered e-mails",
 * where each can be sent again. Nothing when none failed, and never for a role that may not open
 * that page (the loader sends no count).
 */
export function FailedMailNotice({ failed }: { failed: number | null }) {
  if (!failed) return null;
  return (
    <section
      aria-labelledby="failed-mail-title"
      className="flex flex-col gap-2 rounded-[var(--radius-card)] border border-accent-500 bg-accent-50 p-4 shadow-card sm:flex-row sm:items-center sm:justify-between sm:p-5"
    >
      <div>
        <h2 id="failed-mail-title" className="text-lg font-semibold text-ink">
          Undelivered e-mails
        </h2>
        <p className="mt-1 text-sm text-ink-soft">{MAIL_OUTBOX_MESSAGES.failedCount(failed)}</p>
      </div>
      <Link
        to="/admin/notices"
        className="inline-flex min-h-11 shrink-0 items-center font-semibold text-primary-700 underline-offset-2 hover:underline sm:min-h-0"
      >
        See the undelivered e-mails
      </Link>
    </section>
  );
}
