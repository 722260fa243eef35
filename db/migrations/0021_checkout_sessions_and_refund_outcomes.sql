CREATE TABLE "checkout_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'creating' NOT NULL,
	"stripe_session_id" text,
	"url" text,
	"unwanted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "checkout_sessions_stripe_unique" UNIQUE("stripe_session_id")
);
--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "requested_by" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "excess_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_sessions_one_open" ON "checkout_sessions" USING btree ("invoice_id") WHERE "checkout_sessions"."status" in ('creating', 'open');--> statement-breakpoint
CREATE INDEX "checkout_sessions_unwanted_idx" ON "checkout_sessions" USING btree ("unwanted_at") WHERE "checkout_sessions"."unwanted_at" is not null and "checkout_sessions"."status" in ('creating', 'open');--> statement-breakpoint
-- hand-written below
-- What a payment held above what was owed is fixed once it succeeded, like its amount; a refund
-- nobody here asked for is one Stripe told of (it has Stripe's id).
CREATE OR REPLACE FUNCTION fee_record_refuse_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION '% rows are kept: DELETE refused', TG_TABLE_NAME;
  END IF;
  -- One IF per table: PL/pgSQL does not stop at a false TG_TABLE_NAME test, and another
  -- table's row has no such columns.
  IF TG_TABLE_NAME = 'payments' THEN
    IF (NEW.invoice_id, NEW.method, NEW.amount_cents, NEW.received_on, NEW.recorded_by)
        IS DISTINCT FROM (OLD.invoice_id, OLD.method, OLD.amount_cents, OLD.received_on, OLD.recorded_by) THEN
      RAISE EXCEPTION 'a payment''s amount, method and invoice never change: UPDATE refused';
    END IF;
    IF OLD.status = 'succeeded' AND NEW.excess_cents IS DISTINCT FROM OLD.excess_cents THEN
      RAISE EXCEPTION 'what a received payment held above what was owed never changes: UPDATE refused';
    END IF;
  ELSIF TG_TABLE_NAME = 'refunds' THEN
    IF (NEW.payment_id, NEW.amount_cents, NEW.requested_by)
        IS DISTINCT FROM (OLD.payment_id, OLD.amount_cents, OLD.requested_by) THEN
      RAISE EXCEPTION 'a refund''s amount and payment never change: UPDATE refused';
    END IF;
  ELSIF TG_TABLE_NAME = 'invoices' THEN
    IF (NEW.number, NEW.number_year, NEW.number_seq, NEW.client_id, NEW.tax_year)
        IS DISTINCT FROM (OLD.number, OLD.number_year, OLD.number_seq, OLD.client_id, OLD.tax_year) THEN
      RAISE EXCEPTION 'an invoice''s number and case never change: UPDATE refused';
    END IF;
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_excess_check" CHECK ("excess_cents" >= 0 AND "excess_cents" <= "amount_cents");--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_requested_or_told_check" CHECK ("requested_by" IS NOT NULL OR "stripe_refund_id" IS NOT NULL);--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_amount_check" CHECK ("amount_cents" > 0);
