-- Operator-managed offerings of the primary market (contract/primary.ts, server/modules/primary):
-- auctions (競價拍賣), block trades (鉅額交易) and placements (配售) on an instrument, on
-- market-clock business days; the auction's bids with their frozen deposits. State columns carry
-- CHECKs naming the contract's lists (tests/integration/state-enums.test.ts).
CREATE TABLE "primary_offerings" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"symbol" text NOT NULL,
	"name" text NOT NULL,
	"price_minor" bigint NOT NULL,
	"lots" integer NOT NULL,
	"deposit_bps" integer DEFAULT 0 NOT NULL,
	"cap_bps" integer DEFAULT 1000 NOT NULL,
	"start_day" integer NOT NULL,
	"end_day" integer NOT NULL,
	"listing_day" integer NOT NULL,
	"stage" text DEFAULT 'scheduled' NOT NULL,
	"seed" text NOT NULL,
	"commitment" text NOT NULL,
	"weighted_average_minor" bigint,
	"listing_price_minor" bigint,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "primary_offerings_kind_check" CHECK ("kind" IN ('auction', 'blockTrade', 'placement')),
	CONSTRAINT "primary_offerings_stage_check" CHECK ("stage" IN ('scheduled', 'allocated', 'listed')),
	CONSTRAINT "primary_offerings_amounts_positive" CHECK ("price_minor" > 0 and "lots" > 0 and "deposit_bps" between 0 and 10000 and "cap_bps" between 1 and 10000),
	CONSTRAINT "primary_offerings_days_order" CHECK ("end_day" >= "start_day" and "listing_day" > "end_day")
);
--> statement-breakpoint
CREATE TABLE "auction_bids" (
	"id" serial PRIMARY KEY NOT NULL,
	"bid_no" text NOT NULL,
	"offering_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"price_minor" bigint NOT NULL,
	"lots" integer NOT NULL,
	"deposit_minor" bigint NOT NULL,
	"lots_won" integer DEFAULT 0 NOT NULL,
	"balance_minor" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'bidding' NOT NULL,
	"order_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auction_bids_bid_no_unique" UNIQUE("bid_no"),
	CONSTRAINT "auction_bids_status_check" CHECK ("status" IN ('bidding', 'won', 'lost', 'forfeited', 'delivered')),
	CONSTRAINT "auction_bids_amounts" CHECK ("lots" > 0 and "lots_won" between 0 and "lots" and "deposit_minor" >= 0 and "balance_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "primary_offerings" ADD CONSTRAINT "primary_offerings_symbol_instruments_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "public"."instruments"("symbol") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "primary_offerings" ADD CONSTRAINT "primary_offerings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_offering_id_primary_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."primary_offerings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "primary_offerings_kind_start_idx" ON "primary_offerings" USING btree ("kind","start_day");--> statement-breakpoint
CREATE INDEX "auction_bids_offering_idx" ON "auction_bids" USING btree ("offering_id","id");--> statement-breakpoint
CREATE INDEX "auction_bids_user_idx" ON "auction_bids" USING btree ("user_id","id");
--> statement-breakpoint
CREATE TABLE "primary_applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_no" text NOT NULL,
	"offering_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"price_minor" bigint NOT NULL,
	"lots" integer NOT NULL,
	"amount_minor" bigint NOT NULL,
	"status" text DEFAULT 'pendingReview' NOT NULL,
	"reason" text,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"order_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "primary_applications_application_no_unique" UNIQUE("application_no"),
	CONSTRAINT "primary_applications_status_check" CHECK ("status" IN ('pendingReview', 'approved', 'rejected')),
	CONSTRAINT "primary_applications_amounts" CHECK ("lots" > 0 and "price_minor" > 0 and "amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "block_trade_passwords" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"password_hash" text NOT NULL,
	"fails" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "primary_applications" ADD CONSTRAINT "primary_applications_offering_id_primary_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."primary_offerings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "primary_applications" ADD CONSTRAINT "primary_applications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "primary_applications" ADD CONSTRAINT "primary_applications_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "primary_applications" ADD CONSTRAINT "primary_applications_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "block_trade_passwords" ADD CONSTRAINT "block_trade_passwords_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "primary_applications_offering_idx" ON "primary_applications" USING btree ("offering_id","id");--> statement-breakpoint
CREATE INDEX "primary_applications_user_idx" ON "primary_applications" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "primary_applications_status_idx" ON "primary_applications" USING btree ("status","id");
