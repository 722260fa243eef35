import { data, redirect } from "react-router";
import type { Route } from "./+types/pay";
import { homeFor } from "~/domain/auth";
import { isStaffRole } from "~/domain/policy";
import { feeAddress } from "~/domain/fees";
import { NO_STORE, sessionUserContext } from "~/server/auth/session.server";
import { openFeeYear } from "~/server/fees/open-fee.server";

/**
 * Where the payment offer's PAY SECURELY NOW leads (docs/product/fees.md#paying): a signed-in
 * client to their open fee (My Tax Filing when none is open), anyone else to sign in first and
 * then back here. The public pages are the same for everyone (and cached), so the choice is made
 * here. Asked for JSON (the button's script), it answers the address instead of redirecting.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(sessionUserContext);
  let to: string;
  if (!user) to = `/login?redirectTo=${encodeURIComponent("/pay")}`;
  else if (isStaffRole(user.role)) to = homeFor(user.role);
  else to = feeAddress(await openFeeYear(user.id));
  if (request.headers.get("Accept")?.includes("application/json")) return data({ to }, { headers: NO_STORE });
  throw redirect(to, { headers: NO_STORE });
}
