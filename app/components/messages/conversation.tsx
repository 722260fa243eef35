import { Check, CheckCheck, EyeOff, FileText, Paperclip } from "lucide-react";
import type { ReactNode } from "react";
import { LocalTime } from "~/components/ui/local-time";
import { formatKb } from "~/domain/documents";
import { MESSAGE_TEXTS } from "~/domain/messages";
import type { MessageAttachment } from "~/domain/messages";

/** One message as either page draws it. */
export type ConversationItem = {
  id: string;
  author: string;
  /** Written by the side reading the page: drawn on the right, in the brand's tint. */
  ownSide: boolean;
  body: string;
  sentAt: string;
  isNew: boolean;
  /** The line under a message of the reader's side: whether the other side has read it. */
  readLine?: { read: boolean; text: string };
  hidden?: { at: string; by: string } | null;
  attachments: ReadonlyArray<MessageAttachment & { note?: string }>;
  /** Staff's Hide, under the message. */
  actions?: ReactNode;
};

/**
 * A conversation, oldest first: who wrote each message and when (in the reader's time zone), its
 * text as plain text with its line breaks, the files sent with it (download links), and whether
 * it is new. Hidden messages (staff only) are greyed and say so.
 */
export function Conversation({ items, empty }: { items: readonly ConversationItem[]; empty: ReactNode }) {
  if (items.length === 0)
    return <p className="rounded-xl border border-dashed border-line bg-surface px-4 py-6 text-ink-soft">{empty}</p>;
  return (
    <ol className="space-y-4" aria-label="Messages, oldest first">
      {items.map((item) => (
        <li key={item.id} id={`message-${item.id}`} className={`flex ${item.ownSide ? "sm:justify-end" : ""}`}>
          <MessageCard item={item} />
        </li>
      ))}
    </ol>
  );
}

function MessageCard({ item }: { item: ConversationItem }) {
  const headingId = `message-${item.id}-by`;
  const tone = item.hidden
    ? "border-dashed border-line bg-surface text-ink-muted"
    : item.ownSide
      ? "border-primary-100 bg-primary-50"
      : "border-line bg-white";
  return (
    <article
      aria-labelledby={headingId}
      className={`w-full min-w-0 rounded-2xl border p-4 shadow-sm sm:max-w-[85%] ${tone}`}
    >
      <header className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm">
        <h3 id={headingId} className="font-semibold break-words text-ink">
          {item.author}
        </h3>
        <span className="text-ink-muted">
          <LocalTime iso={item.sentAt} />
        </span>
        {item.isNew ? (
          <span className="rounded-full bg-accent-50 px-2 py-0.5 text-xs font-semibold text-accent-700">New</span>
        ) : null}
        {item.hidden ? (
          <span className="inline-flex items-center gap-1 rounded-full border border-line bg-white px-2 py-0.5 text-xs font-semibold text-ink-soft">
            <EyeOff className="size-3.5" aria-hidden="true" />
            {MESSAGE_TEXTS.hiddenLabel}
          </span>
        ) : null}
      </header>
      <p className={`mt-2 max-w-[70ch] break-words whitespace-pre-wrap ${item.hidden ? "text-ink-soft" : "text-ink"}`}>
        {item.body}
      </p>
      {item.attachments.length > 0 ? (
        <div className="mt-3">
          <p className="flex items-center gap-1.5 text-sm font-medium text-ink-soft">
            <Paperclip className="size-4" aria-hidden="true" />
            {item.attachments.length === 1 ? "1 file" : `${item.attachments.length} files`}
          </p>
          <ul className="mt-1 space-y-1">
            {item.attachments.map((file) => (
              <li key={file.id} className="min-w-0">
                {/* A plain link, not the router's: the browser downloads the file. */}
                <a
                  href={`/documents/${file.id}`}
                  download={file.name}
                  className="inline-flex min-h-11 max-w-full items-center gap-1.5 rounded-lg py-1 text-sm font-semibold break-all text-primary-700 underline-offset-2 hover:underline sm:min-h-0"
                >
                  <FileText className="size-4 shrink-0" aria-hidden="true" />
                  <span>{file.name}</span>
                  <span className="shrink-0 font-normal text-ink-muted">{`(${formatKb(file.size)})`}</span>
                </a>
                {file.note ? <span className="ml-2 text-xs text-ink-muted">{file.note}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {item.hidden ? (
        <p className="mt-2 text-xs text-ink-muted">
          {`Hidden by ${item.hidden.by} `}
          <LocalTime iso={item.hidden.at} />
        </p>
      ) : null}
      {item.readLine ? (
        <p className="mt-2 flex items-center gap-1 text-xs text-ink-muted">
          {item.readLine.read ? <CheckCheck className="size-3.5" aria-hidden="true" /> : <Check className="size-3.5" aria-hidden="true" />}
          {item.readLine.text}
        </p>
      ) : null}
      {item.actions ? <div className="mt-3">{item.actions}</div> : null}
    </article>
  );
}
