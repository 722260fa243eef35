import { useEffect, useRef, useState } from "react";
import type { FormEvent } from "react";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigate, useNavigation } from "react-router";
import type { Route } from "./+types/signup";
import { AuthCard } from "~/components/layout/auth-card";
import { Button } from "~/components/ui/button";
import { Alert, Field, Input, inputClass } from "~/components/ui/field";
import { GoogleButton } from "~/components/ui/google-button";
import { PasswordInput } from "~/components/ui/password-input";
import { AUTH_MESSAGES, checkSignup, homeFor, SignupSchema, VISA_STATUSES } from "~/domain/auth";
import type { SignupField, SignupValues } from "~/domain/auth";
import { logError } from "~/log";
import { seo } from "~/seo";
import { startGoogleSignIn } from "~/server/auth/auth-actions.server";
import { authLimits, withinAuthLimit } from "~/server/limits/auth-limits.server";
import { getAuth, VERIFIED_CALLBACK } from "~/server/auth/better-auth.server";
import { noteSignUp } from "~/server/auth/signup-contest.server";
import { getEnv } from "~/server/platform/env.server";
import { parseForm } from "~/server/http/form.server";
import { authHeaders, sessionUserContext } from "~/server/auth/session.server";

/** After a successful sign-up the page moves on to /login (docs/product/accounts.md#sign-up: 2 s). */
export const SIGNUP_REDIRECT_MS = 2_000;

