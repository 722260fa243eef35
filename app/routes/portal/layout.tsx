import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { NO_STORE, requireUser } from "~/server/session.server";

// The guard for every page below; each page's own loader and action check again.
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return null;
}

export function headers() {
  return NO_STORE;
}

export default function PortalLayout() {
  return <Outlet />;
}
