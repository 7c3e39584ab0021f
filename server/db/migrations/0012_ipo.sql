-- Public IPO subscription (contract/ipo.ts, server/modules/ipo): offerings on market-clock
-- business days, one application per member and offering, and the published draw (commitment
-- sha256(seed) from creation, qualified numbers, winners, the revealed seed). State columns carry
-- CHECKs naming the contract's lists (tests/integration/state-enums.test.ts).
CREATE TABLE "ipo_offerings" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"round" integer DEFAULT 0 NOT NULL,
	"symbol" text NOT NULL,
	"name" text NOT NULL,
	"market_type" text NOT NULL,
	"price_minor" bigint NOT NULL,
	"shares_offered" bigint NOT NULL,
	"shares_per_application" integer NOT NULL,
	"apply_start_day" integer NOT NULL,
	"listing_day" integer NOT NULL,
	"real_apply_start" date NOT NULL,
	"real_draw_date" date NOT NULL,
	"stage" text DEFAULT 'scheduled' NOT NULL,
	"seed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ipo_offerings_stage_check" CHECK ("stage" IN ('scheduled', 'deducted', 'drawn', 'refunded', 'listed')),
	CONSTRAINT "ipo_offerings_units_positive" CHECK ("shares_per_application" > 0 and "shares_offered" >= "shares_per_application"),
	CONSTRAINT "ipo_offerings_days_order" CHECK ("listing_day" > "apply_start_day" + 5)
);
--> statement-breakpoint
CREATE TABLE "ipo_applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_no" text NOT NULL,
	"offering_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"status" text NOT NULL,
	"shares" integer NOT NULL,
	"price_minor" bigint NOT NULL,
	"payable_minor" bigint NOT NULL,
	"paid_minor" bigint DEFAULT 0 NOT NULL,
	"refunded_minor" bigint DEFAULT 0 NOT NULL,
	"won_units" integer DEFAULT 0 NOT NULL,
	"order_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ipo_applications_application_no_unique" UNIQUE("application_no"),
	CONSTRAINT "ipo_applications_status_check" CHECK ("status" IN ('unpaid', 'waitingDraw', 'won', 'notWon', 'subscribed', 'waived'))
);
--> statement-breakpoint
CREATE TABLE "ipo_draws" (
	"offering_id" integer PRIMARY KEY NOT NULL,
	"commitment" text NOT NULL,
	"seed" text,
	"units" integer NOT NULL,
	"qualified" jsonb,
	"winners" jsonb,
	"oversubscribed" boolean,
	"drawn_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ipo_offerings" ADD CONSTRAINT "ipo_offerings_symbol_instruments_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "public"."instruments"("symbol") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipo_applications" ADD CONSTRAINT "ipo_applications_offering_id_ipo_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."ipo_offerings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipo_applications" ADD CONSTRAINT "ipo_applications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipo_applications" ADD CONSTRAINT "ipo_applications_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipo_draws" ADD CONSTRAINT "ipo_draws_offering_id_ipo_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."ipo_offerings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ipo_offerings_source_round_uq" ON "ipo_offerings" USING btree ("source","round");--> statement-breakpoint
CREATE INDEX "ipo_offerings_start_idx" ON "ipo_offerings" USING btree ("apply_start_day");--> statement-breakpoint
CREATE UNIQUE INDEX "ipo_applications_one_per_member_uq" ON "ipo_applications" USING btree ("offering_id","user_id");--> statement-breakpoint
CREATE INDEX "ipo_applications_user_idx" ON "ipo_applications" USING btree ("user_id","id");
