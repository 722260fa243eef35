import { isAPIError } from "better-auth/api";
import { redirect } from "react-router";
import type { RouterContextProvider } from "react-router";
import { AUTH_MESSAGES } from "~/domain/auth";
import { logError } from "~/log";
import { getAuth } from "~/server/auth/better-auth.server";
import { getEnv } from "~/server/platform/env.server";
import { authHeaders } from "./session.server";

/** Starts Google sign-in: the redirect to Google, carrying Better Auth's state cookie. */
export async function startGoogleSignIn(
  request: Request,
  context: Readonly<RouterContextProvider>,
  errorPath: "/login" | "/signup",
): Promise<{ error: string } | Response> {
  if (!getEnv().google) return { error: AUTH_MESSAGES.googleNotConfigured };
  try {
    const { headers, response } = await getAuth().api.signInSocial({
      body: {
        provider: "google",
        callbackURL: "/auth/callback",
        newUserCallbackURL: "/auth/callback",
        errorCallbackURL: `${errorPath}?error=google`,
      },
      headers: authHeaders(request, context),
      returnHeaders: true,
    });
    if (!response.url) throw new Error("no authorization URL");
    return redirect(response.url, { headers: setCookies(headers) });
  } catch (error) {
    logError("auth", "Google sign-in could not start", error);
    if (isAPIError(error) && error.body?.message) return { error: error.body.message };
    return { error: errorPath === "/signup" ? AUTH_MESSAGES.googleSignupFailed : AUTH_MESSAGES.googleLoginFailed };
  }
}

/** Only the Set-Cookie headers of a Better Auth answer, to pass on with a redirect. */
export function setCookies(from: Headers): Headers {
  const out = new Headers();
  for (const cookie of from.getSetCookie()) out.append("Set-Cookie", cookie);
  return out;
}

/** The message of a Better Auth error, when it has one. */
export function apiErrorCode(error: unknown): string | undefined {
  return isAPIError(error) ? error.body?.code : undefined;
}
