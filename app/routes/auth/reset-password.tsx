import { useState } from "react";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/reset-password";
import { AuthCard } from "~/components/layout/auth-card";
import { Button } from "~/components/ui/button";
import { Alert, Field, Input } from "~/components/ui/field";
import { PasswordInput } from "~/components/ui/password-input";
import { AUTH_MESSAGES, ResetPasswordSchema } from "~/domain/auth";
import { EMAIL_SHAPE } from "~/domain/validation";
import { logError } from "~/log";
import { seo } from "~/seo";
import { apiErrorCode } from "~/server/auth/auth-actions.server";
import { authLimits, withinAuthLimit } from "~/server/limits/auth-limits.server";
import { setPasswordWithLink, startPasswordReset } from "~/server/auth/better-auth.server";
import { parseForm } from "~/server/http/form.server";
import { authHeaders, NO_STORE } from "~/server/auth/session.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "Choose a new password", description: "Choose a new password for your TaxBridge account.", noindex: true });

export function headers() {
  return NO_STORE;
}

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  // verified=1: the link a contested verification leads to, where the account's first password is chosen.
  return { token, linkInvalid: token === "" || url.searchParams.has("error"), afterVerification: url.searchParams.get("verified") === "1" };
}

type Answer = { field?: "password" | "confirmPassword"; error?: string; linkInvalid?: boolean; info?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = await parseForm(request, ResetPasswordSchema);
  if (!parsed.ok) {
    // A NUL character is in the address (intent "request") or the link's token; otherwise the new password's first problem.
    if (parsed.first.field === "email") return data<Answer>({ error: AUTH_MESSAGES.emailInvalid, linkInvalid: true }, { status: 400 });
    if (parsed.first.field === "password" || parsed.first.field === "confirmPassword")
      return data<Answer>({ field: parsed.first.field, error: parsed.first.message }, { status: 400 });
    return data<Answer>({ linkInvalid: true, error: AUTH_MESSAGES.resetLinkInvalid }, { status: 400 });
  }
  const values = parsed.values;
  if (values.intent === "request") {
    const { email } = values;
    if (!email) return data<Answer>({ error: AUTH_MESSAGES.forgotNeedsEmail, linkInvalid: true }, { status: 400 });
    if (!EMAIL_SHAPE.test(email)) return data<Answer>({ error: AUTH_MESSAGES.emailInvalid, linkInvalid: true }, { status: 400 });
    if (!(await withinAuthLimit(authLimits.reset, context.clientIp, email)))
      return data<Answer>({ error: AUTH_MESSAGES.rateLimited, linkInvalid: true }, { status: 429 });
    // The same answer, as quick, whether or not the address has an account.
    if (!startPasswordReset(email, authHeaders(request, context)))
      return data<Answer>({ error: AUTH_MESSAGES.emailInvalid, linkInvalid: true }, { status: 400 });
    return data<Answer>({ info: AUTH_MESSAGES.resetSent, linkInvalid: true });
  }

  const { password, token } = values;
  // Reset links carry letters, digits, "-" and "_"; anything else (NUL would make the lookup fail) is no link of ours.
  if (!/^[\w-]{1,200}$/.test(token)) return data<Answer>({ linkInvalid: true, error: AUTH_MESSAGES.resetLinkInvalid }, { status: 400 });
  try {
    await setPasswordWithLink(token, password, authHeaders(request, context), context.clientIp);
  } catch (error) {
    if (apiErrorCode(error) === "INVALID_TOKEN") return data<Answer>({ linkInvalid: true, error: AUTH_MESSAGES.resetLinkInvalid }, { status: 400 });
    logError("auth", "reset failed", error);
    return data<Answer>({ error: AUTH_MESSAGES.signupFailed }, { status: 500 });
  }
  throw redirect("/login?reset=1");
}

export default function ResetPassword() {
  const { token, linkInvalid, afterVerification } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [email, setEmail] = useState("");

  if (linkInvalid || result?.linkInvalid) {
    return (
      <AuthCard title="Reset link not valid" footer={<Link to="/login" className="font-semibold text-primary-700 hover:underline">Back to sign in</Link>}>
        <div className="space-y-4">
          {result?.info ? <Alert tone="success">{result.info}</Alert> : <Alert tone="error">{result?.error ?? AUTH_MESSAGES.resetLinkInvalid}</Alert>}
          <Form method="post" className="space-y-4">
            <input type="hidden" name="intent" value="request" />
            <Field id="reset-email" label="Email Address" required>
              {(aria) => <Input {...aria} name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}
            </Field>
            <Button type="submit" className="w-full" disabled={busy} busy={busy}>
              Send a new link
            </Button>
          </Form>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={afterVerification ? AUTH_MESSAGES.choosePasswordTitle : "Choose a new password"}
      lead={
        afterVerification
          ? `${AUTH_MESSAGES.choosePasswordLead} Use at least 8 characters.`
          : "Use at least 8 characters. Every device signed in to your account will be signed out."
      }
    >
      <Form method="post" className="space-y-4" noValidate>
        <input type="hidden" name="token" value={token} />
        {result?.error && !result.field ? <Alert tone="error">{result.error}</Alert> : null}
        <Field id="reset-password" label="New Password" required error={result?.field === "password" ? result.error : undefined}>
          {(aria) => <PasswordInput {...aria} name="password" autoComplete="new-password" />}
        </Field>
        <Field id="reset-confirm" label="Confirm Password" required error={result?.field === "confirmPassword" ? result.error : undefined}>
          {(aria) => <PasswordInput {...aria} name="confirmPassword" autoComplete="new-password" toggleFor="password confirmation" />}
        </Field>
        <Button type="submit" size="lg" className="w-full" disabled={busy} busy={busy}>
          {busy ? "Saving..." : "Save new password"}
        </Button>
      </Form>
    </AuthCard>
  );
}
