-- Copy trading's pools (server/modules/copy-trading/settlement.ts): each copy's cash flows,
-- realised P&L and profit share, settled in the transaction that closes it; a follow's realised
-- P&L and running profit share; true close reasons for copies and their orders; the skip notice.
ALTER TABLE "follows" ADD COLUMN "realised_minor" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE "follows" SET "profit_share_minor" = 0 WHERE "profit_share_minor" IS NULL;
--> statement-breakpoint
ALTER TABLE "follows" ALTER COLUMN "profit_share_minor" SET DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "follows" ALTER COLUMN "profit_share_minor" SET NOT NULL;
--> statement-breakpoint
-- A running follow's realised P&L so far: its cash less the amount, plus what its open copies
-- took from it (cash = amount + realised − profit share − open copies' cost).
UPDATE "follows" f SET "realised_minor" = f."cash_minor" - f."amount_minor" + coalesce((
	SELECT sum(o."margin_minor" + o."open_fee_minor" + o."open_tax_minor")
	FROM "follow_copies" c JOIN "orders" o ON o."id" = c."order_id"
	WHERE c."follow_id" = f."id" AND c."status" = 'open'), 0)
WHERE f."status" = 'following';
--> statement-breakpoint
ALTER TABLE "follow_copies" ADD COLUMN "refusal" text;
--> statement-breakpoint
ALTER TABLE "follow_copies" ADD COLUMN "cash_flow_minor" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "follow_copies" ADD COLUMN "pnl_minor" bigint;
--> statement-breakpoint
ALTER TABLE "follow_copies" ADD COLUMN "profit_share_minor" bigint;
--> statement-breakpoint
CREATE INDEX "follow_copies_order_idx" ON "follow_copies" ("order_id");
--> statement-breakpoint
ALTER TABLE "follow_copies" DROP CONSTRAINT "follow_copies_reason_check";
--> statement-breakpoint
-- A copy settled as closed outside copy trading gets the reason its order was closed with.
UPDATE "follow_copies" c SET "reason" = CASE o."close_reason"
	WHEN 'liquidation' THEN 'liquidation' WHEN 'dayTradeClose' THEN 'dayTradeClose' ELSE 'follower' END
FROM "orders" o WHERE o."id" = c."order_id" AND c."reason" = 'closedElsewhere';
--> statement-breakpoint
ALTER TABLE "follow_copies" ADD CONSTRAINT "follow_copies_reason_check" CHECK ("follow_copies"."reason" in ('zeroLots', 'margin', 'refused', 'paused', 'mentorClosed', 'stopLoss', 'followStopped', 'mentorClosedFirst', 'follower', 'liquidation', 'dayTradeClose'));
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_close_reason_check";
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_close_reason_check" CHECK ("close_reason" IN ('user', 'liquidation', 'dayTradeClose', 'ioc', 'fok', 'expired', 'insufficientFunds', 'copyMentorClosed', 'copyStopLoss', 'copyFollowEnded', 'corporateAction'));
--> statement-breakpoint
-- Copies copy trading closed itself were recorded as closed by the member ('user').
UPDATE "orders" o SET "close_reason" = CASE c."reason"
	WHEN 'mentorClosed' THEN 'copyMentorClosed' WHEN 'stopLoss' THEN 'copyStopLoss' ELSE 'copyFollowEnded' END
FROM "follow_copies" c
WHERE c."order_id" = o."id" AND c."reason" IN ('mentorClosed', 'stopLoss', 'followStopped') AND o."close_reason" = 'user';
--> statement-breakpoint
ALTER TABLE "member_notices" DROP CONSTRAINT "member_notices_kind_check";
--> statement-breakpoint
ALTER TABLE "member_notices" ADD CONSTRAINT "member_notices_kind_check" CHECK ("kind" IN ('marginCall', 'forcedSale', 'ipoWon', 'ipoNotWon', 'kycApproved', 'kycRejected', 'depositApproved', 'depositRejected', 'withdrawalApproved', 'withdrawalRejected', 'dayTradeApproved', 'dayTradeRejected', 'copySkipped', 'positionAdjusted', 'orderAdjusted', 'orderCancelledByAction', 'exRightsSettled'));
