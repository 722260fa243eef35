import { redirect } from "react-router";
import type { Route } from "./+types/auth-callback";
import { homeFor } from "~/domain/auth";
import { sessionUserContext } from "~/server/auth/session.server";

// Google sends the user back here through Better Auth; they go on by role.
export function loader({ context }: Route.LoaderArgs) {
  const user = context.get(sessionUserContext);
  if (!user) throw redirect("/login?error=google");
  throw redirect(homeFor(user.role));
}
