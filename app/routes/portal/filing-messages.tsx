import { ArrowLeft, MessagesSquare } from "lucide-react";
import { data, Link, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/filing-messages";
import { ComposeForm } from "~/components/messages/compose-form";
import { Conversation } from "~/components/messages/conversation";
import type { ConversationItem } from "~/components/messages/conversation";
import { filingPath } from "~/components/portal/filing-card";
import { Container } from "~/components/ui/container";
import { business } from "~/content/business";
import { CLIENT_LIMIT_MESSAGES } from "~/domain/client-limits";
import { ClientMessagesForm, MAX_MESSAGE_LENGTH, MESSAGE_TEXTS } from "~/domain/messages";
import type { ClientConversation, MessageActionResult } from "~/domain/messages";
import { parseTaxYear } from "~/domain/tax-year";
import { logError } from "~/log";
import { seo } from "~/seo";
import { caseState } from "~/server/cases/cases.server";
import { hitClientLimit, retryAfter } from "~/server/limits/client-limits.server";
import { caseRoom } from "~/server/documents/upload.server";
import { clientConversation } from "~/server/messages/conversation.server";
import { filesRefusal, parseMessagePost, postedText, readMessagePost, refuseSend } from "~/server/messages/message-post.server";
import { sendMessage } from "~/server/messages/posting.server";
import { NO_STORE, userContext } from "~/server/auth/session.server";

export const meta: Route.MetaFunction = (args) => {
  const year = parseTaxYear(args.params.year);
  return seo(args, {
    title: year === null ? "Messages" : `Messages about your ${year} tax filing`,
    description: "Your messages with the firm about one tax year's filing.",
    noindex: true,
  });
};

export function headers() {
  return NO_STORE;
}

/**
 * The client's conversation with the firm about one of their own tax years: only their own case
 * (a year they have no case for, or that is not a year, is the same 404); the messages staff hid
 * are not in it. Opening it marks the firm's messages read.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const taxYear = parseTaxYear(params.year);
  const conversation = taxYear === null ? null : await clientConversation(user.id, taxYear);
  if (!conversation) throw data(null, { status: 404, headers: NO_STORE });
  return data<ClientConversation>(conversation, { headers: NO_STORE });
}

function answer(result: MessageActionResult, status = 200, headers: Record<string, string> = {}) {
  return data<MessageActionResult>(result, { status, headers: { ...NO_STORE, ...headers } });
}

/**
 * Send a message in the client's own case of the URL's year, with files or without (a plain
 * multipart form). Files are accepted only while the year's documents are open, and only when
 * every one of them passes the checks: otherwise nothing is sent. Messages are never changed
 * once sent: there is no other intent.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const taxYear = parseTaxYear(params.year);
  const before = taxYear === null ? null : await caseState(user.id, taxYear);
  if (taxYear === null || !before)
    return answer({ intent: "unknown", ok: false, message: MESSAGE_TEXTS.noCase(taxYear) }, 404);

  // Counted before anything is stored: past the limit the post is read only to give its text
  // back (its files are thrown away as they arrive), and nothing is sent.
  const limit = await hitClientLimit("message", user.id);
  const roomBytes = await caseRoom(user.id, taxYear);
  const posted = await readMessagePost(request, { roomBytes, storeFiles: limit.allowed });
  if (!limit.allowed) {
    return answer(
      { intent: "send", ok: false, message: CLIENT_LIMIT_MESSAGES.message, body: postedText(posted) },
      429,
      retryAfter(limit),
    );
  }
  const post = await parseMessagePost(posted, ClientMessagesForm, { hides: false });
  if (!post.ok) return answer(post.result, post.status);
  const { files } = post;
  const { body, category } = post.form;
  const refuse = async (message: string, status: number, refused?: Array<{ name: string; reason: string }>) => {
    const refusal = await refuseSend(post, message, status, refused);
    return answer(refusal.result, refusal.status);
  };

  if (files.length > 0) {
    // Staff may have completed the documents while the files arrived: checked again now.
    const state = await caseState(user.id, taxYear);
    if (!state) return refuse(MESSAGE_TEXTS.noCase(taxYear), 404);
    if (state.flags.documents) return refuse(MESSAGE_TEXTS.filesClosed(taxYear), 409);
  }
  const filesRefused = filesRefusal(files, category, roomBytes);
  if (filesRefused) return refuse(filesRefused.message, filesRefused.status, filesRefused.refused);

  let sent: Awaited<ReturnType<typeof sendMessage>>;
  try {
    sent = await sendMessage(
      user,
      { clientId: user.id, taxYear, body, category: category ?? "other-documents", files },
      context.clientIp,
    );
  } catch (error) {
    logError("portal", "could not send a message", error);
    return refuse(MESSAGE_TEXTS.sendFailed, 500);
  }
  if (!sent) return answer({ intent: "send", ok: false, message: MESSAGE_TEXTS.noCase(taxYear), body: post.sentBody }, 404);
  return answer({ intent: "send", ok: true, message: MESSAGE_TEXTS.sentByClient(sent.files.uploaded.length) });
}

export default function FilingMessages() {
  const conversation = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { taxYear } = conversation;
  const items: ConversationItem[] = conversation.messages.map((m) => ({
    id: m.id,
    author: m.author,
    ownSide: m.mine,
    body: m.body,
    sentAt: m.sentAt,
    isNew: m.isNew,
    attachments: m.attachments,
    ...(m.mine
      ? { readLine: m.readAt ? { read: true, text: `Read by ${business.name}` } : { read: false, text: "Sent" } }
      : {}),
  }));
  return (
    <main id="main" className="bg-surface py-10 sm:py-14">
      <Container className="max-w-4xl">
        <Link
          to={filingPath(taxYear)}
          className="inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-primary-700 hover:underline sm:min-h-0"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          {`Your ${taxYear} filing`}
        </Link>
        <div className="mt-2 flex items-center gap-3">
          <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
            <MessagesSquare className="size-5" aria-hidden="true" />
          </span>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{`Messages about your ${taxYear} tax filing`}</h1>
        </div>
        <p className="mt-3 max-w-[70ch] text-ink-soft">
          {`Write to ${business.name} about this filing. Only you and our team see these messages. We e-mail you when we reply, with a link, never the text.`}
        </p>

        <section aria-labelledby="conversation-title" className="mt-8 rounded-[var(--radius-card)] bg-white p-5 shadow-card sm:p-6">
          <h2 id="conversation-title" className="sr-only">
            Conversation
          </h2>
          <Conversation items={items} empty="No messages yet. Write to us below with any question about this filing." />
        </section>

        <section
          aria-labelledby="compose-title"
          className="mt-6 rounded-[var(--radius-card)] bg-white p-5 shadow-card sm:p-6"
        >
          <h2 id="compose-title" className="mb-4 text-xl font-semibold tracking-tight text-ink">
            Write a message
          </h2>
          {result?.intent === "unknown" ? (
            <p role="alert" className="mb-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
              {result.message}
            </p>
          ) : null}
          <ComposeForm
            key={conversation.messages.length}
            label="Your message"
            hint={`Plain text, up to ${MAX_MESSAGE_LENGTH.toLocaleString("en-US")} characters. Messages cannot be changed once sent.`}
            allowFiles={conversation.documentsOpen}
            filesClosed={MESSAGE_TEXTS.filesClosed(taxYear)}
            filesHint={`They are added to your ${taxYear} documents.`}
            result={result?.intent === "send" ? result : undefined}
          />
        </section>
      </Container>
    </main>
  );
}
