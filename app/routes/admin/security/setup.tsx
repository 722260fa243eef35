import { data, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/setup";
import { CodeForm } from "~/components/admin/code-form";
import { AuthCard } from "~/components/layout/auth-card";
import { SecondFactorSchema } from "~/domain/auth";
import { seo } from "~/seo";
import { parseForm } from "~/server/http/form.server";
import { beginEnrolment, pausedMessage, pendingEnrolment, secondFactorState, verifySecondFactor } from "~/server/auth/second-factor.server";
import { NO_STORE, staffIdentityContext } from "~/server/auth/session.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "Set up two-step sign-in", description: "Staff second factor.", noindex: true });

export function headers({ actionHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { ...NO_STORE, "Retry-After": retryAfter } : NO_STORE;
}

export async function loader({ context }: Route.LoaderArgs) {
  const staff = context.get(staffIdentityContext);
  if ((await secondFactorState(staff.id)) === "enrolled") throw redirect("/admin/security/verify", { headers: NO_STORE });
  const enrolment = (await pendingEnrolment(staff)) ?? (await beginEnrolment(staff));
  return data({ email: staff.email, ...enrolment }, { headers: NO_STORE });
}

const NOT_RIGHT = "That code is not right. Check the time on your phone and enter the code your app shows now.";

export async function action({ request, context }: Route.ActionArgs) {
  const staff = context.get(staffIdentityContext);
  const parsed = await parseForm(request, SecondFactorSchema);
  // A code holding a NUL character is no code the app shows.
  if (!parsed.ok) return data({ error: NOT_RIGHT }, { status: 400 });
  const check = await verifySecondFactor(staff, staff.sessionId, parsed.values.code, context.clientIp);
  if (check.outcome === "passed") throw redirect("/admin/dashboard", { headers: NO_STORE });
  if (check.outcome === "paused") {
    return data({ error: pausedMessage(check.retryAfterSeconds) }, { status: 429, headers: { "Retry-After": String(check.retryAfterSeconds) } });
  }
  return data({ error: NOT_RIGHT }, { status: 400 });
}

export default function SecuritySetup() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <AuthCard
      title="Set up two-step sign-in"
      lead="Staff who can see client information sign in with a password and a code from an authenticator app (US rules for tax preparers require it)."
    >
      <ol className="list-decimal space-y-5 pl-5 text-sm text-ink-soft">
        <li>
          <p>Scan this code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Authy…).</p>
          <div className="mt-3 w-48 rounded-lg border border-line bg-white p-2" role="img" aria-label="QR code for your authenticator app" dangerouslySetInnerHTML={{ __html: d.qrSvg }} />
          <p className="mt-2">
            Or type this key: <code className="rounded bg-surface px-1.5 py-0.5 font-mono text-ink break-all" data-testid="totp-secret">{d.secret}</code>
          </p>
        </li>
        <li>
          <p>Keep these backup codes somewhere safe. Each works once, if you lose your phone.</p>
          <ul className="mt-2 grid grid-cols-2 gap-1 font-mono text-ink" aria-label="Backup codes">
            {d.backupCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </li>
        <li>
          <p>Enter the code your app shows to finish.</p>
          <div className="mt-3">
            <CodeForm error={result?.error} busy={busy} allowBackup={false} />
          </div>
        </li>
      </ol>
    </AuthCard>
  );
}
