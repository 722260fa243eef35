CREATE TABLE "staff_notices" (
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"last_sent_at" timestamp with time zone,
	"pending" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "staff_notices_pkey" PRIMARY KEY("client_id","tax_year")
);
--> statement-breakpoint
ALTER TABLE "staff_notices" ADD CONSTRAINT "staff_notices_case_fk" FOREIGN KEY ("client_id","tax_year") REFERENCES "public"."client_cases"("user_id","tax_year") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_notices_pending_idx" ON "staff_notices" USING btree ("last_sent_at") WHERE "staff_notices"."pending" <> '{}'::jsonb;