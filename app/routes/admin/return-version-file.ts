import type { Route } from "./+types/return-version-file";
import { contentDisposition } from "~/routes/portal/document-download";
import { NO_STORE, staffContext } from "~/server/auth/session.server";
import { returnVersionFile } from "~/server/returns/versions.server";

/**
 * One version of a case's draft return, for staff (the Return section's download links): any
 * version of the client's case, streamed from storage as an attachment. An unknown version, or
 * one of another client, is a 404.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const staff = context.get(staffContext);
  const file = await returnVersionFile(staff, params.versionId);
  const notFound = () =>
    new Response("Version not found.", { status: 404, headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" } });
  if (!file) return notFound();
  if (file.clientId !== params.clientId) {
    await file.body.cancel();
    return notFound();
  }
  const headers = {
    ...NO_STORE,
    "Content-Type": file.contentType,
    "Content-Length": String(file.size),
    "Content-Disposition": contentDisposition(file.name),
  };
  if (request.method === "HEAD") {
    await file.body.cancel();
    return new Response(null, { status: 200, headers });
  }
  return new Response(file.body, { status: 200, headers });
}
