-- The return of a case and its signatures (app/server/returns, docs/product/return-and-signature.md).
-- The tables that record what happened are append-only, kept so by the database itself as the
-- audit trail is (migration 0004): for every role, the application's and an administrator's.
CREATE TABLE "efile_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"kind" text NOT NULL,
	"jurisdiction" text NOT NULL,
	"transmission_id" uuid,
	"submission_id" text,
	"event_date" date NOT NULL,
	"reject_codes" text[],
	"note" text,
	"recorded_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "efile_events_one_answer" UNIQUE("transmission_id")
);
--> statement-breakpoint
CREATE TABLE "final_copies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"filed_return_document_id" uuid NOT NULL,
	"signed_authorization_document_id" uuid NOT NULL,
	"released_by" text NOT NULL,
	"released_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "handwritten_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"signer_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"decision" text,
	"reason" text,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "id_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"signer_role" text NOT NULL,
	"document_type" text NOT NULL,
	"issuing_country" text NOT NULL,
	"expires_on" date NOT NULL,
	"number_last4" text NOT NULL,
	"method" text NOT NULL,
	"checked_by" text NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "return_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"reviewer_id" text NOT NULL,
	"decision" text NOT NULL,
	"return_sha256" text NOT NULL,
	"declaration_version" text,
	"message_id" uuid,
	"ip_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "return_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"number" integer NOT NULL,
	"form" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"document_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "return_versions_case_number_unique" UNIQUE("client_id","tax_year","number")
);
--> statement-breakpoint
CREATE TABLE "signature_request_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"version_id" uuid,
	"income_cents" bigint,
	"tax_cents" bigint,
	"withholding_cents" bigint,
	"refund_or_owed_cents" bigint,
	"actor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"version_id" uuid NOT NULL,
	"authorization_form" text NOT NULL,
	"form_document_id" uuid NOT NULL,
	"form_sha256" text NOT NULL,
	"return_sha256" text NOT NULL,
	"joint_return" boolean NOT NULL,
	"requested_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_signers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"role" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	CONSTRAINT "signature_signers_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "signature_signers_request_role_unique" UNIQUE("request_id","role")
);
--> statement-breakpoint
CREATE TABLE "signatures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"signer_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"signer_role" text NOT NULL,
	"signer_name" text NOT NULL,
	"method" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"time_zone" text,
	"ip_address" text,
	"user_agent" text,
	"consent_version" text,
	"form_sha256" text NOT NULL,
	"return_sha256" text NOT NULL,
	"id_check_id" uuid,
	"handwritten_upload_id" uuid,
	"retain_until" timestamp with time zone NOT NULL,
	CONSTRAINT "signatures_signer_unique" UNIQUE("signer_id")
);
--> statement-breakpoint
CREATE TABLE "signed_authorizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"storage_key" text NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signed_authorizations_request_id_unique" UNIQUE("request_id"),
	CONSTRAINT "signed_authorizations_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "signing_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"signer_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "return_record" text;--> statement-breakpoint
