CREATE TABLE "season_start_clients" (
	"run_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"outcome" text,
	"done_at" timestamp with time zone,
	CONSTRAINT "season_start_clients_run_id_client_id_pk" PRIMARY KEY("run_id","client_id"),
	CONSTRAINT "season_start_clients_outcome_check" CHECK ("season_start_clients"."outcome" is null or "season_start_clients"."outcome" in ('opened', 'had-year', 'gone', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "season_starts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tax_year" integer NOT NULL,
	"filter" text NOT NULL,
	"total" integer NOT NULL,
	"started_by" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "season_starts_filter_check" CHECK ("season_starts"."filter" in ('all', 'paid', 'filed'))
);
--> statement-breakpoint
ALTER TABLE "season_start_clients" ADD CONSTRAINT "season_start_clients_run_id_season_starts_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."season_starts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "season_starts" ADD CONSTRAINT "season_starts_started_by_user_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "season_start_clients_pending_idx" ON "season_start_clients" USING btree ("run_id","client_id") WHERE "season_start_clients"."outcome" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "season_starts_one_running" ON "season_starts" USING btree ((true)) WHERE "season_starts"."finished_at" is null;