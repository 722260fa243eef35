import type { Route } from "./+types/sign-signed-form";
import { uploadLoader } from "~/server/documents/upload-request.server";
import { backToPage, uploadSignedForm } from "~/server/returns/signer-forms.server";

export const loader = uploadLoader;

/** The spouse's hand-signed form (multipart, one `file`), through their link; back to their page, which says how it went. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const answer = await uploadSignedForm({ token: params.token }, request, context.clientIp);
  return backToPage(`/sign/${encodeURIComponent(params.token)}`, answer);
}
