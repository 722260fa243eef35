import { sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { bigint, bigserial, boolean, check, date, foreignKey, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, unique, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { VisaStatus } from "../../domain/auth";
import type { DocumentCategoryKey } from "../../domain/documents";
import type { RequestState } from "../../domain/requests";
import type { CountryCode, TaxFilingStatus, TimeZone, VisaType } from "../../domain/taxpayer";
import type { StageKey } from "../../domain/workflow";
import type { AuditAction } from "../../domain/audit";
import type {
  AuthorizationForm,
  EfileEventKind,
  IdCheckMethod,
  IdDocumentType,
  Jurisdiction,
  ReturnForm,
  ReturnRecordKind,
  ReviewDecision,
  SignatureMethod,
  SignatureRequestEventKind,
  SignerRole,
} from "../../domain/returns";
import type { CheckoutSessionStatus, InvoiceStatus, PaymentMethod, PaymentStatus, RefundStatus } from "../../domain/fees";
import type { StaffNoticeCounts } from "~/server/mail/mail-templates.server";
import type { PersonRole, ProgramCategory, Status } from "../../domain/residency/history";
import type { ResidencyOutcome, ResidencyStatus } from "../../domain/residency/rules";
import type { EngagementService } from "../../domain/engagement";
import type { ConsentDecision, ConsentKind } from "../../domain/consents";
import type { SeasonFilter, SeasonOutcome } from "../../domain/season";
import { user } from "./auth-schema";

export * from "./auth-schema";

/** Messages sent through the public contact form. */
export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    subject: text("subject").notNull(),
    description: text("description").notNull(),
    ipAddress: text("ip_address"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    handledAt: timestamp("handled_at", { withTimezone: true }),
  },
  (t) => [index("contact_messages_created_at_idx").on(t.createdAt.desc())],
);

/** Fixed-window counters shared by every server process (see rate-limit.server.ts). */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
});


