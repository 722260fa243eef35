import type { AppLoadContext } from "react-router";

/** Arguments for calling a route module's loader or action directly, as the server would. */
export function routeArgs(request: Request, context: Partial<AppLoadContext> = {}) {
  return {
    request,
    params: {},
    context: { clientIp: "203.0.113.10", cspNonce: "", ...context } satisfies AppLoadContext,
    unstable_pattern: "",
  };
}

export function formRequest(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request(`http://localhost:3000${url}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
  });
}

/** The status and body of what an action returned (a plain value or `data(...)`). */
export function unwrap<T>(result: unknown): { status: number; body: T; headers: Headers } {
  if (result && typeof result === "object" && "type" in result && (result as { type: unknown }).type === "DataWithResponseInit") {
    const r = result as unknown as { data: T; init?: { status?: number; headers?: HeadersInit } | null };
    return { status: r.init?.status ?? 200, body: r.data, headers: new Headers(r.init?.headers) };
  }
  return { status: 200, body: result as T, headers: new Headers() };
}
