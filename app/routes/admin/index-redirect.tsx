import { redirect } from "react-router";
import { NO_STORE } from "~/server/session.server";

export function loader() {
  return redirect("/admin/dashboard", { headers: NO_STORE });
}
