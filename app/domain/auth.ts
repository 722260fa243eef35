import { EMAIL_SHAPE, hasControlCharacters } from "./validation";
import { z } from "./zod";

export const VISA_STATUSES = ["F-1", "H-1B", "J-1", "L-1", "Green Card", "Non-Resident", "Other"] as const;
export type VisaStatus = (typeof VISA_STATUSES)[number];

export function isVisaStatus(value: string): value is VisaStatus {
  return (VISA_STATUSES as readonly string[]).includes(value);
}

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Sign-up, sign-in and reset texts (docs/product/accounts.md). */
export const AUTH_MESSAGES = {
  fullNameRequired: "Full name is required",
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email",
  visaRequired: "Please select your visa status",
  passwordRequired: "Password is required",
  passwordTooShort: "Password must be at least 8 characters",
  passwordTooLong: "Password must be at most 128 characters",
  passwordsDiffer: "Passwords do not match",
  termsRequired: "You must accept the terms and conditions",
  nameTooLong: "Full name must be 100 characters or fewer",
  nameInvalid: "Full name contains characters that are not allowed",
  phoneInvalid: "Please enter a valid phone number",
  signupSuccess: "Account created successfully! Please check your email to verify your account.",
  signupFailed: "An error occurred. Please try again.",
  googleSignupFailed: "Failed to sign up with Google.",
  googleLoginFailed: "Google login failed. Please try again.",
  googleNotConfigured: "Google sign-in is not configured on this server.",
  loginFailed: "An error occurred during login. Please try again.",
  invalidCredentials: "Invalid email or password",
  emailNotVerified:
    "Please verify your email address before signing in. Open the link we e-mailed you, or send a new one below.",
  verificationResent: "If this address has an account waiting for verification, we have sent a new link. Check your inbox.",
  emailVerified: "Your email address is verified. You can sign in now.",
  verificationLinkInvalid: "This verification link is invalid or has expired. Sign in to get a new one.",
  forgotNeedsEmail: "Please enter your email address first.",
  resetSent: "Password reset email sent! Check your inbox.",
  resetLinkInvalid: "This password reset link is invalid or has expired. Request a new one below.",
  resetDone: "Your password has been changed. Sign in with your new password.",
  choosePasswordTitle: "Choose your password",
  choosePasswordLead:
    "Your email address is verified. For your safety, choose the password for your account now: a password typed when the account was created is not kept.",
  rateLimited: "Too many attempts. Please wait a few minutes and try again.",
  signInRequired: "Please sign in to continue.",
} as const;

/** What a client is, as sign-up and Add New Client both take it (docs/product/accounts.md#sign-up). */
export type ClientDetailsValues = {
  fullName: string;
  email: string;
  phone: string;
  visaStatus: string;
};

export type ClientDetails = { fullName: string; email: string; phone: string | null; visaStatus: VisaStatus };

export type SignupValues = ClientDetailsValues & {
  password: string;
  confirmPassword: string;
  acceptTerms: boolean;
};

export type SignupField = keyof SignupValues;

type Problem<F extends string> = { ok: false; field: F; message: string };

export type ClientDetailsCheck = { ok: true; data: ClientDetails } | Problem<keyof ClientDetailsValues>;

export type SignupCheck = { ok: true; data: ClientDetails & { password: string } } | Problem<SignupField>;

function passwordProblem(password: string): string | undefined {
  if (password.length === 0) return AUTH_MESSAGES.passwordRequired;
  if (password.length < PASSWORD_MIN) return AUTH_MESSAGES.passwordTooShort;
  if (password.length > PASSWORD_MAX) return AUTH_MESSAGES.passwordTooLong;
  return undefined;
}

/**
 * The client details' checks in their documented order (docs/product/accounts.md#sign-up); the
 * first failure is the answer. Sign-up checks its passwords and terms after the visa status and
 * before the phone: they come in as `before phone`.
 */
