CREATE TABLE "case_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"author_id" text,
	"from_client" boolean NOT NULL,
	"body" text NOT NULL,
	"read_at" timestamp with time zone,
	"hidden_at" timestamp with time zone,
	"hidden_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"category" text DEFAULT 'other-documents' NOT NULL,
	"template" text,
	"state" text DEFAULT 'requested' NOT NULL,
	"client_note" text DEFAULT '' NOT NULL,
	"return_reason" text DEFAULT '' NOT NULL,
	"outstanding_since" timestamp with time zone DEFAULT now(),
	"created_by" text,
	"answered_at" timestamp with time zone,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheduled_jobs" (
	"name" text PRIMARY KEY NOT NULL,
	"locked_until" timestamp with time zone DEFAULT '-infinity' NOT NULL,
	"locked_by" text,
	"last_finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "awaiting_reply_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "requests_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "request_id" uuid;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "message_id" uuid;--> statement-breakpoint
ALTER TABLE "case_messages" ADD CONSTRAINT "case_messages_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_messages" ADD CONSTRAINT "case_messages_hidden_by_user_id_fk" FOREIGN KEY ("hidden_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_messages" ADD CONSTRAINT "case_messages_case_fk" FOREIGN KEY ("client_id","tax_year") REFERENCES "public"."client_cases"("user_id","tax_year") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_requests" ADD CONSTRAINT "document_requests_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_requests" ADD CONSTRAINT "document_requests_reviewed_by_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_requests" ADD CONSTRAINT "document_requests_case_fk" FOREIGN KEY ("client_id","tax_year") REFERENCES "public"."client_cases"("user_id","tax_year") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_messages_case_idx" ON "case_messages" USING btree ("client_id","tax_year","created_at");--> statement-breakpoint
CREATE INDEX "case_messages_unread_idx" ON "case_messages" USING btree ("client_id","tax_year","from_client") WHERE "case_messages"."read_at" is null and "case_messages"."hidden_at" is null;--> statement-breakpoint
CREATE INDEX "document_requests_case_idx" ON "document_requests" USING btree ("client_id","tax_year","position");--> statement-breakpoint
CREATE INDEX "document_requests_outstanding_idx" ON "document_requests" USING btree ("outstanding_since") WHERE "document_requests"."outstanding_since" is not null;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_request_id_document_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."document_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_message_id_case_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."case_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_cases_awaiting_reply_idx" ON "client_cases" USING btree ("tax_year","awaiting_reply_since") WHERE "client_cases"."awaiting_reply_since" is not null;--> statement-breakpoint
CREATE INDEX "documents_request_idx" ON "documents" USING btree ("request_id") WHERE "documents"."request_id" is not null;--> statement-breakpoint
CREATE INDEX "documents_message_idx" ON "documents" USING btree ("message_id") WHERE "documents"."message_id" is not null;