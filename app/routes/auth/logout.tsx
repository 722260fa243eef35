import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { logError } from "~/log";
import { setCookies } from "~/server/auth/auth-actions.server";
import { getAuth } from "~/server/auth/better-auth.server";
import { authHeaders } from "~/server/auth/session.server";

export async function action({ request, context }: Route.ActionArgs) {
  try {
    const { headers } = await getAuth().api.signOut({ headers: authHeaders(request, context), returnHeaders: true });
    return redirect("/", { headers: setCookies(headers) });
  } catch (error) {
    // A sign-out failure is only logged (docs/product/accounts.md#sign-out).
    logError("auth", "sign-out failed", error);
    return redirect("/");
  }
}

export function loader() {
  return redirect("/");
}