function checkDetails<F extends string>(
  v: ClientDetailsValues,
  beforePhone: () => Problem<F> | undefined,
): { ok: true; data: ClientDetails } | Problem<F | keyof ClientDetailsValues> {
  const fullName = v.fullName.trim();
  const email = v.email.trim().toLowerCase();
  if (!fullName) return { ok: false, field: "fullName", message: AUTH_MESSAGES.fullNameRequired };
  if (fullName.length > 100) return { ok: false, field: "fullName", message: AUTH_MESSAGES.nameTooLong };
  if (hasControlCharacters(fullName)) return { ok: false, field: "fullName", message: AUTH_MESSAGES.nameInvalid };
  if (!email) return { ok: false, field: "email", message: AUTH_MESSAGES.emailRequired };
  if (!email.includes("@") || !EMAIL_SHAPE.test(email) || email.length > 254)
    return { ok: false, field: "email", message: AUTH_MESSAGES.emailInvalid };
  if (!isVisaStatus(v.visaStatus))
    return { ok: false, field: "visaStatus", message: AUTH_MESSAGES.visaRequired };
  const problem = beforePhone();
  if (problem) return problem;
  const phone = v.phone.trim();
  if (phone && !/^\+?[0-9 ()-]{7,20}$/.test(phone))
    return { ok: false, field: "phone", message: AUTH_MESSAGES.phoneInvalid };
  return { ok: true, data: { fullName, email, phone: phone || null, visaStatus: v.visaStatus } };
}

/** The client details alone (Add New Client: the client chooses the password later). */
export function checkClientDetails(v: ClientDetailsValues): ClientDetailsCheck {
  return checkDetails(v, () => undefined);
}

/**
 * The sign-up checks in their documented order; the first failure is the answer
 * (docs/product/accounts.md#sign-up).
 * The browser and the server both run exactly this.
 */
export function checkSignup(v: SignupValues): SignupCheck {
  const checked = checkDetails(v, (): Problem<SignupField> | undefined => {
    const problem = passwordProblem(v.password);
    if (problem) return { ok: false, field: "password", message: problem };
    if (v.password !== v.confirmPassword)
      return { ok: false, field: "confirmPassword", message: AUTH_MESSAGES.passwordsDiffer };
    if (!v.acceptTerms) return { ok: false, field: "acceptTerms", message: AUTH_MESSAGES.termsRequired };
    return undefined;
  });
  return checked.ok ? { ok: true, data: { ...checked.data, password: v.password } } : checked;
}

