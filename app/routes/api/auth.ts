import type { Route } from "./+types/auth";
import { getAuth } from "~/server/auth/better-auth.server";
import { authHeaders } from "~/server/auth/session.server";

/**
 * The only Better Auth endpoints a browser reaches directly: the link in the verification e-mail
 * and Google's return to the site. Sign-up, sign-in, reset and verification requests go through
 * this app's own actions (validation, rate limits, the messages of docs/product/accounts.md), and
 * pages read the session on the server, so everything else (the session read included) answers 404
 * like any unknown address.
 */
const exposed: Array<{ method: string; path: RegExp }> = [
  { method: "GET", path: /^\/api\/auth\/verify-email$/ },
  { method: "GET", path: /^\/api\/auth\/callback\/google$/ },
  { method: "POST", path: /^\/api\/auth\/callback\/google$/ },
];

/** The session tokens an answer sets: the part of the session cookie's value before its signature. */
function sessionTokensSet(answer: Response): string[] {
  return answer.headers
    .getSetCookie()
    .map((cookie) => /^(?:__Secure-)?[\w.-]*session_token=([^;.]+)/.exec(cookie)?.[1])
    .filter((token): token is string => Boolean(token));
}

/**
 * The session token travels only in the http-only cookie, never where a page script could read
 * it: an answer whose body would carry it keeps its status and headers and loses its body.
 */
async function withoutTokenInBody(answer: Response): Promise<Response> {
  const tokens = sessionTokensSet(answer);
  if (tokens.length === 0 || answer.body === null) return answer;
  const body = await answer.text();
  const leaks = tokens.some((token) => body.includes(token) || body.includes(decodeURIComponent(token)));
  return new Response(leaks ? null : body, {
    status: answer.status,
    statusText: answer.statusText,
    headers: answer.headers,
  });
}

async function handle({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const { pathname } = new URL(request.url);
  if (!exposed.some((e) => e.method === request.method && e.path.test(pathname))) {
    return new Response("Not found", { status: 404 });
  }
  const forwarded = new Request(request, { headers: authHeaders(request, context) });
  return withoutTokenInBody(await getAuth().handler(forwarded));
}

export const loader = handle;
export const action = handle;
