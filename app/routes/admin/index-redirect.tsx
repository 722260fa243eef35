import { redirect } from "react-router";
import { NO_STORE } from "~/server/auth/session.server";

export function loader() {
  return redirect("/admin/dashboard", { headers: NO_STORE });
}
