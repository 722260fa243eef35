import { Inbox, MessagesSquare } from "lucide-react";
import { data, Link, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/case-messages";
import { HideMessageButton } from "~/components/messages/hide-message";
import { ComposeForm } from "~/components/messages/compose-form";
import { Conversation } from "~/components/messages/conversation";
import type { ConversationItem } from "~/components/messages/conversation";
import { inboxHref, MESSAGE_TEXTS, StaffMessagesForm } from "~/domain/messages";
import type { MessageActionResult } from "~/domain/messages";
import { parseTaxYear } from "~/domain/tax-year";
import { logError } from "~/log";
import { seo } from "~/seo";
import { findCase } from "~/server/clients/list.server";
import { recordAudit } from "~/server/audit/audit.server";
import { caseRoom, discardReceived } from "~/server/documents/upload.server";
import { hideMessage, sendMessage } from "~/server/messages/posting.server";
import { filesRefusal, parseMessagePost, readMessagePost, refuseSend } from "~/server/messages/message-post.server";
import { staffConversation } from "~/server/messages/conversation.server";
import { NO_STORE, staffContext } from "~/server/auth/session.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, {
    title: args.loaderData
      ? `Messages, ${args.loaderData.client.code}, tax year ${args.loaderData.taxYear}`
      : "Client messages",
    description: "A case's conversation with its client.",
    noindex: true,
  });

export function headers() {
  return NO_STORE;
}

function notFound(): never {
  throw data(null, { status: 404, headers: NO_STORE });
}

