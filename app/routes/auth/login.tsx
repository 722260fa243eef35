import { useState } from "react";
import { data, Form, Link, redirect, replace, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/login";
import { AuthCard } from "~/components/layout/auth-card";
import { GoogleButton } from "~/components/ui/google-button";
import { Button } from "~/components/ui/button";
import { Alert, Field, Input } from "~/components/ui/field";
import { PasswordInput } from "~/components/ui/password-input";
import { Spinner } from "~/components/ui/spinner";
import { AUTH_MESSAGES, effectiveRole, homeFor, safeRedirect, SignInSchema } from "~/domain/auth";
import { EMAIL_SHAPE } from "~/domain/validation";
import { logError } from "~/log";
import { seo } from "~/seo";
import { recordAudit } from "~/server/audit/audit.server";
import { apiErrorCode, setCookies, startGoogleSignIn } from "~/server/auth/auth-actions.server";
import { authLimits, beginSignIn, withinAuthLimit } from "~/server/limits/auth-limits.server";
import { getAuth, startPasswordReset, VERIFIED_CALLBACK } from "~/server/auth/better-auth.server";
import { getEnv } from "~/server/platform/env.server";
import { parseForm } from "~/server/http/form.server";
import { authHeaders, sessionUserContext } from "~/server/auth/session.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "Sign in", description: "Sign in to your TaxBridge client portal.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(sessionUserContext);
  const url = new URL(request.url);
  // Replaces /login in the history, so Back from the portal never lands here to be sent forward again.
  if (user) throw replace(safeRedirect(url.searchParams.get("redirectTo"), homeFor(user.role)));
  const error = url.searchParams.get("error");
  let notice: { tone: "success" | "error"; text: string } | null = null;
  if (error === "google") notice = { tone: "error", text: AUTH_MESSAGES.googleLoginFailed };
  else if (error) notice = { tone: "error", text: AUTH_MESSAGES.verificationLinkInvalid };
  else if (url.searchParams.get("verified") === "1") notice = { tone: "success", text: AUTH_MESSAGES.emailVerified };
  else if (url.searchParams.get("reset") === "1") notice = { tone: "success", text: AUTH_MESSAGES.resetDone };
  return {
    notice,
    redirectTo: url.searchParams.get("redirectTo") ?? "",
    googleEnabled: Boolean(getEnv().google),
  };
}

type ActionAnswer = {
  error?: string;
  info?: string;
  /** Set when sign-in was refused because the address is not verified yet. */
  unverified?: boolean;
  email?: string;
};

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = await parseForm(request, SignInSchema);
  const intent = parsed.ok ? parsed.values.intent : SignInSchema.shape.intent.parse(parsed.raw.intent);
  const email = parsed.ok ? parsed.values.email : "";
  const answer = (body: ActionAnswer, status = 200) => data<ActionAnswer>({ email, ...body }, { status });

  if (intent === "google") {
    const started = await startGoogleSignIn(request, context, "/login");
    return started instanceof Response ? started : answer(started, 400);
  }
  // Only an address holding a NUL character gets here: no account has one.
  if (!parsed.ok) return answer({ error: intent === "signin" ? AUTH_MESSAGES.invalidCredentials : AUTH_MESSAGES.emailInvalid }, 400);
  const { password, remember, redirectTo } = parsed.values;
  const auth = getAuth();
  const headers = authHeaders(request, context);

  if (intent === "forgot") {
    if (!email) return answer({ error: AUTH_MESSAGES.forgotNeedsEmail }, 400);
    if (!EMAIL_SHAPE.test(email)) return answer({ error: AUTH_MESSAGES.emailInvalid }, 400);
    if (!(await withinAuthLimit(authLimits.reset, context.clientIp, email)))
      return answer({ error: AUTH_MESSAGES.rateLimited }, 429);
    // The same answer, as quick, whether or not the address has an account.
    if (!startPasswordReset(email, headers)) return answer({ error: AUTH_MESSAGES.emailInvalid }, 400);
    return answer({ info: AUTH_MESSAGES.resetSent });
  }

  if (intent === "resend") {
    if (!EMAIL_SHAPE.test(email)) return answer({ error: AUTH_MESSAGES.emailInvalid }, 400);
    if (!(await withinAuthLimit(authLimits.resend, context.clientIp, email)))
      return answer({ error: AUTH_MESSAGES.rateLimited }, 429);
    try {
      await auth.api.sendVerificationEmail({ body: { email, callbackURL: VERIFIED_CALLBACK }, headers });
    } catch (error) {
      // Already verified or unknown: say nothing that tells which.
      if (!apiErrorCode(error)) logError("auth", "resend failed", error);
    }
    return answer({ info: AUTH_MESSAGES.verificationResent });
  }

  if (!email || !password) return answer({ error: AUTH_MESSAGES.invalidCredentials }, 400);
  // Wrong passwords refuse the IP they come from and only slow the address down: the owner
  // still signs in from elsewhere (docs/decisions/0011-sign-in-limits.md).
  const attempt = await beginSignIn(context.clientIp, email);
  if (!attempt.allowed) return answer({ error: AUTH_MESSAGES.rateLimited }, 429);
  try {
    const { headers: authAnswer, response } = await auth.api.signInEmail({
      body: { email, password, rememberMe: remember },
      headers,
      returnHeaders: true,
    });
    await attempt.passwordAccepted();
    const u = response.user;
    const role = effectiveRole({ role: u.role, email: u.email, emailVerified: u.emailVerified }, getEnv().adminEmail);
    const target = safeRedirect(redirectTo, homeFor(role));
    await recordAudit({ actor: { id: u.id, email: u.email }, action: "sign-in", clientId: role === "user" ? u.id : null, ip: context.clientIp });
    return redirect(target, { headers: setCookies(authAnswer) });
  } catch (error) {
    const code = apiErrorCode(error);
    // Refused only for want of a verified address: the password was right.
    if (code === "EMAIL_NOT_VERIFIED") await attempt.passwordAccepted();
    await recordAudit({ actor: null, action: "sign-in-failed", detail: `${email}: ${code ?? "error"}`, ip: context.clientIp });
    if (code === "EMAIL_NOT_VERIFIED") return answer({ error: AUTH_MESSAGES.emailNotVerified, unverified: true }, 403);
    if (code === "INVALID_EMAIL_OR_PASSWORD") return answer({ error: AUTH_MESSAGES.invalidCredentials }, 401);
    if (code) return answer({ error: (error as { body?: { message?: string } }).body?.message ?? AUTH_MESSAGES.loginFailed }, 400);
    logError("auth", "sign-in failed", error);
    return answer({ error: AUTH_MESSAGES.loginFailed }, 500);
  }
}