/** What a client told us at sign-up (id is the user's id). */
export const profiles = pgTable("profiles", {
  id: text("id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  email: text("email").notNull(),
  fullName: text("full_name").notNull(),
  phone: text("phone"),
  visaStatus: text("visa_status").$type<VisaStatus>(),
  /** Whether the client is e-mailed when a case of theirs moves to another stage. */
  stageNotices: boolean("stage_notices").notNull().default(true),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The taxpayer information record, one per client and tax year. ssn_tin holds only ciphertext (crypto.server.ts);
 * ssn_last4 serves every masked display without decrypting.
 */
export const taxpayerRecords = pgTable("taxpayer_records", {
  id: uuid("id").primaryKey().defaultRandom(),
  userId: text("user_id")
    .notNull()
    .references(() => user.id, { onDelete: "cascade" }),
  taxYear: integer("tax_year").notNull(),
  name_as_per_ssn: text("name_as_per_ssn").notNull(),
  middle_name: text("middle_name").notNull().default(""),
  last_name: text("last_name").notNull(),
  ssn_tin: text("ssn_tin").notNull(),
  ssn_last4: text("ssn_last4").notNull(),
  date_of_birth: date("date_of_birth", { mode: "string" }).notNull(),
  occupation: text("occupation").notNull(),
  time_zone: text("time_zone").$type<TimeZone>().notNull().default("IST"),
  filing_status: text("filing_status").$type<TaxFilingStatus>().notNull(),
  first_entry_date_usa: date("first_entry_date_usa", { mode: "string" }).notNull(),
  visa_type: text("visa_type").$type<VisaType>().notNull(),
  primary_country_code: text("primary_country_code").$type<CountryCode>().notNull().default("+91"),
  primary_contact: text("primary_contact").notNull(),
  secondary_country_code: text("secondary_country_code").$type<CountryCode>().notNull().default("+91"),
  secondary_contact: text("secondary_contact").notNull().default(""),
  alternate_email: text("alternate_email").notNull().default(""),
  city: text("city").notNull(),
  state: text("state").notNull(),
  zipcode: text("zipcode").notNull(),
  current_mailing_address: text("current_mailing_address").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
}, (t) => [unique("taxpayer_records_user_year_unique").on(t.userId, t.taxYear)]);

/**
 * A client's case in the eight-stage workflow (domain/workflow.ts): one per client and tax
 * year, with the assignee, one completed flag per stage, the derived current stage, and who
 * changed it last. `number` is the client's, the same in each of their years: it gives the
 * short client id shown in the panel (TB-00042). A client account gets the filing season's
 * case when it is created (migration 0007).
 */
export const clientCases = pgTable(
  "client_cases",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    // The filing season's year, as currentFilingYear (domain/tax-year.ts) counts it: New York's year less one.
    taxYear: integer("tax_year")
      .notNull()
      .default(sql`(extract(year from (now() at time zone 'America/New_York'))::integer - 1)`),
    number: serial("number").notNull(),
    assigneeId: text("assignee_id").references(() => user.id, { onDelete: "set null" }),
    home: boolean("home").notNull().default(false),
    taxinfo: boolean("taxinfo").notNull().default(false),
    documents: boolean("documents").notNull().default(false),
    preparation: boolean("preparation").notNull().default(false),
    draft: boolean("draft").notNull().default(false),
    payment: boolean("payment").notNull().default(false),
    efiling: boolean("efiling").notNull().default(false),
    finalcopies: boolean("finalcopies").notNull().default(false),
    currentStage: text("current_stage").$type<StageKey>().notNull().default("home"),
    updatedBy: text("updated_by").references(() => user.id, { onDelete: "set null" }),
    /**
     * When the client's oldest message not yet answered by staff was sent: set by a client's
     * message when none was waiting, cleared by a staff reply. Null when nobody is waiting.
     */
    awaitingReplySince: timestamp("awaiting_reply_since", { withTimezone: true }),
    /** When the client was last reminded of this case's outstanding requested items. */
    requestsRemindedAt: timestamp("requests_reminded_at", { withTimezone: true }),
    /**
     * The client's name and e-mail address as the panel's search matches them ("name email",
     * lower case), kept by triggers from the account (migration 0012): a search of the list
     * reads only cases.
     */
    searchText: text("search_text").notNull().default(""),
    /**
     * Staff released this case's final copies to the client before its fee is paid (the firm's
     * setting makes them wait for payment, docs/product/fees.md#final-copies-wait-for-payment).
     */
    finalCopiesBeforePayment: boolean("final_copies_before_payment").notNull().default(false),
    /**
     * The case's facts the residency flags need (docs/product/residency.md#flags): the client's
     * highest combined foreign balance in the tax year (integer cents; null: no foreign accounts)
     * and whether they file jointly (Form 8938's thresholds double).
     */
    foreignAccountsHighestCents: bigint("foreign_accounts_highest_cents", { mode: "number" }),
    filesJointly: boolean("files_jointly").notNull().default(false),
    /**
     * The residency of the tax year, computed from the client's immigration history whenever it
     * changes (app/server/residency/outcome.server.ts), never per request: every person's
     * outcome, and what the staff list filters on (the client's own status; whether any person
     * has the first-year choice open, lacks something in the history, carries a flag).
     */
    residencyOutcome: jsonb("residency_outcome").$type<ResidencyOutcome[]>(),
    residencyStatus: text("residency_status").$type<ResidencyStatus>(),
    residencyFirstYearOpen: boolean("residency_first_year_open").notNull().default(false),
    residencyMissing: boolean("residency_missing").notNull().default(true),
    residencyFlagged: boolean("residency_flagged").notNull().default(false),
    residencyComputedAt: timestamp("residency_computed_at", { withTimezone: true }),
    /**
     * Staff's confirmation of the client's status for the year, with a reason when it is not the
     * computed one. Cleared when a later computation changes the stored outcome.
     */
    residencyConfirmedStatus: text("residency_confirmed_status").$type<ResidencyStatus>(),
    residencyConfirmedBy: text("residency_confirmed_by").references(() => user.id, { onDelete: "set null" }),
    residencyConfirmedAt: timestamp("residency_confirmed_at", { withTimezone: true }),
    residencyConfirmReason: text("residency_confirm_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "client_cases_pkey", columns: [t.userId, t.taxYear] }),
    // The "waiting for a reply" filter reads only waiting cases of a year.
    index("client_cases_awaiting_reply_idx")
      .on(t.taxYear, t.awaitingReplySince)
      .where(sql`${t.awaitingReplySince} is not null`),
    // A year's list walks its cases newest client first.
    unique("client_cases_year_number_unique").on(t.taxYear, t.number),
    // Sections and the stage filter list a stage newest first, a page at a time.
    index("client_cases_stage_number_idx").on(t.taxYear, t.currentStage, t.number.desc()),
    index("client_cases_assignee_idx").on(t.assigneeId),
    // The list's search by name or e-mail address: any part of it (trigrams).
    index("client_cases_search_trgm_idx").using("gin", t.searchText.op("gin_trgm_ops")),
    // The staff list's filter by the client's residency status.
    index("client_cases_residency_status_idx").on(t.taxYear, t.residencyStatus),
  ],
);

/**
 * How many cases each tax year holds per stage (and whether Final Copies is done), kept by the
 * database itself (migration 0010): triggers on client_cases add a row of differences per key
 * for every statement that makes, moves or removes cases, and the counters add them up. Rows
 * are only ever added by writers, so no two transactions wait for each other here; the
 * scheduled `compact_tallies()` merges each key's rows into one. `recount_tallies()` counts
 * them again from the cases (after a load that ran without triggers).
 */
export const caseTallies = pgTable(
  "case_tallies",
  {
    taxYear: integer("tax_year").notNull(),
    currentStage: text("current_stage").$type<StageKey>().notNull(),
    finalcopies: boolean("finalcopies").notNull(),
    cases: bigint("cases", { mode: "number" }).notNull(),
  },
  (t) => [index("case_tallies_year_idx").on(t.taxYear)],
);

/**
 * How many cases of a tax year store each residency (status, and whether a first-year choice is
 * open, the history misses something, a flag is raised): the sum of a key's rows, kept like
 * case_tallies by statement-level triggers on client_cases (migration 0025), merged by
 * `compact_tallies()` and counted again by `recount_tallies()`. The client list's residency
 * filter reads its counts here: a few rows, however many cases.
 */
export const residencyTallies = pgTable(
  "residency_tallies",
  {
    taxYear: integer("tax_year").notNull(),
    residencyStatus: text("residency_status").$type<ResidencyStatus>(),
    firstYearOpen: boolean("first_year_open").notNull(),
    missing: boolean("missing").notNull(),
    flagged: boolean("flagged").notNull(),
    cases: bigint("cases", { mode: "number" }).notNull(),
  },
  (t) => [index("residency_tallies_year_idx").on(t.taxYear)],
);

/**
 * A number for each case that changes whenever anything its client's filing page shows changes
 * (the case, its taxpayer record, documents, requested items, return versions and reviews,
 * signatures, e-file results, final copies, invoices, payments and refunds, the client's
 * stage e-mail setting), set from one sequence by statement-level triggers (migration 0026), so
 * it never takes a value twice. The row of client "" and year 0 follows the firm's settings. The
 * filing page keeps what it read under these numbers (app/server/portal/filing-view.server.ts).
 */
export const caseViewVersions = pgTable(
  "case_view_versions",
  {
    clientId: text("client_id").notNull(),
    taxYear: integer("tax_year").notNull(),
    version: bigint("version", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.taxYear] })],
);

/** How many client accounts there are: the sum of its rows, kept like case_tallies by triggers on "user". */
export const clientTally = pgTable("client_tally", {
  clients: bigint("clients", { mode: "number" }).notNull(),
});

/** Staff's internal notes on a case: never part of anything a client is sent. */
export const caseNotes = pgTable(
  "case_notes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    taxYear: integer("tax_year").notNull(),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("case_notes_case_idx").on(t.clientId, t.taxYear, t.createdAt)],
);

/** When each staff member last opened a case: uploads after it are marked new for them. */
export const caseViews = pgTable(
  "case_views",
  {
    staffId: text("staff_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    clientId: text("client_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    taxYear: integer("tax_year").notNull(),
    viewedAt: timestamp("viewed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "case_views_pkey", columns: [t.staffId, t.clientId, t.taxYear] })],
);

/**
 * A document of a client's case (client and tax year): the file lives in storage under
 * `storageKey`, never under its own name. The client sees the ones they uploaded and the ones
 * staff uploaded once staff share them (`sharedAt`).
 */
export const documents = pgTable(
  "documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    taxYear: integer("tax_year").notNull(),
    category: text("category").$type<DocumentCategoryKey>().notNull(),
    originalName: text("original_name").notNull(),
    size: integer("size").notNull(),
    contentType: text("content_type").notNull(),
    storageKey: text("storage_key").notNull().unique(),
    uploadedBy: text("uploaded_by").references(() => user.id, { onDelete: "set null" }),
    /** Whether the client uploaded it (their own, removable until DOCUMENTS is completed). */
    fromClient: boolean("from_client").notNull().default(false),
    sharedAt: timestamp("shared_at", { withTimezone: true }),
    /** The requested item the client uploaded it against, if any. */
    requestId: uuid("request_id").references((): AnyPgColumn => documentRequests.id, { onDelete: "set null" }),
    /** The message it was attached to, if any. */
    messageId: uuid("message_id").references((): AnyPgColumn => caseMessages.id, { onDelete: "set null" }),
    /**
     * Set when the document is a record of the case's return (domain/returns.ts ReturnRecordKind:
     * a draft version, an authorisation form, a hand-signed form, a final copy): staff may
     * neither remove it nor change its sharing from the documents list; it reaches the client
     * through the return's own pages (app/server/returns), or shared when it is a final copy.
     */
    returnRecord: text("return_record").$type<ReturnRecordKind>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("documents_case_idx").on(t.clientId, t.taxYear, t.category),
    index("documents_request_idx").on(t.requestId).where(sql`${t.requestId} is not null`),
    index("documents_message_idx").on(t.messageId).where(sql`${t.messageId} is not null`),
  ],
);

/**
 * One item of a case's checklist of what the firm needs from the client (domain/requests.ts):
 * started from a template (app/content/request-templates.ts) or written by staff. The client
 * uploads against it or answers that it does not apply or cannot be had; staff mark it received
 * or return it with a reason. `outstandingSince` is set while the client owes it (requested or
 * returned) and drives the weekly reminder.
 */
export const documentRequests = pgTable(
  "document_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id").notNull(),
    taxYear: integer("tax_year").notNull(),
    position: integer("position").notNull(),
    title: text("title").notNull(),
    detail: text("detail").notNull().default(""),
    /** Where the client's uploads against the item are filed. */
    category: text("category").$type<DocumentCategoryKey>().notNull().default("other-documents"),
    /** The template the item came from (null for one staff wrote). */
    template: text("template"),
    state: text("state").$type<RequestState>().notNull().default("requested"),
    /** The client's note with "doesn't apply" or "can't get it". */
    clientNote: text("client_note").notNull().default(""),
    /** Why staff returned it, shown to the client. */
    returnReason: text("return_reason").notNull().default(""),
    outstandingSince: timestamp("outstanding_since", { withTimezone: true }).defaultNow(),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    reviewedBy: text("reviewed_by").references(() => user.id, { onDelete: "set null" }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: "document_requests_case_fk",
      columns: [t.clientId, t.taxYear],
      foreignColumns: [clientCases.userId, clientCases.taxYear],
    }).onDelete("cascade"),
    index("document_requests_case_idx").on(t.clientId, t.taxYear, t.position),
    // The reminder sweep reads only outstanding items.
    index("document_requests_outstanding_idx")
      .on(t.outstandingSince)
      .where(sql`${t.outstandingSince} is not null`),
  ],
);

