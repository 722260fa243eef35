-- Cases per tax year (docs/product/workflow.md#cases-per-tax-year): a client's case, taxpayer
-- record and documents belong to one tax year. Everything stored so far is tax year 2025.
ALTER TABLE "client_cases" ADD COLUMN "tax_year" integer DEFAULT 2025 NOT NULL;--> statement-breakpoint
-- A new client's case is the filing season's: the year before the calendar year (domain/tax-year.ts).
ALTER TABLE "client_cases" ALTER COLUMN "tax_year" SET DEFAULT (extract(year from now())::integer - 1);--> statement-breakpoint
ALTER TABLE "client_cases" DROP CONSTRAINT "client_cases_pkey";--> statement-breakpoint
ALTER TABLE "client_cases" ADD CONSTRAINT "client_cases_pkey" PRIMARY KEY("user_id","tax_year");--> statement-breakpoint
-- The client number is the client's, the same in each of their years: unique within a year.
ALTER TABLE "client_cases" DROP CONSTRAINT "client_cases_number_unique";--> statement-breakpoint
ALTER TABLE "client_cases" ADD CONSTRAINT "client_cases_year_number_unique" UNIQUE("tax_year","number");--> statement-breakpoint
DROP INDEX "client_cases_stage_number_idx";--> statement-breakpoint
DROP INDEX "client_cases_counters_idx";--> statement-breakpoint
CREATE INDEX "client_cases_stage_number_idx" ON "client_cases" USING btree ("tax_year","current_stage","number" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "client_cases_counters_idx" ON "client_cases" USING btree ("tax_year","current_stage","finalcopies");--> statement-breakpoint
ALTER TABLE "taxpayer_records" ADD COLUMN "tax_year" integer DEFAULT 2025 NOT NULL;--> statement-breakpoint
ALTER TABLE "taxpayer_records" ALTER COLUMN "tax_year" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "taxpayer_records" DROP CONSTRAINT "taxpayer_records_user_id_unique";--> statement-breakpoint
ALTER TABLE "taxpayer_records" ADD CONSTRAINT "taxpayer_records_user_year_unique" UNIQUE("user_id","tax_year");--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "tax_year" integer DEFAULT 2025 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "tax_year" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "from_client" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "shared_at" timestamp with time zone;--> statement-breakpoint
DROP INDEX "documents_client_idx";--> statement-breakpoint
CREATE INDEX "documents_case_idx" ON "documents" USING btree ("client_id","tax_year","category");--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "stage_notices" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "tax_year" integer;--> statement-breakpoint
CREATE TABLE "case_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"author_id" text,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_views" (
	"staff_id" text NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_views_pkey" PRIMARY KEY("staff_id","client_id","tax_year")
);
--> statement-breakpoint
ALTER TABLE "case_notes" ADD CONSTRAINT "case_notes_client_id_user_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_notes" ADD CONSTRAINT "case_notes_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_views" ADD CONSTRAINT "case_views_staff_id_user_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_views" ADD CONSTRAINT "case_views_client_id_user_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_notes_case_idx" ON "case_notes" USING btree ("client_id","tax_year","created_at");
