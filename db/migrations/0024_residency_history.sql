CREATE TABLE "residency_findings" (
	"person_id" uuid NOT NULL,
	"tax_year" integer NOT NULL,
	"student_exception" boolean DEFAULT false NOT NULL,
	"de_minimis" boolean DEFAULT false NOT NULL,
	"abroad_after_leaving" boolean DEFAULT false NOT NULL,
	"recorded_by" text,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "residency_findings_pkey" PRIMARY KEY("person_id","tax_year")
);
--> statement-breakpoint
CREATE TABLE "residency_people" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"role" text NOT NULL,
	"name" text NOT NULL,
	"relation" text,
	"date_of_birth" date,
	"citizenship" text,
	"tax_residence" text,
	"own_stays" boolean DEFAULT false NOT NULL,
	"green_card_steps" boolean DEFAULT false NOT NULL,
	"itin_issued_year" integer,
	"itin_last_used_year" integer,
	"fica_withheld" boolean,
	"school" text,
	"sponsor" text,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "residency_people_role_check" CHECK ("residency_people"."role" in ('client', 'spouse', 'dependant'))
);
--> statement-breakpoint
CREATE TABLE "residency_periods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"person_id" uuid NOT NULL,
	"status" text NOT NULL,
	"category" text,
	"from_day" date NOT NULL,
	"to_day" date,
	CONSTRAINT "residency_periods_order_check" CHECK ("residency_periods"."to_day" is null or "residency_periods"."to_day" >= "residency_periods"."from_day")
);
--> statement-breakpoint
CREATE TABLE "residency_stays" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"person_id" uuid NOT NULL,
	"arrival" date NOT NULL,
	"departure" date,
	"transit" boolean DEFAULT false NOT NULL,
	"source" text DEFAULT 'typed' NOT NULL,
	CONSTRAINT "residency_stays_order_check" CHECK ("residency_stays"."departure" is null or "residency_stays"."departure" >= "residency_stays"."arrival"),
	CONSTRAINT "residency_stays_source_check" CHECK ("residency_stays"."source" in ('typed', 'i94'))
);
--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "foreign_accounts_highest_cents" bigint;--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "files_jointly" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "residency_outcome" jsonb;--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "residency_status" text;--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "residency_first_year_open" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "residency_missing" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "residency_flagged" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "residency_computed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "residency_confirmed_status" text;--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "residency_confirmed_by" text;--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "residency_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "residency_confirm_reason" text;--> statement-breakpoint
ALTER TABLE "residency_findings" ADD CONSTRAINT "residency_findings_person_id_residency_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."residency_people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residency_findings" ADD CONSTRAINT "residency_findings_recorded_by_user_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residency_people" ADD CONSTRAINT "residency_people_client_id_user_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residency_periods" ADD CONSTRAINT "residency_periods_person_id_residency_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."residency_people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residency_stays" ADD CONSTRAINT "residency_stays_person_id_residency_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."residency_people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "residency_people_client_idx" ON "residency_people" USING btree ("client_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "residency_people_one_client" ON "residency_people" USING btree ("client_id") WHERE "residency_people"."role" = 'client';--> statement-breakpoint
CREATE UNIQUE INDEX "residency_people_one_spouse" ON "residency_people" USING btree ("client_id") WHERE "residency_people"."role" = 'spouse';--> statement-breakpoint
CREATE INDEX "residency_periods_person_idx" ON "residency_periods" USING btree ("person_id","from_day");--> statement-breakpoint
CREATE INDEX "residency_stays_person_idx" ON "residency_stays" USING btree ("person_id","arrival");--> statement-breakpoint
ALTER TABLE "client_cases" ADD CONSTRAINT "client_cases_residency_confirmed_by_user_id_fk" FOREIGN KEY ("residency_confirmed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_cases_residency_status_idx" ON "client_cases" USING btree ("tax_year","residency_status");