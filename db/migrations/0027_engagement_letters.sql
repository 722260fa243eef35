CREATE TABLE "engagement_letters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"service" text NOT NULL,
	"template_version_id" uuid NOT NULL,
	"fee_cents" integer NOT NULL,
	"text" text NOT NULL,
	"sha256" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "engagement_responses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"letter_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"decision" text NOT NULL,
	"typed_name" text,
	"reason" text,
	"ip_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "engagement_responses_letter_unique" UNIQUE("letter_id")
);
--> statement-breakpoint
CREATE TABLE "engagement_template_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service" text NOT NULL,
	"version" integer NOT NULL,
	"body" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "engagement_template_versions_unique" UNIQUE("service","version")
);
--> statement-breakpoint
ALTER TABLE "firm_settings" ADD COLUMN "engagement_letter_required" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "engagement_letters" ADD CONSTRAINT "engagement_letters_template_version_id_engagement_template_versions_id_fk" FOREIGN KEY ("template_version_id") REFERENCES "public"."engagement_template_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_letters" ADD CONSTRAINT "engagement_letters_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_letters" ADD CONSTRAINT "engagement_letters_client_id_tax_year_client_cases_user_id_tax_year_fk" FOREIGN KEY ("client_id","tax_year") REFERENCES "public"."client_cases"("user_id","tax_year") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_responses" ADD CONSTRAINT "engagement_responses_letter_id_engagement_letters_id_fk" FOREIGN KEY ("letter_id") REFERENCES "public"."engagement_letters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_template_versions" ADD CONSTRAINT "engagement_template_versions_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "engagement_letters_case_idx" ON "engagement_letters" USING btree ("client_id","tax_year","created_at");--> statement-breakpoint
CREATE INDEX "engagement_responses_case_idx" ON "engagement_responses" USING btree ("client_id","tax_year");--> statement-breakpoint
ALTER TABLE "engagement_responses" ADD CONSTRAINT "engagement_responses_decision_check" CHECK (
  (decision = 'accepted' AND typed_name IS NOT NULL AND reason IS NULL) OR (decision = 'declined' AND reason IS NOT NULL AND typed_name IS NULL));
--> statement-breakpoint
-- The templates' versions, the letters and the answers are records kept for good: never changed,
-- never deleted (return_record_refuse_change, migration 0018; kept_record_refuse_truncate, 0020).
CREATE TRIGGER engagement_template_versions_append_only BEFORE UPDATE OR DELETE ON "engagement_template_versions"
  FOR EACH ROW EXECUTE FUNCTION return_record_refuse_change();--> statement-breakpoint
CREATE TRIGGER engagement_letters_append_only BEFORE UPDATE OR DELETE ON "engagement_letters"
  FOR EACH ROW EXECUTE FUNCTION return_record_refuse_change();--> statement-breakpoint
CREATE TRIGGER engagement_responses_append_only BEFORE UPDATE OR DELETE ON "engagement_responses"
  FOR EACH ROW EXECUTE FUNCTION return_record_refuse_change();--> statement-breakpoint
CREATE TRIGGER engagement_template_versions_no_truncate BEFORE TRUNCATE ON "engagement_template_versions"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER engagement_letters_no_truncate BEFORE TRUNCATE ON "engagement_letters"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER engagement_responses_no_truncate BEFORE TRUNCATE ON "engagement_responses"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
-- The client's filing page shows the letter and its answer: they change the case's view version (migration 0026).
CREATE TRIGGER engagement_letters_view_insert AFTER INSERT ON engagement_letters
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION case_view_touch_case_rows();--> statement-breakpoint
CREATE TRIGGER engagement_letters_view_update AFTER UPDATE ON engagement_letters
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION case_view_touch_case_rows();--> statement-breakpoint
CREATE TRIGGER engagement_letters_view_delete AFTER DELETE ON engagement_letters
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION case_view_touch_case_rows();--> statement-breakpoint
CREATE TRIGGER engagement_responses_view_insert AFTER INSERT ON engagement_responses
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION case_view_touch_case_rows();--> statement-breakpoint
CREATE TRIGGER engagement_responses_view_update AFTER UPDATE ON engagement_responses
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION case_view_touch_case_rows();--> statement-breakpoint
CREATE TRIGGER engagement_responses_view_delete AFTER DELETE ON engagement_responses
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION case_view_touch_case_rows();