/**
 * The conversation of a case between the client and the firm: plain text, never edited.
 * `readAt` is when the other side first read it (staff read the client's, the client reads
 * staff's); staff may hide a message from the client (`hiddenAt`, audited).
 */
export const caseMessages = pgTable(
  "case_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id").notNull(),
    taxYear: integer("tax_year").notNull(),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    /**
     * The author's name when they have no account: the spouse of a joint return writing from
     * their signing page (returns/spouse-messages.server.ts). Null for everyone else (author_id).
     */
    authorName: text("author_name"),
    fromClient: boolean("from_client").notNull(),
    body: text("body").notNull(),
    readAt: timestamp("read_at", { withTimezone: true }),
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    hiddenBy: text("hidden_by").references(() => user.id, { onDelete: "set null" }),
    /**
     * A staff message whose e-mail to the client is still to be decided: the notice job
     * (message-notices.server.ts) sends it, or not, once the message is older than the quiet
     * period, and clears this.
     */
    clientNoticePending: boolean("client_notice_pending").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: "case_messages_case_fk",
      columns: [t.clientId, t.taxYear],
      foreignColumns: [clientCases.userId, clientCases.taxYear],
    }).onDelete("cascade"),
    index("case_messages_case_idx").on(t.clientId, t.taxYear, t.createdAt),
    // Unread counts: the client's messages staff have not read, and staff's the client has not.
    index("case_messages_unread_idx")
      .on(t.clientId, t.taxYear, t.fromClient)
      .where(sql`${t.readAt} is null and ${t.hiddenAt} is null`),
    // The notice job reads only the messages whose client e-mail is still to be decided.
    index("case_messages_notice_pending_idx")
      .on(t.createdAt)
      .where(sql`${t.clientNoticePending}`),
  ],
);

/**
 * Work the server runs on a schedule (the weekly request reminders): a process takes a job by
 * moving `lockedUntil` forward in one statement, so when several processes run, one runs it.
 */
export const scheduledJobs = pgTable("scheduled_jobs", {
  name: text("name").primaryKey(),
  lockedUntil: timestamp("locked_until", { withTimezone: true }).notNull().default(sql`'-infinity'`),
  lockedBy: text("locked_by"),
  lastFinishedAt: timestamp("last_finished_at", { withTimezone: true }),
});

