-- Corporate actions on open positions (contract/corporate-actions.ts; server/modules/corporate-actions).
-- orders.open_value_minor: a position's cost, Σ fill price × shares, from which every P&L is
-- computed; a split changes the shares and keeps it. Filled rows are backfilled with
-- open_price_minor × shares (every fill so far was one price for the whole order).
-- corporate_action_runs: one row per (instrument, clock session, kind) whose instrument-wide part
-- (the lending quota) is done. corporate_action_adjustments: one row per (order, session, kind)
-- adjusted, unique, so a second run or a restart changes nothing twice.
ALTER TABLE "orders" ADD COLUMN "open_value_minor" bigint;
--> statement-breakpoint
UPDATE "orders" SET "open_value_minor" = "open_price_minor" * "shares" WHERE "open_price_minor" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_close_reason_check";
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_close_reason_check" CHECK ("close_reason" IN ('user', 'liquidation', 'dayTradeClose', 'ioc', 'fok', 'expired', 'insufficientFunds', 'copyMentorClosed', 'copyStopLoss', 'copyFollowEnded', 'corporateAction'));
--> statement-breakpoint
ALTER TABLE "member_notices" DROP CONSTRAINT "member_notices_kind_check";
--> statement-breakpoint
ALTER TABLE "member_notices" ADD CONSTRAINT "member_notices_kind_check" CHECK ("kind" IN ('marginCall', 'forcedSale', 'ipoWon', 'ipoNotWon', 'kycApproved', 'kycRejected', 'depositApproved', 'depositRejected', 'withdrawalApproved', 'withdrawalRejected', 'dayTradeApproved', 'dayTradeRejected', 'copySkipped', 'positionAdjusted', 'orderAdjusted', 'orderCancelledByAction', 'exRightsSettled'));
--> statement-breakpoint
CREATE TABLE "corporate_action_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"session" integer NOT NULL,
	"action_date" date NOT NULL,
	"kind" text NOT NULL,
	"old_shares" integer,
	"new_shares" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "corporate_action_runs_kind_check" CHECK ("corporate_action_runs"."kind" in ('split', 'windowRestart', 'exRights'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "corporate_action_runs_once_uq" ON "corporate_action_runs" USING btree ("symbol","session","kind");
--> statement-breakpoint
CREATE TABLE "corporate_action_adjustments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"session" integer NOT NULL,
	"action_date" date NOT NULL,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"outcome" text NOT NULL,
	"old_shares" integer,
	"new_shares" integer,
	"shares_before" integer NOT NULL,
	"shares_after" integer NOT NULL,
	"open_value_before_minor" bigint,
	"open_value_after_minor" bigint,
	"limit_before_minor" bigint,
	"limit_after_minor" bigint,
	"cash_minor" bigint DEFAULT 0 NOT NULL,
	"ledger_transaction_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "corporate_action_adjustments_kind_check" CHECK ("corporate_action_adjustments"."kind" in ('split', 'windowRestart', 'exRights')),
	CONSTRAINT "corporate_action_adjustments_target_check" CHECK ("corporate_action_adjustments"."target" in ('position', 'order')),
	CONSTRAINT "corporate_action_adjustments_outcome_check" CHECK ("corporate_action_adjustments"."outcome" in ('adjusted', 'cancelled', 'settled', 'paidOut'))
);
--> statement-breakpoint
ALTER TABLE "corporate_action_adjustments" ADD CONSTRAINT "corporate_action_adjustments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "corporate_action_adjustments" ADD CONSTRAINT "corporate_action_adjustments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "corporate_action_adjustments_once_uq" ON "corporate_action_adjustments" USING btree ("order_id","session","kind");
--> statement-breakpoint
CREATE INDEX "corporate_action_adjustments_user_idx" ON "corporate_action_adjustments" USING btree ("user_id","id");
