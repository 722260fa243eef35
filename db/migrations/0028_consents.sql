CREATE TABLE "consent_withdrawals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"consent_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"withdrawn_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"retain_until" timestamp with time zone NOT NULL,
	CONSTRAINT "consent_withdrawals_consent_id_unique" UNIQUE("consent_id")
);
--> statement-breakpoint
CREATE TABLE "consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"kind" text NOT NULL,
	"decision" text NOT NULL,
	"text" text NOT NULL,
	"text_sha256" text NOT NULL,
	"text_version" text NOT NULL,
	"purpose" text NOT NULL,
	"recipient" text NOT NULL,
	"typed_name" text,
	"months" integer,
	"in_force_through" date,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"retain_until" timestamp with time zone NOT NULL,
	CONSTRAINT "consents_kind_check" CHECK ("consents"."kind" in ('use', 'disclose')),
	CONSTRAINT "consents_decision_check" CHECK (("consents"."decision" = 'given' and "consents"."typed_name" is not null and "consents"."months" is not null and "consents"."in_force_through" is not null)
        or ("consents"."decision" = 'refused' and "consents"."typed_name" is null and "consents"."months" is null and "consents"."in_force_through" is null))
);
--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "works_outside_us" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "consent_withdrawals" ADD CONSTRAINT "consent_withdrawals_consent_id_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."consents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_withdrawals" ADD CONSTRAINT "consent_withdrawals_client_id_user_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_client_id_user_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_withdrawals_client_idx" ON "consent_withdrawals" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "consents_client_kind_idx" ON "consents" USING btree ("client_id","kind","decided_at");--> statement-breakpoint
-- A consent's record and its withdrawal are never changed, and are kept until their retain_until
-- (three years after the consent ends, app/domain/consents.ts consentRetainUntil): a DELETE before
-- then is refused, as for signatures (migration 0018), and so is a TRUNCATE while they hold rows
-- (kept_record_refuse_truncate, migration 0020). A withdrawal's consent cannot go before it (the
-- foreign key).
CREATE FUNCTION consent_record_refuse_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION '% is append-only: UPDATE refused', TG_TABLE_NAME;
  END IF;
  IF OLD.retain_until > now() THEN
    RAISE EXCEPTION '% rows are kept until %: DELETE refused', TG_TABLE_NAME, OLD.retain_until;
  END IF;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER consents_kept BEFORE UPDATE OR DELETE ON "consents"
  FOR EACH ROW EXECUTE FUNCTION consent_record_refuse_change();--> statement-breakpoint
CREATE TRIGGER consent_withdrawals_kept BEFORE UPDATE OR DELETE ON "consent_withdrawals"
  FOR EACH ROW EXECUTE FUNCTION consent_record_refuse_change();--> statement-breakpoint
CREATE TRIGGER consents_no_truncate BEFORE TRUNCATE ON "consents"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER consent_withdrawals_no_truncate BEFORE TRUNCATE ON "consent_withdrawals"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();
