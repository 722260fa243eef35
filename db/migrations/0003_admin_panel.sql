CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor_email" text,
	"action" text NOT NULL,
	"client_id" text,
	"detail" text,
	"ip_address" text
);
--> statement-breakpoint
CREATE TABLE "client_cases" (
	"user_id" text PRIMARY KEY NOT NULL,
	"number" serial NOT NULL,
	"assignee_id" text,
	"home" boolean DEFAULT false NOT NULL,
	"taxinfo" boolean DEFAULT false NOT NULL,
	"documents" boolean DEFAULT false NOT NULL,
	"preparation" boolean DEFAULT false NOT NULL,
	"draft" boolean DEFAULT false NOT NULL,
	"payment" boolean DEFAULT false NOT NULL,
	"efiling" boolean DEFAULT false NOT NULL,
	"finalcopies" boolean DEFAULT false NOT NULL,
	"current_stage" text DEFAULT 'home' NOT NULL,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_cases_number_unique" UNIQUE("number")
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"category" text NOT NULL,
	"original_name" text NOT NULL,
	"size" integer NOT NULL,
	"content_type" text NOT NULL,
	"storage_key" text NOT NULL,
	"uploaded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "documents_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
ALTER TABLE "client_cases" ADD CONSTRAINT "client_cases_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_cases" ADD CONSTRAINT "client_cases_assignee_id_user_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_cases" ADD CONSTRAINT "client_cases_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_client_id_user_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_uploaded_by_user_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_client_idx" ON "audit_log" USING btree ("client_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "client_cases_current_stage_idx" ON "client_cases" USING btree ("current_stage");--> statement-breakpoint
CREATE INDEX "client_cases_assignee_idx" ON "client_cases" USING btree ("assignee_id");--> statement-breakpoint
CREATE INDEX "documents_client_idx" ON "documents" USING btree ("client_id","category");