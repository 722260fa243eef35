import type { Route } from "./+types/sign-form-file";
import { fileResponse } from "~/server/returns/file-response.server";
import { signingFormFile } from "~/server/returns/signer-view.server";

/** The form the spouse's link lets them sign, as a download; 404 for a link that is not valid. */
export async function loader({ request, params }: Route.LoaderArgs) {
  return fileResponse(request, await signingFormFile({ token: params.token }));
}
