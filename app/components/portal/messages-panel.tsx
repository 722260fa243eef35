import { MessagesSquare } from "lucide-react";
import { ButtonLink } from "~/components/ui/button";
import { business } from "~/content/business";
import { clientMessagesPath } from "~/domain/messages";

/**
 * The filing page's way into the year's conversation with the firm, with the number of the
 * firm's messages the client has not read yet.
 */
export function MessagesPanel({ taxYear, unread }: { taxYear: number; unread: number }) {
  return (
    <section aria-labelledby="messages-title" className="rounded-[var(--radius-card)] bg-white p-5 shadow-card sm:p-6">
      <div className="mb-4 flex items-center gap-3">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
          <MessagesSquare className="size-5" aria-hidden="true" />
        </span>
        <h2 id="messages-title" className="text-xl font-semibold tracking-tight text-ink">
          Messages
        </h2>
        {unread > 0 ? (
          <span className="rounded-full bg-primary-600 px-2.5 py-1 text-xs font-semibold text-white">{`${unread} unread`}</span>
        ) : null}
      </div>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-ink-soft">
          {unread > 0
            ? `${business.name} has sent you ${unread === 1 ? "a message" : `${unread} messages`} you have not read yet.`
            : `Questions about your ${taxYear} filing? Write to us here, and send files with your message.`}
        </p>
        <ButtonLink
          to={clientMessagesPath(taxYear)}
          variant={unread > 0 ? "primary" : "secondary"}
          className="min-h-11 shrink-0"
        >
          {unread > 0 ? "Read your messages" : "Open messages"}
        </ButtonLink>
      </div>
    </section>
  );
}
