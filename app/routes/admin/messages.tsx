import { data, useLoaderData } from "react-router";
import type { Route } from "./+types/messages";
import { MessagesList } from "~/components/admin/messages-list";
import { MarkHandledForm } from "~/domain/admin";
import { seo } from "~/seo";
import { listContactMessages, markContactMessageHandled } from "~/server/contact/contact-messages.server";
import { clientsByEmail } from "~/server/cases/cases.server";
import { parseForm } from "~/server/http/form.server";
import { NO_STORE, staffContext } from "~/server/auth/session.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "Messages", description: "Messages sent through the contact form.", noindex: true });

export function headers() {
  return NO_STORE;
}

export async function loader() {
  const messages = await listContactMessages();
  // A message whose address belongs to a client links to that client's case.
  const clients = await clientsByEmail(messages.map((m) => m.email));
  return data(
    {
      messages: messages.map((m) => ({
        client: clients.get(m.email.trim().toLowerCase()) ?? null,
        id: m.id,
        name: m.name,
        email: m.email,
        phone: m.phone,
        subject: m.subject,
        description: m.description,
        createdAt: m.createdAt.toISOString(),
        handledAt: m.handledAt?.toISOString() ?? null,
      })),
    },
    { headers: NO_STORE },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = context.get(staffContext);
  const parsed = await parseForm(request, MarkHandledForm);
  if (!parsed.ok) return data({ ok: false }, { status: 400 });
  return data({ ok: await markContactMessageHandled(admin, parsed.values.messageId, context.clientIp) });
}

export default function AdminMessages() {
  const { messages } = useLoaderData<typeof loader>();
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Messages</h1>
      <p className="mt-1 text-sm text-ink-muted">What visitors sent through the contact form, newest first.</p>
      <div className="mt-6">
        <MessagesList messages={messages} />
      </div>
    </>
  );
}
