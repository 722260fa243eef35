/**
 * CSRF defence for every state-changing request: a browser always sends Origin on a
 * cross-site POST, so a request whose Origin is neither this server's public origin
 * (APP_URL) nor the host it was sent to is refused.
 */
export function isAllowedOrigin(input: {
  method: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  host: string | undefined;
  appUrl: string;
}): boolean {
  if (["GET", "HEAD", "OPTIONS"].includes(input.method.toUpperCase())) return true;
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