export const meta: Route.MetaFunction = (args) =>
  seo(args, {
    title: "Create your account",
    description: "Create a TaxBridge account to send your tax details securely and follow your filings.",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(sessionUserContext);
  if (user) throw redirect(homeFor(user.role));
  const error = new URL(request.url).searchParams.get("error");
  return { googleEnabled: Boolean(getEnv().google), googleFailed: error === "google" };
}

type Answer = { ok: true } | { ok: false; field?: SignupField; error: string };

function valuesFrom(form: FormData): SignupValues {
  const s = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  return {
    fullName: s("fullName"),
    email: s("email"),
    phone: s("phone"),
    visaStatus: s("visaStatus"),
    password: s("password"),
    confirmPassword: s("confirmPassword"),
    acceptTerms: form.get("acceptTerms") === "on",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = await parseForm(request, SignupSchema);
  if (!parsed.ok) {
    const field = parsed.first.field as SignupField;
    return data<Answer>({ ok: false, field, error: parsed.first.message }, { status: 400 });
  }
  if (parsed.values.intent === "google") {
    const started = await startGoogleSignIn(request, context, "/signup");
    return started instanceof Response ? started : data<Answer>({ ok: false, error: started.error }, { status: 400 });
  }
  const { fullName, email, phone, visaStatus, password } = parsed.values;
  if (!(await withinAuthLimit(authLimits.signUp, context.clientIp, email)))
    return data<Answer>({ ok: false, error: AUTH_MESSAGES.rateLimited }, { status: 429 });
  try {
    // A second sign-up for an address not verified yet keeps no password (see noteSignUp).
    await noteSignUp(email);
    // For an address that already has an account Better Auth answers the same way and
    // calls onExistingUserSignUp, which e-mails the owner: no account enumeration.
    // phone and visaStatus ride along for the profile row (databaseHooks.user.create.after).
    const body = { name: fullName, email, password, phone, visaStatus, callbackURL: VERIFIED_CALLBACK };
    await getAuth().api.signUpEmail({
      body,
      headers: authHeaders(request, context),
    });
  } catch (error) {
    logError("auth", "sign-up failed", error);
    const message = (error as { body?: { message?: string } }).body?.message;
    // The auth library's own e-mail check is stricter than the shape check (e.g. no accents).
    if (message?.includes("body.email")) return data<Answer>({ ok: false, field: "email", error: AUTH_MESSAGES.emailInvalid }, { status: 400 });
    return data<Answer>({ ok: false, error: message ?? AUTH_MESSAGES.signupFailed }, { status: 400 });
  }
  return data<Answer>({ ok: true });
}

export default function Signup() {
  const { googleEnabled, googleFailed } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const busyIntent = navigation.state === "submitting" ? (navigation.formData?.get("intent") ?? "signup") : null;
  const [problem, setProblem] = useState<{ field?: SignupField; error: string } | null>(null);
  const [succeeded, setSucceeded] = useState(false);

  useEffect(() => {
    if (!result) return;
    if (result.ok) {
      setProblem(null);
      setSucceeded(true);
      formRef.current?.reset();
      const timer = setTimeout(() => navigate("/login"), SIGNUP_REDIRECT_MS);
      return () => clearTimeout(timer);
    }
    setProblem(result);
  }, [result, navigate]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.value === "google") return;
    const checked = checkSignup(valuesFrom(new FormData(event.currentTarget)));
    if (!checked.ok) {
      event.preventDefault();
      setProblem({ field: checked.field, error: checked.message });
      setSucceeded(false);
    }
  }

  const errorFor = (f: SignupField) => (problem?.field === f ? problem.error : undefined);

  return (
    <AuthCard
      title="Create your account"
      lead="It takes a minute. Then send us your tax details securely."
      footer={
        <>
          Already have an account?{" "}
          <Link to="/login" className="font-semibold text-primary-700 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <div className="space-y-5">
        {succeeded || (result?.ok && !problem) ? (
          <>
            <Alert tone="success">{AUTH_MESSAGES.signupSuccess}</Alert>
            <noscript>
              <meta httpEquiv="refresh" content="2;url=/login" />
            </noscript>
          </>
        ) : null}
        {problem && !problem.field ? <Alert tone="error">{problem.error}</Alert> : null}
        {googleFailed && !result ? <Alert tone="error">{AUTH_MESSAGES.googleSignupFailed}</Alert> : null}
        <Form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="space-y-4">
          <Field id="signup-name" label="Full Name" required error={errorFor("fullName")}>
            {(aria) => <Input {...aria} name="fullName" autoComplete="name" />}
          </Field>
          <Field id="signup-email" label="Email Address" required error={errorFor("email")}>
            {(aria) => <Input {...aria} name="email" type="email" autoComplete="email" />}
          </Field>
          <Field id="signup-phone" label="Phone Number (Optional)" error={errorFor("phone")}>
            {(aria) => <Input {...aria} name="phone" type="tel" autoComplete="tel" />}
          </Field>
          <Field id="signup-visa" label="Visa/Status" required error={errorFor("visaStatus")}>
            {(aria) => (
              <select {...aria} name="visaStatus" defaultValue="" className={`${inputClass} border-line`}>
                <option value="">Select your visa status</option>
                {VISA_STATUSES.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="signup-password" label="Password" required error={errorFor("password")} hint="At least 8 characters.">
            {(aria) => <PasswordInput {...aria} name="password" autoComplete="new-password" />}
          </Field>
          <Field id="signup-confirm" label="Confirm Password" required error={errorFor("confirmPassword")}>
            {(aria) => <PasswordInput {...aria} name="confirmPassword" autoComplete="new-password" toggleFor="password confirmation" />}
          </Field>
          <div>
            <label className="flex items-start gap-2 text-sm text-ink-soft">
              <input
                type="checkbox"
                name="acceptTerms"
                className="mt-1 size-4 accent-primary-600"
                aria-invalid={Boolean(errorFor("acceptTerms"))}
                aria-describedby={errorFor("acceptTerms") ? "signup-terms-error" : undefined}
              />
              <span>
                I agree to the{" "}
                <Link to="/terms" className="font-semibold text-primary-700 underline">
                  Terms of Service
                </Link>{" "}
                and the{" "}
                <Link to="/privacy" className="font-semibold text-primary-700 underline">
                  Privacy Policy
                </Link>
                .
              </span>
            </label>
            {errorFor("acceptTerms") ? (
              <p id="signup-terms-error" className="mt-1 text-sm font-medium text-red-700">
                {errorFor("acceptTerms")}
              </p>
            ) : null}
          </div>
          <Button type="submit" name="intent" value="signup" size="lg" className="w-full" disabled={busyIntent === "signup"} busy={busyIntent === "signup"}>
            {busyIntent === "signup" ? "Creating Account..." : "Create Account"}
          </Button>
        </Form>
        <GoogleButton label="Sign up with Google" enabled={googleEnabled} busy={busyIntent === "google"} />
      </div>
    </AuthCard>
  );
}
