import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { addDays, newYorkDay } from "~/domain/business-days";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { user } from "~/server/db/schema";
import { receiveUpload } from "~/server/documents/upload.server";
import type { ReceivedFile } from "~/server/documents/upload.server";
import { acceptHandwritten, uploadHandwritten } from "~/server/returns/handwritten.server";
import { approveReturnVersion } from "~/server/returns/reviews.server";
import { requestSignature } from "~/server/returns/signature-requests.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";
import { makeStaff, signedInClient, withCookie } from "../integration/helpers";

// What the tests of the return's records share: accounts, files as an upload receives them.

export type Account = { id: string; cookie: string; email: string; actor: SessionUser };

export async function account(email: string, name: string, role?: "admin" | "preparer"): Promise<Account> {
  const signedIn = await signedInClient(email);
  await getDb().update(user).set({ name }).where(eq(user.id, signedIn.id));
  if (role) await makeStaff(signedIn, role);
  const actor = await getSessionUser(withCookie("/", signedIn.cookie));
  if (!actor) throw new Error("no session");
  return { ...signedIn, email, actor };
}

const ascii = (s: string) => new TextEncoder().encode(s);

/** A small PDF; `tag` makes its bytes (and hash) differ. */
/** A one-page PDF (a letter-size blank page) whose bytes differ by `tag`. */
export const pdf = (tag = "draft") =>
  ascii(
    `%PDF-1.4\n% ${tag}\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n` +
      `3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
  );

/** The start of a JPEG: enough for the content check. */
export const jpeg = () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, ...new Array<number>(64).fill(0)]);

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A file as the streamed upload receives it: checked and stored (documents/upload.server.ts). */
export async function received(name: string, bytes: Uint8Array): Promise<ReceivedFile> {
  async function* chunks() {
    yield bytes;
  }
  return receiveUpload(name, chunks());
}

/** A day `days` from New York's today (the firm's, domain/business-days.ts), YYYY-MM-DD. */
export function dayFromToday(days: number): string {
  return addDays(newYorkDay(), days);
}

export const IP = "203.0.113.7";
export const UA = "Mozilla/5.0 (test)";

/** A client's return uploaded by the preparer, approved and signed by hand (accepted by the admin): authorised. */
export async function authorisedReturn(who: Account, staff: { preparer: Account; admin: Account }, taxYear: number): Promise<void> {
  const ref = { clientId: who.id, taxYear };
  const v = await uploadReturnVersion(staff.preparer.actor, ref, { form: "1040-NR", note: "", file: await received("v1.pdf", pdf("v1")) }, IP);
  if (!v.ok) throw new Error(v.error);
  await approveReturnVersion(who.actor, v.versionId, { ip: IP, userAgent: UA, declarationVersion: "d1" });
  const r = await requestSignature(staff.preparer.actor, v.versionId, { formFile: await received("8879.pdf", pdf("8879")), jointReturn: false }, IP);
  if (!r.ok) throw new Error(r.error);
  const up = await uploadHandwritten({ client: who.actor, requestId: r.requestId }, await received("scan.jpg", jpeg()), IP);
  if (!up.ok) throw new Error(up.error);
  const ok = await acceptHandwritten(staff.admin.actor, up.uploadId, IP);
  if (!ok.ok) throw new Error(ok.error);
}
