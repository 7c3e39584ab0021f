-- Credit loans (contract/credit.ts, server/modules/credit, docs/credit.md): applications reviewed
-- by an operator, disbursed into the member's TWD wallet against the platform's loan_receivable
-- account, interest accrued per market-calendar trading day, repaid interest first. The operator's
-- settings are one row (id 1). State columns carry a CHECK with their contract list
-- (tests/integration/state-enums.test.ts).
CREATE TABLE "credit_loans" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"principal_minor" bigint NOT NULL,
	"annual_rate_bps" integer NOT NULL,
	"term_days" integer NOT NULL,
	"principal_repaid_minor" bigint DEFAULT 0 NOT NULL,
	"interest_accrued_minor" bigint DEFAULT 0 NOT NULL,
	"interest_paid_minor" bigint DEFAULT 0 NOT NULL,
	"disbursed_day" integer,
	"due_day" integer,
	"accrued_through_day" integer,
	"completed_day" integer,
	"reason" text,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_loans_status_check" CHECK ("credit_loans"."status" IN ('pending', 'rejected', 'lending', 'completed')),
	CONSTRAINT "credit_loans_amounts" CHECK ("credit_loans"."principal_minor" > 0 and "credit_loans"."principal_repaid_minor" between 0 and "credit_loans"."principal_minor" and "credit_loans"."interest_paid_minor" between 0 and "credit_loans"."interest_accrued_minor" and "credit_loans"."annual_rate_bps" between 0 and 10000 and "credit_loans"."term_days" > 0)
);
--> statement-breakpoint
CREATE TABLE "credit_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"annual_rate_bps" integer NOT NULL,
	"term_days" integer NOT NULL,
	"bands" jsonb NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credit_loans" ADD CONSTRAINT "credit_loans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_loans" ADD CONSTRAINT "credit_loans_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_settings" ADD CONSTRAINT "credit_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_loans_user_idx" ON "credit_loans" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "credit_loans_status_idx" ON "credit_loans" USING btree ("status","id");
