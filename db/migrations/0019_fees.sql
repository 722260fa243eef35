CREATE TABLE "firm_settings" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"final_copies_wait_for_payment" boolean DEFAULT true NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"invoice_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"price_list_id" text,
	"description" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_cents" integer NOT NULL,
	CONSTRAINT "invoice_lines_pkey" PRIMARY KEY("invoice_id","position")
);
--> statement-breakpoint
CREATE TABLE "invoice_numbers" (
	"year" integer PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"number_year" integer NOT NULL,
	"number_seq" integer NOT NULL,
	"number" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"discount_cents" integer DEFAULT 0 NOT NULL,
	"total_cents" integer NOT NULL,
	"paid_cents" integer DEFAULT 0 NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"due_on" date NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"voided_by" text,
	"void_reason" text,
	"client_notified_at" timestamp with time zone,
	CONSTRAINT "invoices_number_unique" UNIQUE("number"),
	CONSTRAINT "invoices_year_seq_unique" UNIQUE("number_year","number_seq")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"method" text NOT NULL,
	"status" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"received_on" date NOT NULL,
	"stripe_checkout_session_id" text,
	"stripe_payment_intent_id" text,
	"recorded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_checkout_session_unique" UNIQUE("stripe_checkout_session_id")
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"stripe_refund_id" text,
	"requested_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "refunds_stripe_refund_unique" UNIQUE("stripe_refund_id")
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "client_cases" ADD COLUMN "final_copies_before_payment" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_case_fk" FOREIGN KEY ("client_id","tax_year") REFERENCES "public"."client_cases"("user_id","tax_year") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_case_idx" ON "invoices" USING btree ("client_id","tax_year","created_at");--> statement-breakpoint
CREATE INDEX "invoices_outstanding_idx" ON "invoices" USING btree ("sent_at") WHERE "invoices"."status" in ('sent', 'partly-paid');--> statement-breakpoint
CREATE INDEX "payments_invoice_idx" ON "payments" USING btree ("invoice_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_received_idx" ON "payments" USING btree ("received_on");--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id");--> statement-breakpoint
-- The firm's books: an invoice, a payment or a refund is never deleted (invoice numbers stay
-- without gaps; a mistaken invoice is voided), and what a payment or a refund was (its invoice,
-- amount, method, when it was received) never changes; only its state moves (processing to
-- succeeded or failed, pending to succeeded or failed).
CREATE FUNCTION fee_record_refuse_change() RETURNS trigger AS $$
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
CREATE TRIGGER invoices_kept BEFORE UPDATE OR DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION fee_record_refuse_change();--> statement-breakpoint
CREATE TRIGGER payments_kept BEFORE UPDATE OR DELETE ON "payments"
  FOR EACH ROW EXECUTE FUNCTION fee_record_refuse_change();--> statement-breakpoint
CREATE TRIGGER refunds_kept BEFORE UPDATE OR DELETE ON "refunds"
  FOR EACH ROW EXECUTE FUNCTION fee_record_refuse_change();--> statement-breakpoint
-- An invoice's lines change only while it is a draft.
CREATE FUNCTION invoice_lines_only_in_draft() RETURNS trigger AS $$
BEGIN
  IF (SELECT status FROM "invoices" WHERE id = COALESCE(NEW.invoice_id, OLD.invoice_id)) <> 'draft' THEN
    RAISE EXCEPTION 'the lines of a sent invoice never change: % refused', TG_OP;
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER invoice_lines_draft_only BEFORE INSERT OR UPDATE OR DELETE ON "invoice_lines"
  FOR EACH ROW EXECUTE FUNCTION invoice_lines_only_in_draft();--> statement-breakpoint
-- Money is whole cents and never negative.
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_amounts_check" CHECK ("total_cents" >= 0 AND "discount_cents" >= 0 AND "paid_cents" >= 0);--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_amounts_check" CHECK ("quantity" > 0 AND "unit_cents" >= 0);--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_amount_check" CHECK ("amount_cents" > 0);--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_amount_check" CHECK ("amount_cents" > 0);--> statement-breakpoint
ALTER TABLE "firm_settings" ADD CONSTRAINT "firm_settings_one_row" CHECK ("id");--> statement-breakpoint
INSERT INTO "firm_settings" ("id") VALUES (true);