ALTER TABLE "efile_events" ADD CONSTRAINT "efile_events_transmission_id_efile_events_id_fk" FOREIGN KEY ("transmission_id") REFERENCES "public"."efile_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "efile_events" ADD CONSTRAINT "efile_events_case_fk" FOREIGN KEY ("client_id","tax_year") REFERENCES "public"."client_cases"("user_id","tax_year") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "final_copies" ADD CONSTRAINT "final_copies_filed_return_document_id_documents_id_fk" FOREIGN KEY ("filed_return_document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "final_copies" ADD CONSTRAINT "final_copies_signed_authorization_document_id_documents_id_fk" FOREIGN KEY ("signed_authorization_document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "final_copies" ADD CONSTRAINT "final_copies_case_fk" FOREIGN KEY ("client_id","tax_year") REFERENCES "public"."client_cases"("user_id","tax_year") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handwritten_uploads" ADD CONSTRAINT "handwritten_uploads_signer_id_signature_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."signature_signers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handwritten_uploads" ADD CONSTRAINT "handwritten_uploads_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "id_checks" ADD CONSTRAINT "id_checks_case_fk" FOREIGN KEY ("client_id","tax_year") REFERENCES "public"."client_cases"("user_id","tax_year") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_reviews" ADD CONSTRAINT "return_reviews_version_id_return_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."return_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_reviews" ADD CONSTRAINT "return_reviews_case_fk" FOREIGN KEY ("client_id","tax_year") REFERENCES "public"."client_cases"("user_id","tax_year") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_versions" ADD CONSTRAINT "return_versions_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_versions" ADD CONSTRAINT "return_versions_uploaded_by_user_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_versions" ADD CONSTRAINT "return_versions_case_fk" FOREIGN KEY ("client_id","tax_year") REFERENCES "public"."client_cases"("user_id","tax_year") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_request_events" ADD CONSTRAINT "signature_request_events_request_id_signature_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."signature_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_request_events" ADD CONSTRAINT "signature_request_events_version_id_return_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."return_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_version_id_return_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."return_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_form_document_id_documents_id_fk" FOREIGN KEY ("form_document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_case_fk" FOREIGN KEY ("client_id","tax_year") REFERENCES "public"."client_cases"("user_id","tax_year") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_signers" ADD CONSTRAINT "signature_signers_request_id_signature_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."signature_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signatures" ADD CONSTRAINT "signatures_request_id_signature_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."signature_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signatures" ADD CONSTRAINT "signatures_signer_id_signature_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."signature_signers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signatures" ADD CONSTRAINT "signatures_id_check_id_id_checks_id_fk" FOREIGN KEY ("id_check_id") REFERENCES "public"."id_checks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signatures" ADD CONSTRAINT "signatures_handwritten_upload_id_handwritten_uploads_id_fk" FOREIGN KEY ("handwritten_upload_id") REFERENCES "public"."handwritten_uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signed_authorizations" ADD CONSTRAINT "signed_authorizations_request_id_signature_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."signature_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_codes" ADD CONSTRAINT "signing_codes_signer_id_signature_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."signature_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "efile_events_case_idx" ON "efile_events" USING btree ("client_id","tax_year","created_at");--> statement-breakpoint
CREATE INDEX "efile_events_rejected_idx" ON "efile_events" USING btree ("event_date") WHERE "efile_events"."kind" = 'rejected';--> statement-breakpoint
CREATE INDEX "id_checks_signer_idx" ON "id_checks" USING btree ("client_id","tax_year","signer_role","checked_at");--> statement-breakpoint
CREATE INDEX "return_reviews_version_idx" ON "return_reviews" USING btree ("version_id","created_at");--> statement-breakpoint
CREATE INDEX "signature_request_events_request_idx" ON "signature_request_events" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE INDEX "signature_requests_case_idx" ON "signature_requests" USING btree ("client_id","tax_year","created_at");--> statement-breakpoint
CREATE INDEX "signatures_request_idx" ON "signatures" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "signing_codes_signer_idx" ON "signing_codes" USING btree ("signer_id");
--> statement-breakpoint
CREATE FUNCTION return_record_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER return_reviews_append_only BEFORE UPDATE OR DELETE ON "return_reviews"
  FOR EACH ROW EXECUTE FUNCTION return_record_refuse_change();--> statement-breakpoint
CREATE TRIGGER id_checks_append_only BEFORE UPDATE OR DELETE ON "id_checks"
  FOR EACH ROW EXECUTE FUNCTION return_record_refuse_change();--> statement-breakpoint
CREATE TRIGGER signature_requests_append_only BEFORE UPDATE OR DELETE ON "signature_requests"
  FOR EACH ROW EXECUTE FUNCTION return_record_refuse_change();--> statement-breakpoint
CREATE TRIGGER signature_request_events_append_only BEFORE UPDATE OR DELETE ON "signature_request_events"
  FOR EACH ROW EXECUTE FUNCTION return_record_refuse_change();--> statement-breakpoint
CREATE TRIGGER signed_authorizations_append_only BEFORE UPDATE OR DELETE ON "signed_authorizations"
  FOR EACH ROW EXECUTE FUNCTION return_record_refuse_change();--> statement-breakpoint
CREATE TRIGGER efile_events_append_only BEFORE UPDATE OR DELETE ON "efile_events"
  FOR EACH ROW EXECUTE FUNCTION return_record_refuse_change();--> statement-breakpoint
CREATE TRIGGER final_copies_append_only BEFORE UPDATE OR DELETE ON "final_copies"
  FOR EACH ROW EXECUTE FUNCTION return_record_refuse_change();--> statement-breakpoint
-- A signature is never changed, and is kept 3 years from the later of the return's due date and
-- the day it was filed: until its retain_until (computed when it is signed, from the due date and
-- the day of signing), and until 3 years after any e-file event of its case recorded since (a
-- return transmitted late). A DELETE before then is refused.
CREATE FUNCTION signatures_refuse_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION 'signatures is append-only: UPDATE refused';
  END IF;
  IF OLD.retain_until > now() THEN
    RAISE EXCEPTION 'signatures are kept until %: DELETE refused', OLD.retain_until;
  END IF;
  IF EXISTS (SELECT 1 FROM "efile_events" e WHERE e.client_id = OLD.client_id AND e.tax_year = OLD.tax_year
      AND e.event_date + interval '3 years' > now()) THEN
    RAISE EXCEPTION 'signatures are kept 3 years after the return was filed: DELETE refused';
  END IF;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER signatures_kept BEFORE UPDATE OR DELETE ON "signatures"
  FOR EACH ROW EXECUTE FUNCTION signatures_refuse_change();
