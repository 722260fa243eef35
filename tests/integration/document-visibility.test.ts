import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { clientMaySee } from "~/domain/documents";
import { currentFilingYear } from "~/domain/tax-year";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { documentRequests, documents } from "~/server/db/schema";
import { setDocumentsShared } from "~/server/documents/changes.server";
import { documentForDownload } from "~/server/documents/download.server";
import { listCaseDocuments, listOwnDocuments } from "~/server/documents/listing.server";
import { receiveUpload, recordUploads } from "~/server/documents/upload.server";
import { clientConversation, staffConversation } from "~/server/messages/conversation.server";
import { sendMessage } from "~/server/messages/posting.server";
import { addRequestItem, listCaseRequests, listOwnRequests } from "~/server/requests/requests.server";
import { makeStaff, signedInClient, withCookie } from "./helpers";

// Which of a case's documents its client may see is one rule (domain/documents.ts clientMaySee,
// documents/visibility.server.ts in SQL): the client's own uploads, and staff's once shared. The
// client meets documents in four places (their documents, a message's files, a requested item's
// files, a download); each must show the same ones, and staff's views all of them.

const X = currentFilingYear();
const IP = "203.0.113.7";
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");

let staff: SessionUser;
let client: SessionUser;

async function actor(email: string, role?: "admin" | "preparer"): Promise<SessionUser> {
  const account = await signedInClient(email);
  if (role) await makeStaff(account, role);
  const user = await getSessionUser(withCookie("/", account.cookie));
  if (!user) throw new Error("no session");
  return user;
}

async function* chunks(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** One PDF uploaded by `by` to the client's case, sent against `requestId` and with `messageId`. */
async function upload(by: SessionUser, name: string, links: { requestId: string; messageId: string }): Promise<string> {
  const received = await receiveUpload(name, chunks(PDF));
  const outcome = await recordUploads(by, { clientId: client.id, taxYear: X, category: "other-documents", files: [received], ...links }, IP);
  const id = outcome.uploaded[0]?.id;
  if (!id) throw new Error(`${name} was not recorded`);
  return id;
}

beforeEach(async () => {
  staff = await actor("sam.staff@example.com", "preparer");
  client = await actor("alice@example.com");
});

describe("the documents a client may see", () => {
  it("are the same wherever the client meets them: their own uploads and staff's shared ones, never staff's unshared ones", async () => {
    expect(await addRequestItem(staff, { clientId: client.id, taxYear: X }, { title: "Form W-2", detail: "", category: "w-2" }, IP)).toBe("added");
    const [item] = await getDb().select({ id: documentRequests.id }).from(documentRequests).where(eq(documentRequests.clientId, client.id));
    const sent = await sendMessage(staff, { clientId: client.id, taxYear: X, body: "Here are the papers.", category: "other-documents", files: [] }, IP);
    if (!item || !sent) throw new Error("no item or message");
    const links = { requestId: item.id, messageId: sent.id };

    const own = await upload(client, "own.pdf", links);
    const shared = await upload(staff, "shared.pdf", links);
    const notShared = await upload(staff, "not-shared.pdf", links);
    expect(await setDocumentsShared(staff, { clientId: client.id, taxYear: X, documentIds: [shared], shared: true }, IP)).toHaveLength(1);

    // The rule, applied to what is stored.
    const stored = await getDb().select({ id: documents.id, fromClient: documents.fromClient, sharedAt: documents.sharedAt }).from(documents);
    const visible = stored.filter(clientMaySee).map((d) => d.id).sort();
    expect(visible).toEqual([own, shared].sort());
    const all = [own, shared, notShared].sort();

    // The client's documents, the message's files, the item's files.
    expect((await listOwnDocuments(client.id, X)).map((d) => d.id).sort()).toEqual(visible);
    const conversation = await clientConversation(client.id, X);
    expect(conversation!.messages.flatMap((m) => m.attachments.map((a) => a.id)).sort()).toEqual(visible);
    expect((await listOwnRequests(client.id, X)).flatMap((r) => r.files.map((f) => f.id)).sort()).toEqual(visible);
    // A download: the file for the visible ones, nothing for the other (as for an unknown id).
    for (const id of all) {
      const download = await documentForDownload(client, id, IP);
      if (download === "waits-for-fee") throw new Error("no final copy here");
      await download?.body.cancel();
      expect([id, download !== null]).toEqual([id, visible.includes(id)]);
    }

    // Staff see every one, each marked as shared with the client or not by the same rule.
    expect((await listCaseDocuments(staff, client.id, X)).map((d) => d.id).sort()).toEqual(all);
    const staffView = await staffConversation(staff, client.id, X);
    const attachments = staffView!.flatMap((m) => m.attachments);
    expect(attachments.map((a) => a.id).sort()).toEqual(all);
    expect(attachments.filter((a) => a.shared).map((a) => a.id).sort()).toEqual(visible);
    expect((await listCaseRequests(staff, client.id, X)).flatMap((r) => r.files.map((f) => f.id)).sort()).toEqual(all);
    for (const id of all) {
      const download = await documentForDownload(staff, id, IP);
      expect(download).not.toBeNull();
      if (download === "waits-for-fee") throw new Error("staff never wait for the fee");
      await download?.body.cancel();
    }
  });

  it("no longer include a staff document once taken back", async () => {
    const sent = await sendMessage(staff, { clientId: client.id, taxYear: X, body: "A draft.", category: "other-documents", files: [] }, IP);
    await addRequestItem(staff, { clientId: client.id, taxYear: X }, { title: "Draft", detail: "", category: "other-documents" }, IP);
    const [item] = await getDb().select({ id: documentRequests.id }).from(documentRequests).where(eq(documentRequests.clientId, client.id));
    const draft = await upload(staff, "draft.pdf", { requestId: item!.id, messageId: sent!.id });
    await setDocumentsShared(staff, { clientId: client.id, taxYear: X, documentIds: [draft], shared: true }, IP);
    expect((await listOwnDocuments(client.id, X)).map((d) => d.id)).toEqual([draft]);

    await setDocumentsShared(staff, { clientId: client.id, taxYear: X, documentIds: [draft], shared: false }, IP);
    expect(await listOwnDocuments(client.id, X)).toEqual([]);
    expect((await clientConversation(client.id, X))!.messages.flatMap((m) => m.attachments)).toEqual([]);
    expect((await listOwnRequests(client.id, X)).flatMap((r) => r.files)).toEqual([]);
    expect(await documentForDownload(client, draft, IP)).toBeNull();
  });
});