export default function Login() {
  const { notice, redirectTo, googleEnabled } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const [email, setEmail] = useState(result?.email ?? "");
  // Set when the form is stopped in the browser, cleared by any submission that goes ahead.
  const [clientError, setClientError] = useState<string | null>(null);
  const error = clientError ?? result?.error;

  return (
    <AuthCard
      title="Sign in to your account"
      lead="Follow your filings and send us your tax details securely."
      footer={
        <>
          New to TaxBridge?{" "}
          <Link to="/signup" className="font-semibold text-primary-700 hover:underline">
            Sign up
          </Link>
        </>
      }
    >
      {navigation.state === "loading" ? (
        <div className="flex justify-center py-10">
          <Spinner className="size-8 text-primary-600" label="Loading..." />
        </div>
      ) : (
        <div className="space-y-5">
          {notice && !result ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
          {error ? <Alert tone="error">{error}</Alert> : null}
          {result?.info ? <Alert tone="success">{result.info}</Alert> : null}
          {result?.unverified ? (
            <Form method="post">
              <input type="hidden" name="intent" value="resend" />
              <input type="hidden" name="email" value={result.email ?? email} />
              <Button type="submit" variant="secondary" className="w-full" disabled={busyIntent === "resend"}>
                Resend verification e-mail
              </Button>
            </Form>
          ) : null}
          {/* A successful sign-in replaces this page in the history: Back leaves the portal. */}
          <Form
            method="post"
            replace
            className="space-y-4"
            onSubmit={(event) => {
              const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
              if (submitter?.value === "forgot" && email.trim() === "") {
                event.preventDefault();
                setClientError(AUTH_MESSAGES.forgotNeedsEmail);
              } else setClientError(null);
            }}
          >
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <Field id="login-email" label="Email Address" required>
              {(aria) => (
                <Input
                  {...aria}
                  name="email"
                  type="email"
                  autoComplete="email"
                  required
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                />
              )}
            </Field>
            <Field id="login-password" label="Password" required>
              {(aria) => <PasswordInput {...aria} name="password" autoComplete="current-password" required />}
            </Field>
            <div className="flex items-center justify-between gap-4">
              <label className="inline-flex items-center gap-2 text-sm text-ink-soft">
                <input type="checkbox" name="remember" className="size-4 accent-primary-600" />
                Remember me
              </label>
              <button
                type="submit"
                name="intent"
                value="forgot"
                formNoValidate
                className="rounded text-sm font-semibold text-primary-700 hover:underline"
              >
                Forgot password?
              </button>
            </div>
            <Button type="submit" name="intent" value="signin" size="lg" className="w-full" disabled={busyIntent === "signin"} busy={busyIntent === "signin"}>
              {busyIntent === "signin" ? "Signing in..." : "Sign In"}
            </Button>
          </Form>
          <GoogleButton label="Continue with Google" enabled={googleEnabled} busy={busyIntent === "google"} />
        </div>
      )}
    </AuthCard>
  );
}