/** Append-only audit trail (PostgreSQL refuses UPDATE and DELETE on it: see migration 0004). */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").$type<AuditAction>().notNull(),
    clientId: text("client_id"),
    /** The tax year of the case the entry is about, when it is about one. */
    taxYear: integer("tax_year"),
    detail: text("detail"),
    ipAddress: text("ip_address"),
  },
  // In the trail's order (`order by at desc, id desc`, whose DESC puts nulls first), for every
  // entry and for its filters by actor and by kind: a page is read from the index, never sorted.
  (t) => [
    index("audit_log_at_idx").on(t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("audit_log_client_idx").on(t.clientId, t.at.desc()),
    index("audit_log_actor_idx").on(t.actorId, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("audit_log_action_idx").on(t.action, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/**
 * A staff member's second factor (TOTP, RFC 6238): the secret and the unused backup codes,
 * both encrypted (crypto.server.ts); lastStep refuses a code used twice.
 */
export const staffSecondFactor = pgTable("staff_second_factor", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  backupCodes: text("backup_codes").notNull(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  lastStep: bigint("last_step", { mode: "number" }).notNull().default(0),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The e-mail notices to staff about one case (notices.server.ts notifyStaff): when the last one
 * was sent, and what the client did since then that no e-mail has told yet (counts by kind),
 * sent in one e-mail once the quiet period after the last one has passed.
 */
export const staffNotices = pgTable(
  "staff_notices",
  {
    clientId: text("client_id").notNull(),
    taxYear: integer("tax_year").notNull(),
    lastSentAt: timestamp("last_sent_at", { withTimezone: true }),
    pending: jsonb("pending").$type<StaffNoticeCounts>().notNull().default({}),
  },
  (t) => [
    primaryKey({ name: "staff_notices_pkey", columns: [t.clientId, t.taxYear] }),
    foreignKey({
      name: "staff_notices_case_fk",
      columns: [t.clientId, t.taxYear],
      foreignColumns: [clientCases.userId, clientCases.taxYear],
    }).onDelete("cascade"),
    // The sweep reads only cases with something left to tell.
    index("staff_notices_pending_idx").on(t.lastSentAt).where(sql`${t.pending} <> '{}'::jsonb`),
  ],
);

/**
 * Every e-mail the product sends, as a queue (app/server/mail/outbox.server.ts, ADR 0023): what
 * it is (`kind`), to whom, and the little needed to write it when it goes (`payload`: names, a
 * tax year, counts, links; never tax data). A payload holding a one-time link lives encrypted in
 * `sealed` instead, and is cleared once the e-mail has gone. A row is written in the transaction
 * of the change that causes it, then sent once the request has been answered; a failed try
 * leaves it `pending` with its next try due later, until it is `sent` or `failed` (also once
 * `send_by` has passed). A sender holds a row while it tries (`claimed_until`, renewed while the
 * try goes on; `claimed_by`: that claim's own token), so no two senders try it at once.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey(),
    kind: text("kind").notNull(),
    recipient: text("recipient").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>(),
    sealed: text("sealed"),
    status: text("status").$type<"pending" | "sent" | "failed">().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    claimedBy: text("claimed_by"),
    /** Why the last try failed, as a code (an SMTP reply code such as 421, or ECONNREFUSED). */
    lastError: text("last_error"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /**
     * After this time the e-mail is no use (the code or link it carries has expired): a row still
     * pending then is given up, `failed` with the reason EXPIRED. Null: no such limit.
     */
    sendBy: timestamp("send_by", { withTimezone: true }),
  },
  (t) => [
    // The sweep reads the pending rows that are due, oldest due first.
    index("mail_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // The admin page lists the rows that failed or were tried and are waiting, newest first.
    index("mail_outbox_undelivered_idx").on(t.lastAttemptAt.desc()).where(sql`${t.status} <> 'sent'`),
    // The sweep forgets sent rows after a while.
    index("mail_outbox_sent_idx").on(t.sentAt).where(sql`${t.status} = 'sent'`),
  ],
);

// ---------------------------------------------------------------------------------------------
// The return of a case and its signatures (app/server/returns, docs/product/return-and-signature.md).
// The tables that are records of what happened are append-only: migration 0018 makes PostgreSQL
// refuse UPDATE and DELETE on them (signatures: DELETE only once retain_until has passed).

const caseFk = (name: string, t: { clientId: AnyPgColumn; taxYear: AnyPgColumn }) =>
  foreignKey({ name, columns: [t.clientId, t.taxYear], foreignColumns: [clientCases.userId, clientCases.taxYear] });

/**
 * One version of a case's draft return, as staff uploaded it (a PDF stored as one of the case's
 * documents, `documentId`), with its SHA-256 computed from the stored bytes. The newest
 * version of a case (highest `number`) is the current one; each upload supersedes the last.
 */
export const returnVersions = pgTable(
  "return_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id").notNull(),
    taxYear: integer("tax_year").notNull(),
    number: integer("number").notNull(),
    form: text("form").$type<ReturnForm>().notNull(),
    /** The short note for the client that came with it. */
    note: text("note").notNull().default(""),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id),
    sha256: text("sha256").notNull(),
    uploadedBy: text("uploaded_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [caseFk("return_versions_case_fk", t), unique("return_versions_case_number_unique").on(t.clientId, t.taxYear, t.number)],
);

/** The client's review of a version: approved (with the declaration's version) or changes asked for. Append-only. */
export const returnReviews = pgTable(
  "return_reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    versionId: uuid("version_id")
      .notNull()
      .references(() => returnVersions.id),
    clientId: text("client_id").notNull(),
    taxYear: integer("tax_year").notNull(),
    reviewerId: text("reviewer_id").notNull(),
    decision: text("decision").$type<ReviewDecision>().notNull(),
    /** The version's SHA-256 as it was reviewed. */
    returnSha256: text("return_sha256").notNull(),
    /** The version of the approval declaration the client agreed to (approvals only). */
    declarationVersion: text("declaration_version"),
    /** The message the client's request for changes was posted as (changes only). */
    messageId: uuid("message_id"),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [caseFk("return_reviews_case_fk", t), index("return_reviews_version_idx").on(t.versionId, t.createdAt)],
);

/** A signer's identity check for a tax year, as staff recorded it (a government photo ID inspected). Append-only. */
export const idChecks = pgTable(
  "id_checks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id").notNull(),
    taxYear: integer("tax_year").notNull(),
    signerRole: text("signer_role").$type<SignerRole>().notNull(),
    documentType: text("document_type").$type<IdDocumentType>().notNull(),
    /** ISO 3166-1 alpha-2. */
    issuingCountry: text("issuing_country").notNull(),
    expiresOn: date("expires_on", { mode: "string" }).notNull(),
    numberLast4: text("number_last4").notNull(),
    method: text("method").$type<IdCheckMethod>().notNull(),
    checkedBy: text("checked_by").notNull(),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [caseFk("id_checks_case_fk", t), index("id_checks_signer_idx").on(t.clientId, t.taxYear, t.signerRole, t.checkedAt)],
);

/**
 * Staff's request that the signers sign the authorisation form (8879, or 8878 for an extension)
 * of an approved version: the form's PDF (a document of the case) and its SHA-256 before
 * anything is stamped on it. What happens to it later (voided, kept within tolerance,
 * authorised) is in signature_request_events. Append-only.
 */
export const signatureRequests = pgTable(
  "signature_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id").notNull(),
    taxYear: integer("tax_year").notNull(),
    versionId: uuid("version_id")
      .notNull()
      .references(() => returnVersions.id),
    authorizationForm: text("authorization_form").$type<AuthorizationForm>().notNull(),
    formDocumentId: uuid("form_document_id")
      .notNull()
      .references(() => documents.id),
    formSha256: text("form_sha256").notNull(),
    returnSha256: text("return_sha256").notNull(),
    jointReturn: boolean("joint_return").notNull(),
    requestedBy: text("requested_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [caseFk("signature_requests_case_fk", t), index("signature_requests_case_idx").on(t.clientId, t.taxYear, t.createdAt)],
);

/**
 * Who must sign a request: the taxpayer (the client's account) and, on a joint return, the
 * spouse, who has no account and signs through a link of their own (only the token's SHA-256
 * is kept, with its expiry).
 */
export const signatureSigners = pgTable(
  "signature_signers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => signatureRequests.id),
    role: text("role").$type<SignerRole>().notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    tokenHash: text("token_hash").unique(),
    tokenExpiresAt: timestamp("token_expires_at", { withTimezone: true }),
  },
  (t) => [unique("signature_signers_request_role_unique").on(t.requestId, t.role)],
);

/**
 * One-time codes e-mailed to a signer: the code's SHA-256, its 10 minutes, the tries left, used
 * once. A new code replaces the signer's earlier ones. Not a record: rows are changed and removed.
 */
export const signingCodes = pgTable(
  "signing_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    signerId: uuid("signer_id")
      .notNull()
      .references(() => signatureSigners.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("signing_codes_signer_idx").on(t.signerId)],
);

/**
 * A form signed by hand and uploaded by its signer (a document of the case), and staff's
 * answer: accepted (a signature is recorded) or returned with a reason.
 */
export const handwrittenUploads = pgTable("handwritten_uploads", {
  id: uuid("id").primaryKey().defaultRandom(),
  signerId: uuid("signer_id")
    .notNull()
    .references(() => signatureSigners.id),
  documentId: uuid("document_id")
    .notNull()
    .references(() => documents.id),
  sha256: text("sha256").notNull(),
  decision: text("decision").$type<"accepted" | "returned">(),
  reason: text("reason"),
  reviewedBy: text("reviewed_by"),
  reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One signature of an authorisation form, with what the IRS asks to keep of an electronic one.
 * Append-only, and not deletable before `retainUntil` (migration 0018), for anyone.
 */
export const signatures = pgTable(
  "signatures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => signatureRequests.id),
    signerId: uuid("signer_id")
      .notNull()
      .references(() => signatureSigners.id),
    clientId: text("client_id").notNull(),
    taxYear: integer("tax_year").notNull(),
    signerRole: text("signer_role").$type<SignerRole>().notNull(),
    signerName: text("signer_name").notNull(),
    method: text("method").$type<SignatureMethod>().notNull(),
    /** UTC, and the signer's own time zone (IANA name) to show it as they saw it. */
    signedAt: timestamp("signed_at", { withTimezone: true }).notNull().defaultNow(),
    timeZone: text("time_zone"),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    consentVersion: text("consent_version"),
    /** The version of the form's declaration the signer agreed to (an e-signature; null on paper, where the form carries it). */
    declarationVersion: text("declaration_version"),
    formSha256: text("form_sha256").notNull(),
    returnSha256: text("return_sha256").notNull(),
    idCheckId: uuid("id_check_id").references(() => idChecks.id),
    handwrittenUploadId: uuid("handwritten_upload_id").references(() => handwrittenUploads.id),
    retainUntil: timestamp("retain_until", { withTimezone: true }).notNull(),
  },
  (t) => [
    unique("signatures_signer_unique").on(t.signerId),
    index("signatures_request_idx").on(t.requestId),
  ],
);

/** What happened to a signature request after it was made (voided by a new version, kept within tolerance, cancelled by staff, authorised). Append-only. */
export const signatureRequestEvents = pgTable(
  "signature_request_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => signatureRequests.id),
    kind: text("kind").$type<SignatureRequestEventKind>().notNull(),
    /** The version that voided it, or that the tolerance declaration covers. */
    versionId: uuid("version_id").references(() => returnVersions.id),
    /** Tolerance declarations: the differences in integer cents. */
    incomeCents: bigint("income_cents", { mode: "number" }),
    taxCents: bigint("tax_cents", { mode: "number" }),
    withholdingCents: bigint("withholding_cents", { mode: "number" }),
    refundOrOwedCents: bigint("refund_or_owed_cents", { mode: "number" }),
    /** A cancellation: why staff cancelled the request. */
    reason: text("reason"),
    actorId: text("actor_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("signature_request_events_request_idx").on(t.requestId, t.createdAt)],
);

/** The signed authorisation's PDF (form stamped with its signatures and a certificate page). Append-only. */
export const signedAuthorizations = pgTable("signed_authorizations", {
  id: uuid("id").primaryKey().defaultRandom(),
  requestId: uuid("request_id")
    .notNull()
    .unique()
    .references(() => signatureRequests.id),
  storageKey: text("storage_key").notNull().unique(),
  sha256: text("sha256").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The e-file history of a case, as staff record what their tax software did and what the IRS
 * (or the state) answered: transmitted, then accepted or rejected (with the reject codes), then
 * transmitted again. Append-only.
 */
export const efileEvents = pgTable(
  "efile_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id").notNull(),
    taxYear: integer("tax_year").notNull(),
    kind: text("kind").$type<EfileEventKind>().notNull(),
    jurisdiction: text("jurisdiction").$type<Jurisdiction>().notNull(),
    /** The answer's transmission (accepted, rejected). */
    transmissionId: uuid("transmission_id").references((): AnyPgColumn => efileEvents.id),
    submissionId: text("submission_id"),
    eventDate: date("event_date", { mode: "string" }).notNull(),
    rejectCodes: text("reject_codes").array(),
    note: text("note"),
    recordedBy: text("recorded_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    caseFk("efile_events_case_fk", t),
    index("efile_events_case_idx").on(t.clientId, t.taxYear, t.createdAt),
    // A transmission has one answer.
    unique("efile_events_one_answer").on(t.transmissionId),
    // The rejected-returns list reads the rejections.
    index("efile_events_rejected_idx").on(t.eventDate).where(sql`${t.kind} = 'rejected'`),
  ],
);

/** Final copies released to the client: the filed return and the signed authorisation, both shared documents. Append-only. */
export const finalCopies = pgTable(
  "final_copies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id").notNull(),
    taxYear: integer("tax_year").notNull(),
    filedReturnDocumentId: uuid("filed_return_document_id")
      .notNull()
      .references(() => documents.id),
    signedAuthorizationDocumentId: uuid("signed_authorization_document_id")
      .notNull()
      .references(() => documents.id),
    releasedBy: text("released_by").notNull(),
    releasedAt: timestamp("released_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [caseFk("final_copies_case_fk", t)],
);

// ---------------------------------------------------------------------------------------------
// The fee of a case (app/server/fees, docs/product/fees.md): invoices numbered without gaps in a
// year, payments (through Stripe or recorded by staff), refunds, the Stripe events already
// processed and the firm's payment setting. Money is integer cents of US dollars. Migration 0019
// makes PostgreSQL refuse to delete an invoice, a payment or a refund, and to change what a
// payment or a refund was (its amount, method, invoice).

/** The last invoice number given in each calendar year: the next invoice takes `last + 1`, under this row's lock. */
export const invoiceNumbers = pgTable("invoice_numbers", {
  year: integer("year").primaryKey(),
  last: integer("last").notNull(),
});

/**
 * An invoice of a case: its number (INV-2026-00042: the year it was made and its place in that
 * year), its state, its discount, notes and due date. `totalCents` is the lines less the
 * discount, fixed when it is sent; `paidCents` what has been received less what was refunded,
 * kept in each payment's and refund's transaction.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id").notNull(),
    taxYear: integer("tax_year").notNull(),
    numberYear: integer("number_year").notNull(),
    numberSeq: integer("number_seq").notNull(),
    number: text("number").notNull(),
    status: text("status").$type<InvoiceStatus>().notNull().default("draft"),
    discountCents: integer("discount_cents").notNull().default(0),
    totalCents: integer("total_cents").notNull(),
    paidCents: integer("paid_cents").notNull().default(0),
    notes: text("notes").notNull().default(""),
    dueOn: date("due_on", { mode: "string" }).notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    voidedAt: timestamp("voided_at", { withTimezone: true }),
    voidedBy: text("voided_by"),
    voidReason: text("void_reason"),
    /** When the client last said they had sent a wire or Zelle payment ("I have sent the payment"). */
    clientNotifiedAt: timestamp("client_notified_at", { withTimezone: true }),
  },
  (t) => [
    caseFk("invoices_case_fk", t),
    unique("invoices_number_unique").on(t.number),
    unique("invoices_year_seq_unique").on(t.numberYear, t.numberSeq),
    index("invoices_case_idx").on(t.clientId, t.taxYear, t.createdAt),
    // The Payments page reads the outstanding invoices by age.
    index("invoices_outstanding_idx").on(t.sentAt).where(sql`${t.status} in ('sent', 'partly-paid')`),
  ],
);

/** One line of an invoice: what it is for, how many, at what unit price. */
export const invoiceLines = pgTable(
  "invoice_lines",
  {
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id),
    position: integer("position").notNull(),
    /** The price list item it was taken from, when it was (content/price-list.ts). */
    priceListId: text("price_list_id"),
    description: text("description").notNull(),
    quantity: integer("quantity").notNull(),
    unitCents: integer("unit_cents").notNull(),
  },
  (t) => [primaryKey({ name: "invoice_lines_pkey", columns: [t.invoiceId, t.position] })],
);

/**
 * A payment of an invoice: through Stripe Checkout (`card`, or `bank` for a US bank account,
 * which stays `processing` until it clears), or received outside Stripe and recorded by staff
 * (wire, Zelle, check, cash) with its reference and date.
 */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id),
    method: text("method").$type<PaymentMethod>().notNull(),
    status: text("status").$type<PaymentStatus>().notNull(),
    amountCents: integer("amount_cents").notNull(),
    reference: text("reference").notNull().default(""),
    receivedOn: date("received_on", { mode: "string" }).notNull(),
    stripeCheckoutSessionId: text("stripe_checkout_session_id"),
    stripePaymentIntentId: text("stripe_payment_intent_id"),
    /**
     * The part of the payment that was more than the invoice still owed when it was received
     * (all of it on a void invoice): money to give back. Only a Stripe payment can be above it
     * (staff cannot record more than is owed); set when the payment succeeds.
     */
    excessCents: integer("excess_cents").notNull().default(0),
    /** Staff who recorded it (null: Stripe's webhook did). */
    recordedBy: text("recorded_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("payments_invoice_idx").on(t.invoiceId, t.createdAt),
    // One payment per Checkout Session, however many times Stripe tells of it.
    unique("payments_checkout_session_unique").on(t.stripeCheckoutSessionId),
    // The Payments page's "this month".
    index("payments_received_idx").on(t.receivedOn),
  ],
);

/** A refund of (part of) a payment: asked of Stripe and pending until it confirms, or recorded as made outside it. */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    amountCents: integer("amount_cents").notNull(),
    status: text("status").$type<RefundStatus>().notNull(),
    reason: text("reason").notNull().default(""),
    stripeRefundId: text("stripe_refund_id"),
    /** The administrator who made or asked for it; null: made in Stripe's Dashboard, told by Stripe's webhook. */
    requestedBy: text("requested_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  },
  (t) => [index("refunds_payment_idx").on(t.paymentId), unique("refunds_stripe_refund_unique").on(t.stripeRefundId)],
);

/**
 * The Checkout Sessions made for an invoice (app/server/fees/checkout-sessions.server.ts): what
 * each was for, whether the client can still pay it, and whether the invoice still wants it.
 * At most one per invoice is `creating` or `open` (the index below): a new one is made only once
 * the last is closed, so two payable pages never exist for one invoice. `unwantedAt`: the invoice
 * no longer wants the session (a payment was recorded, the invoice voided); Stripe is asked to
 * expire it until it is closed. The request's idempotency key is `checkout-<id>`.
 */
export const checkoutSessions = pgTable(
  "checkout_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id),
    /** What the session asks for: the amount the invoice owed when it was made. */
    amountCents: integer("amount_cents").notNull(),
    /** When Stripe stops taking payment on it (sent to Stripe as `expires_at`). */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    status: text("status").$type<CheckoutSessionStatus>().notNull().default("creating"),
    /** Stripe's id and the page's address, once Stripe has answered. */
    stripeSessionId: text("stripe_session_id"),
    url: text("url"),
    unwantedAt: timestamp("unwanted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (t) => [
    unique("checkout_sessions_stripe_unique").on(t.stripeSessionId),
    uniqueIndex("checkout_sessions_one_open").on(t.invoiceId).where(sql`${t.status} in ('creating', 'open')`),
    // The sweep's work: sessions to expire.
    index("checkout_sessions_unwanted_idx").on(t.unwantedAt).where(sql`${t.unwantedAt} is not null and ${t.status} in ('creating', 'open')`),
  ],
);

/** Stripe events already processed, by id: an event delivered again (or twice at once) is processed once. */
export const stripeEvents = pgTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The firm's settings: one row. Final copies wait for payment unless an admin turns it off. */
export const firmSettings = pgTable("firm_settings", {
  id: boolean("id").primaryKey().default(true),
  finalCopiesWaitForPayment: boolean("final_copies_wait_for_payment").notNull().default(true),
  /** Whether a case's draft return waits for its engagement letter to be accepted (docs/product/engagement.md). */
  engagementLetterRequired: boolean("engagement_letter_required").notNull().default(true),
  updatedBy: text("updated_by"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------------
// A client's immigration history (app/server/residency, docs/product/residency.md): the people of
// the household, each with their visa and status periods and their stays in the US, across years
// (not one tax year), and staff's findings per person and tax year. Saving it replaces the
// client's people, periods and stays in one transaction and computes the residency of each of
// their cases again (client_cases.residency_*).

/**
 * A person of a client's household: the client (exactly one row), their spouse (at most one) and
 * their dependants, in the order the client listed them (`position`). A spouse or dependant
 * without `ownStays` travels with the client and is counted on the client's stays; the client's
 * row always uses its own.
 */
export const residencyPeople = pgTable(
  "residency_people",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role").$type<PersonRole>().notNull(),
    name: text("name").notNull(),
    /** Dependants: child, parent or other. */
    relation: text("relation").$type<"child" | "parent" | "other">(),
    dateOfBirth: date("date_of_birth", { mode: "string" }),
    /** Country of citizenship, as a name ("India"). */
    citizenship: text("citizenship"),
    /** The country of tax residence, as a name. */
    taxResidence: text("tax_residence"),
    ownStays: boolean("own_stays").notNull().default(false),
    greenCardSteps: boolean("green_card_steps").notNull().default(false),
    itinIssuedYear: integer("itin_issued_year"),
    itinLastUsedYear: integer("itin_last_used_year"),
    ficaWithheld: boolean("fica_withheld"),
    school: text("school"),
    sponsor: text("sponsor"),
    position: integer("position").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("residency_people_client_idx").on(t.clientId, t.position),
    uniqueIndex("residency_people_one_client").on(t.clientId).where(sql`${t.role} = 'client'`),
    uniqueIndex("residency_people_one_spouse").on(t.clientId).where(sql`${t.role} = 'spouse'`),
    check("residency_people_role_check", sql`${t.role} in ('client', 'spouse', 'dependant')`),
  ],
);

/** A person's visa or status period: from its first day to its last (null while it lasts). */
export const residencyPeriods = pgTable(
  "residency_periods",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    personId: uuid("person_id")
      .notNull()
      .references(() => residencyPeople.id, { onDelete: "cascade" }),
    status: text("status").$type<Status>().notNull(),
    /** J-1 (required) and Q-1 (optional) only. */
    category: text("category").$type<ProgramCategory>(),
    fromDay: date("from_day", { mode: "string" }).notNull(),
    toDay: date("to_day", { mode: "string" }),
  },
  (t) => [
    index("residency_periods_person_idx").on(t.personId, t.fromDay),
    check("residency_periods_order_check", sql`${t.toDay} is null or ${t.toDay} >= ${t.fromDay}`),
  ],
);

/** A person's stay in the US: both days are days of presence; an open stay (no departure) runs to today. */
export const residencyStays = pgTable(
  "residency_stays",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    personId: uuid("person_id")
      .notNull()
      .references(() => residencyPeople.id, { onDelete: "cascade" }),
    arrival: date("arrival", { mode: "string" }).notNull(),
    departure: date("departure", { mode: "string" }),
    /** In transit between two foreign places, under 24 hours: no day of it counts. */
    transit: boolean("transit").notNull().default(false),
    /** Typed by a person, or read from a pasted I-94 travel history. */
    source: text("source").$type<"typed" | "i94">().notNull().default("typed"),
  },
  (t) => [
    index("residency_stays_person_idx").on(t.personId, t.arrival),
    check("residency_stays_order_check", sql`${t.departure} is null or ${t.departure} >= ${t.arrival}`),
    check("residency_stays_source_check", sql`${t.source} in ('typed', 'i94')`),
  ],
);

/** What staff recorded for a person and a tax year after looking at the evidence (domain/residency/history.ts StaffFindings). Staff only. */
export const residencyFindings = pgTable(
  "residency_findings",
  {
    personId: uuid("person_id")
      .notNull()
      .references(() => residencyPeople.id, { onDelete: "cascade" }),
    taxYear: integer("tax_year").notNull(),
    studentException: boolean("student_exception").notNull().default(false),
    deMinimis: boolean("de_minimis").notNull().default(false),
    abroadAfterLeaving: boolean("abroad_after_leaving").notNull().default(false),
    recordedBy: text("recorded_by").references(() => user.id, { onDelete: "set null" }),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "residency_findings_pkey", columns: [t.personId, t.taxYear] })],
);

