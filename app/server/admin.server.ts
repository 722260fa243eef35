import { randomUUID } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { business } from "~/content/business";
import { clientCode } from "~/domain/admin";
import type { AdminClientRow, StaffMember } from "~/domain/admin";
import { isStageKey } from "~/domain/workflow";
import type { StageKey, WorkflowFlags } from "~/domain/workflow";
import { recordAudit } from "./audit.server";
import type { SessionUser } from "./auth.server";
import { createPasswordLink } from "./auth.server";
import { getDb } from "./db/client.server";
import { clientCases, contactMessages, profiles, user } from "./db/schema";
import { sendMail } from "./mail.server";

/** Every client account gets its case row (the workflow starts at HOME). */
export async function ensureClientCases(): Promise<void> {
  await getDb().execute(sql`
    insert into client_cases (user_id)
    select u.id from "user" u
    where u.role = 'user' and not exists (select 1 from client_cases c where c.user_id = u.id)
    on conflict do nothing
  `);
}

/** Every client with their case, assignee and document count. Admin only: callers check the role. */
export async function listClientRows(): Promise<AdminClientRow[]> {
  await ensureClientCases();
  const db = getDb();
  const staff = new Map((await listStaff()).map((s) => [s.id, s]));
  const rows = await db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      createdAt: user.createdAt,
      number: clientCases.number,
      currentStage: clientCases.currentStage,
      home: clientCases.home,
      taxinfo: clientCases.taxinfo,
      documents: clientCases.documents,
      preparation: clientCases.preparation,
      draft: clientCases.draft,
      payment: clientCases.payment,
      efiling: clientCases.efiling,
      finalcopies: clientCases.finalcopies,
      assigneeId: clientCases.assigneeId,
      documentCount: sql<number>`(select count(*) from documents d where d.client_id = ${user.id})`.mapWith(Number),
    })
    .from(clientCases)
    .innerJoin(user, eq(user.id, clientCases.userId))
    .where(eq(user.role, "user"))
    .orderBy(desc(clientCases.number));
  return rows.map((r) => ({
    id: r.id,
    code: clientCode(r.number),
    name: r.name,
    email: r.email,
    assignee: (r.assigneeId && staff.get(r.assigneeId)) || null,
    stage: isStageKey(r.currentStage) ? r.currentStage : "home",
    flags: {
      home: r.home,
      taxinfo: r.taxinfo,
      documents: r.documents,
      preparation: r.preparation,
      draft: r.draft,
      payment: r.payment,
      efiling: r.efiling,
      finalcopies: r.finalcopies,
    },
    documentCount: Number(r.documentCount ?? 0),
    createdAt: r.createdAt.toISOString(),
  }));
}

export async function countClients(): Promise<number> {
  const [row] = await getDb().select({ n: sql<number>`count(*)`.mapWith(Number) }).from(user).where(eq(user.role, "user"));
  return row?.n ?? 0;
}

export async function listStaff(): Promise<StaffMember[]> {
  return getDb().select({ id: user.id, name: user.name, email: user.email }).from(user).where(eq(user.role, "admin")).orderBy(user.name);
}

/** Stores a client's flags and assignee; the stage is recomputed from the flags. */
export async function saveWorkflow(
  actor: SessionUser,
  input: { clientId: string; flags: WorkflowFlags; stage: StageKey; assigneeId: string | null },
  ip: string,
): Promise<"saved" | "no-such-client" | "no-such-staff"> {
  const db = getDb();
  const [client] = await db.select({ id: user.id }).from(user).where(and(eq(user.id, input.clientId), eq(user.role, "user")));
  if (!client) return "no-such-client";
  if (input.assigneeId) {
    const [staff] = await db.select({ id: user.id }).from(user).where(and(eq(user.id, input.assigneeId), eq(user.role, "admin")));
    if (!staff) return "no-such-staff";
  }
  await ensureClientCases();
  await db
    .update(clientCases)
    .set({ ...input.flags, currentStage: input.stage, assigneeId: input.assigneeId, updatedBy: actor.id, updatedAt: new Date() })
    .where(eq(clientCases.userId, input.clientId));
  const done = Object.entries(input.flags)
    .filter(([, v]) => v)
    .map(([k]) => k);
  await recordAudit({
    actor,
    action: "workflow-saved",
    clientId: input.clientId,
    detail: `stage ${input.stage}; completed: ${done.join(", ") || "none"}; assignee: ${input.assigneeId ?? "none"}`,
    ip,
  });
  return "saved";
}

export type NewClient = { name: string; email: string; phone: string | null; visaStatus: string };

/**
 * Creates a client account (verified: the invitation goes to that address and only its
 * holder can set the password), its profile and case, and e-mails the invitation.
 */
export async function createClient(actor: SessionUser, input: NewClient, ip: string): Promise<"created" | "exists"> {
  const db = getDb();
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (existing) return "exists";
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(user).values({ id, name: input.name, email, emailVerified: true, role: "user" });
    await tx.insert(profiles).values({ id, email, fullName: input.name, phone: input.phone, visaStatus: input.visaStatus });
    await tx.insert(clientCases).values({ userId: id });
  });
  const link = await createPasswordLink(id, 72);
  await sendMail({
    to: email,
    subject: `Your ${business.name} client account`,
    text: [
      `Hello ${input.name},`,
      ``,
      `${business.name} has opened a client account for you, so you can send us your tax details securely and follow your filing.`,
      ``,
      `Choose your password here (the link works once, for 72 hours): ${link}`,
      ``,
      `Questions? Reply to this e-mail or call ${business.phone.display}, ${business.hoursLong}.`,
      ``,
      business.name,
    ].join("\n"),
  });
  await recordAudit({ actor, action: "client-created", clientId: id, detail: `invited ${email}`, ip });
  return "created";
}

export async function listContactMessages() {
  return getDb().select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(200);
}

export async function markMessageHandled(actor: SessionUser, messageId: string, ip: string): Promise<boolean> {
  const updated = await getDb()
    .update(contactMessages)
    .set({ handledAt: new Date() })
    .where(and(eq(contactMessages.id, messageId), isNull(contactMessages.handledAt)))
    .returning({ id: contactMessages.id });
  if (updated.length === 0) return false;
  await recordAudit({ actor, action: "message-handled", detail: `contact message ${messageId}`, ip });
  return true;
}
