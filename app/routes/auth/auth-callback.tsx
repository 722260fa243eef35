import { redirect } from "react-router";
import type { Route } from "./+types/auth-callback";
import { homeFor } from "~/domain/auth";
import { getSessionUser } from "~/server/auth.server";

// Google sends the user back here through Better Auth; they go on by role.
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (!user) throw redirect("/login?error=google");
  throw redirect(homeFor(user.role));
}
