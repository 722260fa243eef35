/**
 * The only addresses another site may POST to: Stripe's webhook, which Stripe's servers call and
 * which admits nothing but an event signed with the endpoint's secret (app/routes/api/stripe-webhook.ts).
 * Exact paths: the address with `.data` or anything after it is checked like every other.
 */
export const CROSS_ORIGIN_POST_PATHS: readonly string[] = ["/api/stripe/webhook"];

/**
 * CSRF defence for every state-changing request: a browser always sends Origin on a
 * cross-site POST, so a request whose Origin is neither this server's public origin
 * (APP_URL) nor the host it was sent to is refused, except a POST to one of
 * CROSS_ORIGIN_POST_PATHS (`path`: the request's path without its query).
 */
export function isAllowedOrigin(input: {
  method: string;
  path?: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  host: string | undefined;
  appUrl: string;
}): boolean {
  if (["GET", "HEAD", "OPTIONS"].includes(input.method.toUpperCase())) return true;
  if (input.method.toUpperCase() === "POST" && input.path !== undefined && CROSS_ORIGIN_POST_PATHS.includes(input.path)) return true;
  if (input.origin === undefined) return input.secFetchSite !== "cross-site";
  if (input.origin === "null") return false;
  let origin: URL;
  try {
    origin = new URL(input.origin);
  } catch {
    return false;
  }
  if (origin.origin === new URL(input.appUrl).origin) return true;
  return input.host !== undefined && origin.host === input.host;
}
