-- Stock lending (借券, contract/lending.ts, server/modules/lending): the operator's channel switch,
-- rate cap and longest term (one row), a quota of shares per instrument with the shares in loan
-- (a conditional update keeps lent_shares <= quota_shares under concurrency), the members' lending
-- orders on one long position each, and the allocations of lent shares to short positions.
CREATE TABLE "lending_channel" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"open" boolean DEFAULT true NOT NULL,
	"rate_cap_bps" integer DEFAULT 1600 NOT NULL,
	"max_days" integer DEFAULT 120 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lending_channel_one_row" CHECK ("id" = 1),
	CONSTRAINT "lending_channel_limits" CHECK ("rate_cap_bps" between 1 and 10000 and "max_days" > 0)
);
--> statement-breakpoint
INSERT INTO "lending_channel" ("id") VALUES (1);
--> statement-breakpoint
CREATE TABLE "lending_quotas" (
	"symbol" text PRIMARY KEY NOT NULL,
	"quota_shares" integer DEFAULT 0 NOT NULL,
	"lent_shares" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lending_quotas_amounts" CHECK ("quota_shares" >= 0 and "lent_shares" >= 0)
);
--> statement-breakpoint
CREATE TABLE "lending_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"lending_no" text NOT NULL,
	"user_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"shares" integer NOT NULL,
	"rate_bps" integer NOT NULL,
	"days" integer NOT NULL,
	"start_day" integer NOT NULL,
	"accrued_days" integer DEFAULT 0 NOT NULL,
	"rebate_minor" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'inLoan' NOT NULL,
	"finish_reason" text,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lending_orders_lending_no_unique" UNIQUE("lending_no"),
	CONSTRAINT "lending_orders_status_check" CHECK ("status" IN ('inLoan', 'finished')),
	CONSTRAINT "lending_orders_finish_reason_check" CHECK ("finish_reason" IN ('recall', 'expired', 'positionClosed')),
	CONSTRAINT "lending_orders_amounts" CHECK ("shares" > 0 and "rate_bps" > 0 and "days" > 0 and "accrued_days" between 0 and "days" and "rebate_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "lending_allocations" (
	"id" serial PRIMARY KEY NOT NULL,
	"lending_order_id" integer NOT NULL,
	"short_order_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"shares" integer NOT NULL,
	"start_day" integer NOT NULL,
	"end_day" integer,
	"fee_minor" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lending_allocations_status_check" CHECK ("status" IN ('open', 'returned')),
	CONSTRAINT "lending_allocations_amounts" CHECK ("shares" > 0 and "fee_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "lending_quotas" ADD CONSTRAINT "lending_quotas_symbol_instruments_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "public"."instruments"("symbol") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lending_orders" ADD CONSTRAINT "lending_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lending_orders" ADD CONSTRAINT "lending_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lending_orders" ADD CONSTRAINT "lending_orders_symbol_instruments_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "public"."instruments"("symbol") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lending_allocations" ADD CONSTRAINT "lending_allocations_lending_order_id_lending_orders_id_fk" FOREIGN KEY ("lending_order_id") REFERENCES "public"."lending_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lending_allocations" ADD CONSTRAINT "lending_allocations_short_order_id_orders_id_fk" FOREIGN KEY ("short_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lending_allocations" ADD CONSTRAINT "lending_allocations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lending_orders_user_idx" ON "lending_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "lending_orders_order_idx" ON "lending_orders" USING btree ("order_id") WHERE "lending_orders"."status" = 'inLoan';--> statement-breakpoint
CREATE INDEX "lending_orders_in_loan_idx" ON "lending_orders" USING btree ("symbol","id") WHERE "lending_orders"."status" = 'inLoan';--> statement-breakpoint
CREATE INDEX "lending_allocations_lending_idx" ON "lending_allocations" USING btree ("lending_order_id") WHERE "lending_allocations"."status" = 'open';--> statement-breakpoint
CREATE INDEX "lending_allocations_short_idx" ON "lending_allocations" USING btree ("short_order_id");
