import { data, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/verify";
import { CodeForm } from "~/components/admin/code-form";
import { AuthCard } from "~/components/layout/auth-card";
import { safeRedirect, SecondFactorSchema } from "~/domain/auth";
import { seo } from "~/seo";
import { parseForm } from "~/server/http/form.server";
import { pausedMessage, secondFactorState, sessionPassedSecondFactor, verifySecondFactor } from "~/server/auth/second-factor.server";
import { NO_STORE, staffIdentityContext } from "~/server/auth/session.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "Enter your code", description: "Staff second factor.", noindex: true });

export function headers({ actionHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { ...NO_STORE, "Retry-After": retryAfter } : NO_STORE;
}

const target = (value: unknown) => {
  const to = safeRedirect(value, "/admin/dashboard");
  return to.startsWith("/admin/") ? to : "/admin/dashboard";
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = context.get(staffIdentityContext);
  if ((await secondFactorState(staff.id)) !== "enrolled") throw redirect("/admin/security/setup", { headers: NO_STORE });
  const redirectTo = target(new URL(request.url).searchParams.get("redirectTo"));
  if (await sessionPassedSecondFactor(staff.sessionId)) throw redirect(redirectTo, { headers: NO_STORE });
  return data({ email: staff.email, redirectTo }, { headers: NO_STORE });
}

const NOT_RIGHT = "That code is not right. Enter the code your app shows now, or one of your backup codes.";

export async function action({ request, context }: Route.ActionArgs) {
  const staff = context.get(staffIdentityContext);
  const parsed = await parseForm(request, SecondFactorSchema);
  // A code holding a NUL character is no code the app shows, nor a backup code.
  if (!parsed.ok) return data({ error: NOT_RIGHT }, { status: 400 });
  const check = await verifySecondFactor(staff, staff.sessionId, parsed.values.code, context.clientIp);
  if (check.outcome === "passed") throw redirect(target(parsed.values.redirectTo), { headers: NO_STORE });
  if (check.outcome === "paused") {
    return data({ error: pausedMessage(check.retryAfterSeconds) }, { status: 429, headers: { "Retry-After": String(check.retryAfterSeconds) } });
  }
  if (check.outcome === "used") {
    return data({ error: "That code has already been used. Enter the next code your app shows, or another backup code." }, { status: 400 });
  }
  return data({ error: NOT_RIGHT }, { status: 400 });
}

export default function SecurityVerify() {
  const { email, redirectTo } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <AuthCard title="Enter your code" lead={`Signed in as ${email}. Staff pages need the code from your authenticator app.`}>
      <CodeForm error={result?.error} busy={busy} redirectTo={redirectTo} allowBackup />
    </AuthCard>
  );
}
