import { CircleCheck, Mail, Phone, UserRound } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { caseHref } from "~/domain/admin-links";
import { Button } from "~/components/ui/button";
import { formatUsDateTime } from "./format";

export type AdminMessage = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  subject: string;
  description: string;
  /** ISO timestamp. */
  createdAt: string;
  /** ISO timestamp, or null while the message waits for someone. */
  handledAt: string | null;
  /** The client whose account has this e-mail address, if any (linked to their newest case). */
  client: { id: string; code: string; name: string; taxYear: number } | null;
};

export type MessagesListProps = { messages: readonly AdminMessage[] };

function MessageStatus({ handled }: { handled: boolean }) {
  return handled ? (
    <span className="inline-flex shrink-0 items-center gap-1.5 rounded-full border border-green-200 bg-green-50 px-2.5 py-1 text-xs font-semibold text-green-800">
      <CircleCheck className="size-3.5" aria-hidden="true" />
      Handled
    </span>
  ) : (
    <span className="inline-flex shrink-0 items-center gap-1.5 rounded-full border border-accent-100 bg-accent-50 px-2.5 py-1 text-xs font-semibold text-accent-700">
      <Mail className="size-3.5" aria-hidden="true" />
      New
    </span>
  );
}

/** Contact-form messages, newest first (the loader's order). Their text is shown as plain text. */
export function MessagesList({ messages }: MessagesListProps) {
  const navigation = useNavigation();
  const handlingId =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "mark-handled"
      ? navigation.formData.get("messageId")
      : null;

  if (messages.length === 0) {
    return (
      <p className="rounded-[var(--radius-card)] border border-line bg-white px-5 py-10 text-center text-ink-soft shadow-card">
        No messages yet.
      </p>
    );
  }

  return (
    <ul className="space-y-4">
      {messages.map((m) => {
        const titleId = `message-${m.id}-subject`;
        const busy = handlingId === m.id;
        return (
          <li key={m.id}>
            <article
              aria-labelledby={titleId}
              className="rounded-[var(--radius-card)] border border-line bg-white p-5 shadow-card sm:p-6"
            >
              <div className="flex flex-wrap items-start justify-between gap-3">
                <h2 id={titleId} className="min-w-0 text-lg font-semibold break-words text-ink">
                  {m.subject}
                </h2>
                <MessageStatus handled={m.handledAt !== null} />
              </div>

              <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-ink-soft">
                <span className="font-medium text-ink">{m.name}</span>
                <a
                  href={`mailto:${m.email}`}
                  className="break-all text-primary-700 underline-offset-2 hover:underline"
                >
                  {m.email}
                </a>
                {m.phone ? (
                  <a
                    href={`tel:${m.phone.replace(/[^\d+]/g, "")}`}
                    className="inline-flex items-center gap-1 text-primary-700 underline-offset-2 hover:underline"
                  >
                    <Phone className="size-3.5" aria-hidden="true" />
                    {m.phone}
                  </a>
                ) : null}
                {m.client ? (
                  <Link
                    to={caseHref(m.client.id, m.client.taxYear)}
                    className="inline-flex items-center gap-1 font-semibold text-primary-700 underline-offset-2 hover:underline"
                  >
                    <UserRound className="size-3.5" aria-hidden="true" />
                    {`Client ${m.client.code}`}
                  </Link>
                ) : null}
              </div>
              <p className="mt-1 text-sm text-ink-muted">
                Received <time dateTime={m.createdAt}>{formatUsDateTime(m.createdAt)}</time>
              </p>

              <p className="mt-4 max-w-[70ch] break-words whitespace-pre-wrap text-ink">{m.description}</p>

              <div className="mt-5 border-t border-line pt-4">
                {m.handledAt ? (
                  <p className="text-sm text-ink-muted">
                    Handled <time dateTime={m.handledAt}>{formatUsDateTime(m.handledAt)}</time>
                  </p>
                ) : (
                  <Form method="post">
                    <input type="hidden" name="intent" value="mark-handled" />
                    <input type="hidden" name="messageId" value={m.id} />
                    <Button
                      type="submit"
                      variant="secondary"
                      size="sm"
                      disabled={busy}
                      busy={busy}
                      aria-busy={busy}
                      aria-describedby={titleId}
                    >
                      Mark as handled
                    </Button>
                  </Form>
                )}
              </div>
            </article>
          </li>
        );
      })}
    </ul>
  );
}
