import type { MouseEvent } from "react";
import { Link } from "react-router";
import { DASHBOARD_PATH } from "~/domain/admin-links";
import type { ManagedClient } from "./types";

/**
 * The page under the Document Management modal: a link back to where it was opened from, and
 * whose documents these are. `onLeave` may keep the link from leaving unsaved changes.
 */
export function DocumentsHeading({
  client,
  back,
  onLeave,
}: {
  client: ManagedClient;
  back: string;
  onLeave: (event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  // The link says where it goes: the client list, or the case page the modal was opened from.
  const backLabel = back.startsWith(DASHBOARD_PATH) ? "Back to all clients" : "Back to the case";
  return (
    <>
      <p>
        <Link
          to={back}
          onClick={onLeave}
          className="inline-flex min-h-11 items-center text-sm font-semibold text-primary-700 hover:underline sm:min-h-0"
        >
          {backLabel}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold tracking-tight">Documents of {client.name}</h1>
      <p className="mt-1 text-sm text-ink-muted">
        {client.code} · {client.email} · Tax year {client.taxYear}
      </p>
    </>
  );
}
