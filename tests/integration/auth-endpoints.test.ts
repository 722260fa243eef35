import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { OAuth2Server } from "oauth2-mock-server";
import { action as authApiAction, loader as authApiLoader } from "~/routes/api/auth";
import { action as loginAction } from "~/routes/auth/login";
import { action as signupAction } from "~/routes/auth/signup";
import { accountMailSent } from "~/server/auth/better-auth.server";
import { formRequest, routeArgs } from "../helpers/route";
import { signupFields } from "../helpers/signup";
import { sentMail, signedInClient } from "./helpers";

// Google sign-in is configured for this file only, against a mock OpenID provider.
vi.hoisted(() => {
  process.env.GOOGLE_CLIENT_ID = "it-google-client";
  process.env.GOOGLE_CLIENT_SECRET = "it-google-secret";
});

const mock = new OAuth2Server();
const realFetch = globalThis.fetch;

beforeAll(async () => {
  await mock.issuer.keys.generate("RS256");
  await mock.start(0, "127.0.0.1");
  const base = mock.issuer.url!;
  mock.service.on("beforeTokenSigning", (token) => {
    Object.assign(token.payload, {
      iss: "https://accounts.google.com",
      aud: "it-google-client",
      sub: "google-grace",
      email: "grace@example.com",
      email_verified: true,
      name: "Grace Google",
    });
  });
  const googleToMock = new Map([
    ["https://oauth2.googleapis.com/token", `${base}/token`],
    ["https://www.googleapis.com/oauth2/v3/certs", `${base}/jwks`],
  ]);
  vi.stubGlobal("fetch", (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const target = googleToMock.get(url.split("?")[0]!);
    if (!target) return realFetch(input, init);
    return input instanceof Request ? realFetch(new Request(target, input), init) : realFetch(target, init);
  });
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await mock.stop();
});

async function call(method: "GET" | "POST", path: string, cookie = ""): Promise<Response> {
  const headers: Record<string, string> = { cookie };
  if (method === "POST") headers["content-type"] = "application/json";
  const request = new Request(`http://localhost:3000${path}`, {
    method,
    headers,
    body: method === "POST" ? "{}" : undefined,
  });
  const handler = method === "GET" ? authApiLoader : authApiAction;
  return (await handler(routeArgs(request) as never)) as Response;
}

/** The session token in an answer's Set-Cookie header (the cookie's value before its signature). */
function sessionToken(answer: Response): { token: string; cookie: string } | undefined {
  const cookie = answer.headers.getSetCookie().find((c) => /session_token=[^;]/.test(c));
  const token = cookie && /session_token=([^;.]+)/.exec(cookie)?.[1];
  return cookie && token ? { token: decodeURIComponent(token), cookie } : undefined;
}

describe("/api/auth/*", () => {
  it("answers 404 for every endpoint the pages do not use, the session read included", async () => {
    const { cookie } = await signedInClient("reader@example.com");
    const closed: Array<["GET" | "POST", string]> = [
      ["GET", "/api/auth/get-session"],
      ["GET", "/api/auth/list-sessions"],
      ["GET", "/api/auth/list-accounts"],
      ["GET", "/api/auth/account-info"],
      ["GET", "/api/auth/error"],
      ["GET", "/api/auth/ok"],
      ["GET", "/api/auth/reset-password/some-token"],
      ["POST", "/api/auth/get-access-token"],
      ["POST", "/api/auth/refresh-token"],
      ["POST", "/api/auth/sign-in/email"],
      ["POST", "/api/auth/sign-in/social"],
      ["POST", "/api/auth/sign-up/email"],
      ["POST", "/api/auth/sign-out"],
      ["POST", "/api/auth/update-user"],
      ["POST", "/api/auth/update-session"],
      ["POST", "/api/auth/change-password"],
      ["POST", "/api/auth/change-email"],
      ["POST", "/api/auth/set-password"],
      ["POST", "/api/auth/delete-user"],
      ["POST", "/api/auth/revoke-session"],
      ["POST", "/api/auth/revoke-sessions"],
      ["POST", "/api/auth/request-password-reset"],
      ["POST", "/api/auth/reset-password"],
      ["POST", "/api/auth/send-verification-email"],
      ["POST", "/api/auth/link-social"],
      ["POST", "/api/auth/unlink-account"],
      ["POST", "/api/auth/verify-email"],
      ["GET", "/api/auth/callback/unknown-provider"],
    ];
    const answers: string[] = [];
    for (const [method, path] of closed) {
      const answer = await call(method, path, cookie);
      const body = await answer.text();
      answers.push(`${method} ${path} ${answer.status} ${body}`);
    }
    expect(answers).toEqual(closed.map(([method, path]) => `${method} ${path} 404 Not found`));
  });

  it("the verification link answers with a redirect, no session and no token", async () => {
    const fields = signupFields("vera@example.com", "vera pass 12", "Vera Link");
    await signupAction(routeArgs(formRequest("/signup", fields)) as never);
    await accountMailSent();
    const link = new URL(
      (await sentMail())[0]!.text.match(/https?:\/\/\S*\/api\/auth\/verify-email\S*/)![0],
    );
    const answer = await call("GET", `${link.pathname}${link.search}`);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/login?verified=1");
    expect(sessionToken(answer)).toBeUndefined();
  });

  it("Google's return sets the session only in an http-only cookie, never in the body", async () => {
    // The sign-in page starts Google sign-in: a redirect to Google with the state, and its cookie.
    const started = (await loginAction(
      routeArgs(formRequest("/login", { intent: "google" })) as never,
    )) as Response;
    expect(started.status).toBe(302);
    const toGoogle = new URL(started.headers.get("location")!);
    const stateCookie = started.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    // The person agrees at "Google" (the mock), which sends them back with a code.
    const consent = await realFetch(`${mock.issuer.url}/authorize${toGoogle.search}`, { redirect: "manual" });
    const back = new URL(consent.headers.get("location")!);
    expect(back.pathname).toBe("/api/auth/callback/google");

    const answer = await call("GET", `${back.pathname}${back.search}`, stateCookie);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/auth/callback");
    const session = sessionToken(answer);
    expect(session).toBeDefined();
    expect(session!.cookie).toMatch(/;\s*HttpOnly/i);
    const body = await answer.text();
    expect(body).not.toContain(session!.token);
    for (const [name, value] of answer.headers)
      if (name !== "set-cookie") expect(value).not.toContain(session!.token);
  });
});