// ---------------------------------------------------------------------------------------------
// The engagement letter (docs/product/engagement.md): the firm's template per service, each saved
// change a new version kept for good; each case's letter, made from a template's version with the
// client's name, year, service and fee filled in, its exact text and SHA-256 kept; the client's
// answer (accepted with their typed legal name, or declined with a reason), with when, from where
// and in which browser. All three are append-only (migration 0027).

/** A version of the firm's engagement letter template for one service. */
export const engagementTemplateVersions = pgTable(
  "engagement_template_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    service: text("service").$type<EngagementService>().notNull(),
    version: integer("version").notNull(),
    body: text("body").notNull(),
    /** The admin who saved it; null for the product's own first text. */
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique("engagement_template_versions_unique").on(t.service, t.version)],
);

/** A case's engagement letter: the newest of a case is the one the client answers. */
export const engagementLetters = pgTable(
  "engagement_letters",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id").notNull(),
    taxYear: integer("tax_year").notNull(),
    service: text("service").$type<EngagementService>().notNull(),
    templateVersionId: uuid("template_version_id")
      .notNull()
      .references(() => engagementTemplateVersions.id),
    feeCents: integer("fee_cents").notNull(),
    text: text("text").notNull(),
    sha256: text("sha256").notNull(),
    /** The staff member who sent it; null when the season's start made it. */
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ columns: [t.clientId, t.taxYear], foreignColumns: [clientCases.userId, clientCases.taxYear] }),
    index("engagement_letters_case_idx").on(t.clientId, t.taxYear, t.createdAt),
  ],
);

