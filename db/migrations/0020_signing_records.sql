ALTER TABLE "case_messages" ADD COLUMN "author_name" text;--> statement-breakpoint
ALTER TABLE "signature_request_events" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "signatures" ADD COLUMN "declaration_version" text;--> statement-breakpoint
-- hand-written below
-- The records the law makes the firm keep refuse UPDATE and DELETE row by row (migrations 0004,
-- 0018, 0019); a TRUNCATE fires no row trigger, so each such table also refuses a TRUNCATE while
-- it holds rows (a TRUNCATE ... CASCADE from a table they reference included). An empty table
-- loses nothing, and may be truncated.
CREATE FUNCTION kept_record_refuse_truncate() RETURNS trigger AS $$
DECLARE
  holds boolean;
BEGIN
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I.%I)', TG_TABLE_SCHEMA, TG_TABLE_NAME) INTO holds;
  IF holds THEN
    RAISE EXCEPTION '% rows are kept: TRUNCATE refused', TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER return_reviews_no_truncate BEFORE TRUNCATE ON "return_reviews"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER id_checks_no_truncate BEFORE TRUNCATE ON "id_checks"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER signature_requests_no_truncate BEFORE TRUNCATE ON "signature_requests"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER signature_request_events_no_truncate BEFORE TRUNCATE ON "signature_request_events"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER signatures_no_truncate BEFORE TRUNCATE ON "signatures"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER signed_authorizations_no_truncate BEFORE TRUNCATE ON "signed_authorizations"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER efile_events_no_truncate BEFORE TRUNCATE ON "efile_events"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER final_copies_no_truncate BEFORE TRUNCATE ON "final_copies"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER invoices_no_truncate BEFORE TRUNCATE ON "invoices"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER payments_no_truncate BEFORE TRUNCATE ON "payments"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();--> statement-breakpoint
CREATE TRIGGER refunds_no_truncate BEFORE TRUNCATE ON "refunds"
  FOR EACH STATEMENT EXECUTE FUNCTION kept_record_refuse_truncate();
