-- Rewards (contract/rewards.ts, server/modules/rewards, docs/levels.md): points balances and their
-- journal, points-code batches and codes (stored as sha256 only), daily sign-ins (one per member
-- and Asia/Taipei day: the primary key), the account-level table with its default rows, fee
-- coupons, and the fee discount recorded on each order (level bps and the coupon used).
CREATE TABLE "points_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL REFERENCES "users"("id"),
	"balance" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "points_accounts_non_negative" CHECK ("balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "points_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"delta" bigint NOT NULL,
	"reason" text NOT NULL,
	"ref_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "points_entries_reason_check" CHECK ("reason" IN ('code', 'signIn', 'couponPurchase'))
);
--> statement-breakpoint
CREATE INDEX "points_entries_user_idx" ON "points_entries" USING btree ("user_id","id");
--> statement-breakpoint
CREATE TABLE "points_code_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"amount" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	"per_member_limit" integer NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" integer REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "points_code_batches_kind_check" CHECK ("kind" IN ('points', 'cash')),
	CONSTRAINT "points_code_batches_positive" CHECK ("amount" > 0 and "count" > 0 and "per_member_limit" > 0)
);
--> statement-breakpoint
CREATE TABLE "points_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_id" integer NOT NULL REFERENCES "points_code_batches"("id"),
	"code_sha256" text NOT NULL,
	"hint" text NOT NULL,
	"redeemed_by" integer REFERENCES "users"("id"),
	"redeemed_at" timestamp with time zone,
	CONSTRAINT "points_codes_code_sha256_unique" UNIQUE("code_sha256")
);
--> statement-breakpoint
CREATE INDEX "points_codes_batch_idx" ON "points_codes" USING btree ("batch_id","redeemed_by");
--> statement-breakpoint
CREATE TABLE "sign_ins" (
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"day" date NOT NULL,
	"points" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_ins_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "account_levels" (
	"level" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"min_assets_minor" bigint DEFAULT 0 NOT NULL,
	"min_volume_30d_minor" bigint DEFAULT 0 NOT NULL,
	"fee_discount_bps" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "account_levels_discount_range" CHECK ("fee_discount_bps" between 0 and 10000)
);
--> statement-breakpoint
-- Default table (docs/levels.md): assets NT$0 / 100k / 1M / 5M and 30-day volume NT$0 / 1M / 10M / 50M.
INSERT INTO "account_levels" ("level", "name", "min_assets_minor", "min_volume_30d_minor", "fee_discount_bps") VALUES
	(0, 'VIP0', 0, 0, 0),
	(1, 'VIP1', 10000000, 100000000, 1000),
	(2, 'VIP2', 100000000, 1000000000, 2000),
	(3, 'VIP3', 500000000, 5000000000, 3500);
--> statement-breakpoint
CREATE TABLE "fee_coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"kind" text NOT NULL,
	"off_minor" bigint DEFAULT 0 NOT NULL,
	"off_bps" integer DEFAULT 0 NOT NULL,
	"source" text NOT NULL,
	"status" text DEFAULT 'available' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"order_no" text,
	"used_at" timestamp with time zone,
	"granted_by" integer REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_coupons_kind_check" CHECK ("kind" IN ('amount', 'bps')),
	CONSTRAINT "fee_coupons_source_check" CHECK ("source" IN ('grant', 'points')),
	CONSTRAINT "fee_coupons_status_check" CHECK ("status" IN ('available', 'used')),
	CONSTRAINT "fee_coupons_terms" CHECK ("off_minor" >= 0 and "off_bps" between 0 and 10000 and ("off_minor" > 0) <> ("off_bps" > 0))
);
--> statement-breakpoint
CREATE INDEX "fee_coupons_user_idx" ON "fee_coupons" USING btree ("user_id","status","id");
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fee_discount_bps" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "coupon_id" integer;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "coupon_bps" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "coupon_off_minor" bigint DEFAULT 0 NOT NULL;