/** A new password on /reset-password: the sign-up password rules. */
export function checkNewPassword(password: string, confirm: string): { field: "password" | "confirmPassword"; message: string } | undefined {
  const problem = passwordProblem(password);
  if (problem) return { field: "password", message: problem };
  if (password !== confirm) return { field: "confirmPassword", message: AUTH_MESSAGES.passwordsDiffer };
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The same rules as form schemas (app/server/http/form.server.ts parseForm). A field sent twice
// counts once, as its first value; a missing one is empty.

/** A form field as typed: its first value, untrimmed ("" when it was not sent). */
export const formField = z.preprocess((value) => (Array.isArray(value) ? value[0] : value) ?? "", z.string());

/** A check box: ticked when it was sent as "on". */
const checkBox = formField.transform((value) => value === "on");

/** The client details' fields: the base that sign-up extends. */
export const ClientDetailsFields = z.object({ fullName: formField, email: formField, phone: formField, visaStatus: formField });

/** Sign-up's fields: the client details, the password twice and the terms. */
export const SignupFields = ClientDetailsFields.extend({ password: formField, confirmPassword: formField, acceptTerms: checkBox });

/** A rule's first failure as the schema's one issue, on the field it names. */
function answer<T, F extends string>(checked: { ok: true; data: T } | Problem<F>, ctx: z.RefinementCtx): T {
  if (checked.ok) return checked.data;
  ctx.addIssue({ code: "custom", path: [checked.field], message: checked.message });
  return z.NEVER;
}

/** The sign-up form, checked; the Google button sends the same form and skips the checks. */
export const SignupSchema = SignupFields.extend({ intent: formField }).transform((v, ctx) =>
  v.intent === "google" ? { intent: "google" as const } : { intent: "signup" as const, ...answer(checkSignup(v), ctx) },
);

/** The sign-in page's three buttons and the Google one; anything else signs in. */
export const SignInSchema = z.object({
  intent: formField.transform((v) => (v === "google" || v === "forgot" || v === "resend" ? v : "signin")),
  email: formField.transform((v) => v.trim().toLowerCase()),
  password: formField,
  remember: checkBox,
  // Only a path of this site; "" otherwise (the sign-in then goes to the account's home).
  redirectTo: formField.transform((v) => safeRedirect(v, "")),
});

/** /reset-password: a new password for the link's token, or (intent "request") a new link. */
export const ResetPasswordSchema = z
  .object({ intent: formField, email: formField, password: formField, confirmPassword: formField, token: formField })
  .transform((v, ctx) => {
    if (v.intent === "request") return { intent: "request" as const, email: v.email.trim().toLowerCase() };
    const problem = checkNewPassword(v.password, v.confirmPassword);
    return { intent: "reset" as const, ...answer(problem ? { ok: false, ...problem } : { ok: true, data: { password: v.password, token: v.token } }, ctx) };
  });

/**
 * Add New Client on the staff panel: the client details without passwords (the client chooses
 * one through the invitation), the full name sent as "name".
 */
export const AddClientForm = ClientDetailsFields.omit({ fullName: true })
  .extend({ intent: z.literal("add-client"), name: formField })
  .transform((v, ctx) => {
    const checked = checkClientDetails({ ...v, fullName: v.name });
    const onForm: { ok: true; data: ClientDetails } | Problem<"name" | "email" | "phone" | "visaStatus"> = checked.ok
      ? checked
      : { ...checked, field: checked.field === "fullName" ? "name" : checked.field };
    return { intent: v.intent, ...answer(onForm, ctx) };
  });

/** The staff second-factor pages: a code, and on the code page where to go after it. */
export const SecondFactorSchema = z.object({
  code: formField,
  redirectTo: formField.transform((v) => safeRedirect(v, "")),
});

/** `user`: a client; `admin` and `preparer`: staff (domain/policy.ts says what each may do). */
export const ROLES = ["user", "admin", "preparer"] as const;
export type Role = (typeof ROLES)[number];

/**
 * The role rule (docs/product/accounts.md#roles): the stored role is the truth; the verified
 * account whose e-mail equals ADMIN_EMAIL is an admin.
 */
export function effectiveRole(user: { role: string | null | undefined; email: string; emailVerified: boolean }, adminEmail: string | undefined): Role {
  if (user.role === "admin") return "admin";
  if (user.role === "preparer") {
    // The designated administrator is an admin whatever else their row says.
    return adminEmail && user.emailVerified && user.email.toLowerCase() === adminEmail.toLowerCase() ? "admin" : "preparer";
  }
  if (adminEmail && user.emailVerified && user.email.toLowerCase() === adminEmail.toLowerCase()) return "admin";
  return "user";
}

/**
 * Where a user lands after signing in: staff to the panel, clients to the dashboard
 * (docs/product/accounts.md#sign-in).
 */
export function homeFor(role: Role): string {
  return role === "user" ? "/dashboard" : "/admin/dashboard";
}

/**
 * The page to return to after sign-in: only same-origin paths, never another site
 * ("//evil.example", "https://…", "/\\evil").
 */
export function safeRedirect(target: unknown, fallback: string): string {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//") || target.includes("\\")) return fallback;
  // Printable ASCII only (the app's own links are percent-encoded): anything else cannot go in a Location header.
  if ([...target].some((c) => c.charCodeAt(0) < 0x21 || c.charCodeAt(0) > 0x7e)) return fallback;
  return target;
}

/** The part of an e-mail address before the @ (shown in the header's user menu). */
export function localPart(email: string): string {
  return email.split("@")[0] ?? email;
}
