CREATE TABLE "taxpayer_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name_as_per_ssn" text NOT NULL,
	"middle_name" text DEFAULT '' NOT NULL,
	"last_name" text NOT NULL,
	"ssn_tin" text NOT NULL,
	"ssn_last4" text NOT NULL,
	"date_of_birth" date NOT NULL,
	"occupation" text NOT NULL,
	"time_zone" text DEFAULT 'IST' NOT NULL,
	"filing_status" text NOT NULL,
	"first_entry_date_usa" date NOT NULL,
	"visa_type" text NOT NULL,
	"primary_country_code" text DEFAULT '+91' NOT NULL,
	"primary_contact" text NOT NULL,
	"secondary_country_code" text DEFAULT '+91' NOT NULL,
	"secondary_contact" text DEFAULT '' NOT NULL,
	"alternate_email" text DEFAULT '' NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zipcode" text NOT NULL,
	"current_mailing_address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "taxpayer_records_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
ALTER TABLE "taxpayer_records" ADD CONSTRAINT "taxpayer_records_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;