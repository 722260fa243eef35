import { data, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/notices";
import { UndeliveredMailList } from "~/components/admin/undelivered-mail-list";
import { Alert } from "~/components/ui/field";
import { formField } from "~/domain/auth";
import { MAIL_OUTBOX_MESSAGES } from "~/domain/mail-outbox";
import { seo } from "~/seo";
import { NO_STORE, staffContext } from "~/server/auth/session.server";
import { parseForm } from "~/server/http/form.server";
import { listUndelivered, resendMail } from "~/server/mail/outbox.server";
import type { ResendOutcome, UndeliveredMail } from "~/server/mail/outbox.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, {
    title: "Undelivered e-mails",
    description: "The e-mails that could not be sent, and sending them again.",
    noindex: true,
  });

export function headers() {
  return NO_STORE;
}

const row = (m: UndeliveredMail) => ({
  id: m.id,
  kind: m.kind,
  recipient: m.recipient,
  reason: m.reason,
  attempts: m.attempts,
  lastAttemptAt: m.lastAttemptAt?.toISOString() ?? null,
  nextAttemptAt: m.nextAttemptAt.toISOString(),
  createdAt: m.createdAt.toISOString(),
});

export async function loader() {
  const { failed, retrying } = await listUndelivered();
  return data({ failed: failed.map(row), retrying: retrying.map(row) }, { headers: NO_STORE });
}

const ResendForm = z.object({ intent: formField.pipe(z.literal("resend")), id: formField });

const ANSWERS: Record<ResendOutcome, { ok: boolean; message: string; status: number }> = {
  queued: { ok: true, message: MAIL_OUTBOX_MESSAGES.resent, status: 200 },
  expired: { ok: false, message: MAIL_OUTBOX_MESSAGES.expired, status: 409 },
  "not-found": { ok: false, message: MAIL_OUTBOX_MESSAGES.notFound, status: 404 },
};

export async function action({ request, context }: Route.ActionArgs) {
  const admin = context.get(staffContext);
  const parsed = await parseForm(request, ResendForm);
  if (!parsed.ok)
    return data({ ok: false, message: MAIL_OUTBOX_MESSAGES.badRequest }, { status: 400, headers: NO_STORE });
  const answer = ANSWERS[await resendMail(admin, parsed.values.id, context.clientIp)];
  return data({ ok: answer.ok, message: answer.message }, { status: answer.status, headers: NO_STORE });
}

export default function AdminUndeliveredMail() {
  const { failed, retrying } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Undelivered e-mails</h1>
      <p className="mt-1 max-w-[70ch] text-sm text-ink-muted">
        E-mails the mail server did not take. Each is tried again after 1 minute, 5 minutes, 30 minutes, 2 hours
        and 12 hours; after that, or when the server refuses it for good, it is listed as failed. An e-mail whose
        code or link expires (a signing code, an invitation) is given up once it has. “Send again” tries it at once.
      </p>
      {answer ? (
        <div className="mt-4">
          <Alert tone={answer.ok ? "success" : "error"}>{answer.message}</Alert>
        </div>
      ) : null}
      <section aria-labelledby="failed-mail" className="mt-6">
        <h2 id="failed-mail" className="text-lg font-semibold text-ink">
          Failed
        </h2>
        <div className="mt-3">
          {failed.length === 0 ? (
            <p className="text-sm text-ink-soft">No e-mail has failed.</p>
          ) : (
            <UndeliveredMailList rows={failed} waiting={false} caption="E-mails that failed" />
          )}
        </div>
      </section>
      <section aria-labelledby="retrying-mail" className="mt-8">
        <h2 id="retrying-mail" className="text-lg font-semibold text-ink">
          Waiting for another try
        </h2>
        <div className="mt-3">
          {retrying.length === 0 ? (
            <p className="text-sm text-ink-soft">No e-mail is waiting for another try.</p>
          ) : (
            <UndeliveredMailList rows={retrying} waiting caption="E-mails waiting for another try" />
          )}
        </div>
      </section>
    </>
  );
}
