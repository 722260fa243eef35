import type { Route } from "./+types/auth";
import { getAuth } from "~/server/auth.server";
import { authHeaders } from "~/server/session.server";

/**
 * Better Auth endpoints the browser may call directly. Sign-up, sign-in, reset and
 * verification requests go through this app's own actions (validation, rate limits,
 * the spec's messages), so they are not exposed here.
 */
const exposed: Array<{ method: string; path: RegExp }> = [
  { method: "GET", path: /^\/api\/auth\/get-session$/ },
  { method: "GET", path: /^\/api\/auth\/verify-email$/ },
  { method: "GET", path: /^\/api\/auth\/callback\/google$/ },
  { method: "POST", path: /^\/api\/auth\/callback\/google$/ },
  { method: "GET", path: /^\/api\/auth\/error$/ },
];

async function handle({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const { pathname } = new URL(request.url);
  if (!exposed.some((e) => e.method === request.method && e.path.test(pathname))) {
    return new Response("Not found", { status: 404 });
  }
  const forwarded = new Request(request, { headers: authHeaders(request, context) });
  return getAuth().handler(forwarded);
}

export const loader = handle;
export const action = handle;