/** The client's answer to a letter: one per letter. */
export const engagementResponses = pgTable(
  "engagement_responses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    letterId: uuid("letter_id")
      .notNull()
      .references(() => engagementLetters.id),
    clientId: text("client_id").notNull(),
    taxYear: integer("tax_year").notNull(),
    decision: text("decision").$type<"accepted" | "declined">().notNull(),
    /** The legal name the client typed to accept (null when declined). */
    typedName: text("typed_name"),
    /** Why the client declined (null when accepted). */
    reason: text("reason"),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique("engagement_responses_letter_unique").on(t.letterId), index("engagement_responses_case_idx").on(t.clientId, t.taxYear)],
);

// ---------------------------------------------------------------------------------------------
// The client's consents under section 7216 (app/server/consents, docs/product/engagement.md#consents-under-section-7216):
// each answer on a consent's page (given or refused) with the exact text shown, its SHA-256 and
// version, and each withdrawal. Both are append-only, and neither is deleted before its
// `retainUntil` (migration 0028).

/** A client's answer to a consent: given (with the typed legal name and the last day it is in force) or refused. */
export const consents = pgTable(
  "consents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: text("client_id")
      .notNull()
      .references(() => user.id),
    kind: text("kind").$type<ConsentKind>().notNull(),
    decision: text("decision").$type<ConsentDecision>().notNull(),
    /** The text the client was shown, exactly, with its SHA-256 (hex) and version. */
    text: text("text").notNull(),
    textSha256: text("text_sha256").notNull(),
    textVersion: text("text_version").notNull(),
    /** What for, and to whom, as the text names them. */
    purpose: text("purpose").notNull(),
    recipient: text("recipient").notNull(),
    /** The legal name the client typed as their signature (given only). */
    typedName: text("typed_name"),
    /** How many months the client chose, and the last New York day it is in force (given only). */
    months: integer("months"),
    inForceThrough: date("in_force_through", { mode: "string" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    retainUntil: timestamp("retain_until", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("consents_client_kind_idx").on(t.clientId, t.kind, t.decidedAt),
    check("consents_kind_check", sql`${t.kind} in ('use', 'disclose')`),
    check(
      "consents_decision_check",
      sql`(${t.decision} = 'given' and ${t.typedName} is not null and ${t.months} is not null and ${t.inForceThrough} is not null)
        or (${t.decision} = 'refused' and ${t.typedName} is null and ${t.months} is null and ${t.inForceThrough} is null)`,
    ),
  ],
);

/** The client's withdrawal of a consent they gave: it ends the consent from that moment. One per consent. */
export const consentWithdrawals = pgTable(
  "consent_withdrawals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    consentId: uuid("consent_id")
      .notNull()
      .unique()
      .references(() => consents.id),
    clientId: text("client_id")
      .notNull()
      .references(() => user.id),
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    retainUntil: timestamp("retain_until", { withTimezone: true }).notNull(),
  },
  (t) => [index("consent_withdrawals_client_idx").on(t.clientId)],
);

// ---------------------------------------------------------------------------------------------
// The season's start (app/server/engagement/season.server.ts, docs/product/engagement.md#the-seasons-start):
// an admin opens a tax year for a chosen set of last year's clients. The run's clients are chosen
// when it starts and worked through in batches by the scheduler's job; each client is done in
// one transaction with their new case, its letter and its e-mail, so a run stopped half way goes
// on where it stopped and sends nobody a second e-mail.

/** One season's start: the year it opens, which of last year's clients, who started it. */
export const seasonStarts = pgTable(
  "season_starts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    taxYear: integer("tax_year").notNull(),
    filter: text("filter").$type<SeasonFilter>().notNull(),
    total: integer("total").notNull(),
    startedBy: text("started_by").references(() => user.id, { onDelete: "set null" }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    check("season_starts_filter_check", sql`${t.filter} in ('all', 'paid', 'filed')`),
    // At most one run under way at a time.
    uniqueIndex("season_starts_one_running").on(sql`(true)`).where(sql`${t.finishedAt} is null`),
  ],
);

/** A client a run chose, and (once done) what became of them. */
export const seasonStartClients = pgTable(
  "season_start_clients",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => seasonStarts.id),
    clientId: text("client_id").notNull(),
    outcome: text("outcome").$type<SeasonOutcome>(),
    doneAt: timestamp("done_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.clientId] }),
    index("season_start_clients_pending_idx").on(t.runId, t.clientId).where(sql`${t.outcome} is null`),
    check("season_start_clients_outcome_check", sql`${t.outcome} is null or ${t.outcome} in ('opened', 'had-year', 'gone', 'failed')`),
  ],
);
