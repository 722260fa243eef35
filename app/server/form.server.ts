/**
 * The fields of a posted form. A body that is not a form (JSON, plain text, broken multipart,
 * none at all) is the sender's mistake: it is answered 400, never with a server error.
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new Response("The form could not be read.", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}
