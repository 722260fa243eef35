import { createContext, useContext } from "react";
import { useRouteLoaderData } from "react-router";
import { useNonce } from "~/components/nonce";
import { isStaffRole } from "~/domain/policy";
import type { StaffArea } from "~/domain/policy";
import type { HeaderUser } from "./user-menu";

/** What the staff panel's frame shows around a page of the panel. */
export type PanelFrameData = { totalClients: number; unreadMessages: number; areas: StaffArea[] };

/**
 * Who is signed in, for an error page rendered before any loader ran (a guard's refusal, such as
 * the staff policy's 403): the root loader's data is then missing. entry.server.tsx reads it from
 * the request and the page carries a copy for the browser to hydrate with. `panel` is the staff
 * panel's frame, for a staff member refused a part of the panel.
 */
export type ErrorPageUser = { user: HeaderUser; panel: PanelFrameData | null };

const ErrorPageUserContext = createContext<ErrorPageUser | null>(null);

export const ErrorPageUserProvider = ErrorPageUserContext.Provider;

const COPY_ID = "error-page-user";

function isErrorPageUser(value: unknown): value is ErrorPageUser {
  if (!value || typeof value !== "object") return false;
  const { user, panel } = value as Partial<ErrorPageUser>;
  return (
    !!user &&
    typeof user.email === "string" &&
    typeof user.role === "string" &&
    (panel === null || (typeof panel === "object" && Array.isArray(panel?.areas) && isStaffRole(user.role)))
  );
}

/** The error page's signed-in user: from the server's render, or in the browser from the page's copy. */
export function useErrorPageUser(): ErrorPageUser | null {
  const fromServer = useContext(ErrorPageUserContext);
  if (typeof document === "undefined") return fromServer;
  const copy = document.getElementById(COPY_ID)?.textContent;
  if (!copy) return null;
  try {
    const parsed: unknown = JSON.parse(copy);
    return isErrorPageUser(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** The signed-in user the site header shows: the root loader's, else the error page's. */
export function useSignedInUser(): HeaderUser | null {
  const rootData = useRouteLoaderData("root") as { user: HeaderUser | null } | undefined;
  const errorPage = useErrorPageUser();
  return rootData ? rootData.user : (errorPage?.user ?? null);
}

/** The page's copy of the error page's user, read back by useErrorPageUser when it hydrates (a data block: never run). */
export function ErrorPageUserCopy({ value }: { value: ErrorPageUser }) {
  const nonce = useNonce();
  // "<" escaped so the text can never close the element. The nonce, as every script element of
  // the page carries (the browser hides its value again once the page is read).
  const json = JSON.stringify(value).replace(/</g, "\\u003c");
  return (
    <script
      type="application/json"
      id={COPY_ID}
      nonce={nonce || undefined}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: json }}
    />
  );
}