/**
 * A case's whole conversation for staff: hidden messages included and marked. Opening it marks
 * the client's messages read, and is written to the audit trail (staff reading a client's record).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const staff = context.get(staffContext);
  const taxYear = parseTaxYear(params.year);
  if (taxYear === null || params.clientId.includes("\u0000")) notFound();
  const client = await findCase(params.clientId, taxYear, staff.id);
  if (!client) notFound();
  const messages = await staffConversation(staff, client.id, taxYear);
  if (!messages) notFound();
  await recordAudit({ actor: staff, action: "messages-viewed", clientId: client.id, taxYear, ip: context.clientIp });
  return data(
    {
      client: { id: client.id, code: client.code, name: client.name },
      taxYear,
      assignee: client.assignee?.name ?? null,
      messages,
    },
    { headers: NO_STORE },
  );
}

function answer(result: MessageActionResult, status = 200) {
  return data<MessageActionResult>(result, { status, headers: NO_STORE });
}

/**
 * Send a message to the client (with files or without: a plain multipart form; the files are
 * shared with the client at once), or hide one message of this case from the client. Messages
 * are never changed: there is no other intent.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = context.get(staffContext);
  const ip = context.clientIp;
  const clientId = params.clientId;
  const taxYear = parseTaxYear(params.year);
  if (taxYear === null || clientId.includes("\u0000") || !(await findCase(clientId, taxYear)))
    return answer({ intent: "unknown", ok: false, message: MESSAGE_TEXTS.noSuchCase }, 404);

  const roomBytes = await caseRoom(clientId, taxYear);
  const post = await parseMessagePost(await readMessagePost(request, { roomBytes }), StaffMessagesForm, { hides: true });
  if (!post.ok) return answer(post.result, post.status);
  const { form, files } = post;
  const refuse = async (message: string, status: number, refused?: Array<{ name: string; reason: string }>) => {
    const refusal = await refuseSend(post, message, status, refused);
    return answer(refusal.result, refusal.status);
  };

  if (form.intent === "hide") {
    await discardReceived(files);
    const hidden = await hideMessage(staff, { clientId, taxYear, messageId: form.messageId }, ip);
    if (hidden.outcome === "not-found")
      return answer({ intent: "hide", ok: false, message: MESSAGE_TEXTS.notHidden }, 404);
    return answer({
      intent: "hide",
      ok: true,
      message: hidden.unshared > 0 ? MESSAGE_TEXTS.hiddenWithFiles(hidden.unshared) : MESSAGE_TEXTS.hidden,
    });
  }

  const filesRefused = filesRefusal(files, form.category, roomBytes);
  if (filesRefused) return refuse(filesRefused.message, filesRefused.status, filesRefused.refused);
  let sent: Awaited<ReturnType<typeof sendMessage>>;
  try {
    sent = await sendMessage(
      staff,
      { clientId, taxYear, body: form.body, category: form.category ?? "other-documents", files },
      ip,
    );
  } catch (error) {
    logError("admin", "could not send a message", error);
    return refuse(MESSAGE_TEXTS.sendFailed, 500);
  }
  if (!sent) return answer({ intent: "send", ok: false, message: MESSAGE_TEXTS.noSuchCase, body: post.sentBody }, 404);
  return answer({
    intent: "send",
    ok: true,
    message: MESSAGE_TEXTS.sentByStaff(sent.files.uploaded.length, sent.notified),
  });
}

export default function CaseMessages() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const items: ConversationItem[] = d.messages.map((m) => ({
    id: m.id,
    author: m.fromClient ? `${m.author} (client)` : m.author,
    ownSide: !m.fromClient,
    body: m.body,
    sentAt: m.sentAt,
    isNew: m.isNew,
    hidden: m.hidden,
    attachments: m.attachments.map((a) => ({
      ...a,
      ...(m.fromClient ? {} : { note: a.shared ? "Shared with the client" : "Not shared" }),
    })),
    ...(m.fromClient || m.hidden
      ? {}
      : { readLine: m.readAt ? { read: true, text: "Read by the client" } : { read: false, text: "Not read by the client yet" } }),
    ...(m.hidden
      ? {}
      : { actions: <HideMessageButton messageId={m.id} fromClient={m.fromClient} files={m.attachments.length} /> }),
  }));
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="flex items-center gap-3 text-xl font-semibold tracking-tight break-words text-ink">
            <MessagesSquare className="size-6 shrink-0 text-primary-700" aria-hidden="true" />
            {`Messages with ${d.client.name}`}
          </h2>
          <p className="mt-1 text-sm text-ink-muted">
            {d.assignee ? `Assigned to ${d.assignee}. ` : "Not assigned. "}
            The client sees every message here except the ones hidden from them.
          </p>
        </div>
        <Link
          to={inboxHref({ year: d.taxYear, filter: "all", page: 1 })}
          className="inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-primary-700 hover:underline sm:min-h-0"
        >
          <Inbox className="size-4" aria-hidden="true" />
          All client messages
        </Link>
      </header>

      {result?.intent === "hide" || result?.intent === "unknown" ? (
        <div aria-live="polite">
          <p
            role={result.ok ? "status" : "alert"}
            className={`rounded-lg border px-4 py-3 text-sm font-medium ${
              result.ok ? "border-green-300 bg-green-50 text-green-800" : "border-red-300 bg-red-50 text-red-800"
            }`}
          >
            {result.message}
          </p>
        </div>
      ) : null}

      <section aria-labelledby="conversation-title" className="rounded-2xl border border-line bg-white p-4 shadow-sm sm:p-6">
        <h2 id="conversation-title" className="sr-only">
          Conversation
        </h2>
        <Conversation items={items} empty="No messages in this case yet." />
      </section>

      <section aria-labelledby="compose-title" className="rounded-2xl border border-line bg-white p-4 shadow-sm sm:p-6">
        <h2 id="compose-title" className="mb-4 text-lg font-semibold tracking-tight text-ink">
          Write to the client
        </h2>
        <ComposeForm
          key={d.messages.length}
          label="Message to the client"
          hint="The client is e-mailed a link to it, never its text. Messages cannot be changed once sent; you can hide one from the client."
          allowFiles
          filesHint={`They are added to the case's ${d.taxYear} documents and shared with the client.`}
          result={result?.intent === "send" ? result : undefined}
        />
      </section>
    </div>
  );
}
