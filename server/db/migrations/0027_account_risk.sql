-- The account risk model (docs/adr/0001-account-risk-model.md, contract/risk.ts).
-- * orders.follow_id: the copy-trading follow whose cash backs the position (its risk pool); NULL:
--   the member's own pool. Set when a copy opens (trading engine openAtMarket).
-- * position_exposures: per member, pool, instrument, side and kind (cash holding = a long at
--   1×), the open positions and the resting orders summed. Kept by the trigger below in the same
--   statement as every write to orders, so order entry's whole-account check and the risk
--   monitor read a few rows instead of every open order. open_value is orders.open_value_minor
--   (Σ fill price × shares, kept through corporate actions, migration 0025).
--   server/modules/risk/exposures.ts exposureDrift recomputes it from orders (tests, ledger:check).
ALTER TABLE "orders" ADD COLUMN "follow_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_follow_id_follows_id_fk" FOREIGN KEY ("follow_id") REFERENCES "public"."follows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
UPDATE "orders" SET "follow_id" = c."follow_id" FROM "follow_copies" c WHERE c."order_id" = "orders"."id";--> statement-breakpoint
CREATE TABLE "position_exposures" (
	"user_id" integer NOT NULL,
	"pool" integer NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"cash" boolean NOT NULL,
	"open_count" integer DEFAULT 0 NOT NULL,
	"open_shares" bigint DEFAULT 0 NOT NULL,
	"open_value_minor" bigint DEFAULT 0 NOT NULL,
	"open_margin_minor" bigint DEFAULT 0 NOT NULL,
	"resting_count" integer DEFAULT 0 NOT NULL,
	"resting_frozen_minor" bigint DEFAULT 0 NOT NULL,
	"resting_margin_minor" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "position_exposures_pk" PRIMARY KEY ("user_id", "pool", "symbol", "side", "cash"),
	CONSTRAINT "position_exposures_side_check" CHECK ("side" IN ('long', 'short'))
);--> statement-breakpoint
CREATE OR REPLACE FUNCTION position_exposure_add(
  p_user integer, p_pool integer, p_symbol text, p_side text, p_cash boolean,
  d_open integer, d_shares bigint, d_value bigint, d_margin bigint,
  d_resting integer, d_frozen bigint, d_resting_margin bigint
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO position_exposures AS e (user_id, pool, symbol, side, cash, open_count, open_shares,
    open_value_minor, open_margin_minor, resting_count, resting_frozen_minor, resting_margin_minor)
  VALUES (p_user, p_pool, p_symbol, p_side, p_cash, d_open, d_shares, d_value, d_margin,
    d_resting, d_frozen, d_resting_margin)
  ON CONFLICT (user_id, pool, symbol, side, cash) DO UPDATE SET
    open_count = e.open_count + excluded.open_count,
    open_shares = e.open_shares + excluded.open_shares,
    open_value_minor = e.open_value_minor + excluded.open_value_minor,
    open_margin_minor = e.open_margin_minor + excluded.open_margin_minor,
    resting_count = e.resting_count + excluded.resting_count,
    resting_frozen_minor = e.resting_frozen_minor + excluded.resting_frozen_minor,
    resting_margin_minor = e.resting_margin_minor + excluded.resting_margin_minor;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_position_exposure() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  o_open boolean := false;
  o_rest boolean := false;
  n_open boolean := false;
  n_rest boolean := false;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    o_open := OLD.status IN ('holding', 'closing') AND OLD.open_value_minor IS NOT NULL;
    o_rest := OLD.status = 'pending';
  END IF;
  IF TG_OP <> 'DELETE' THEN
    n_open := NEW.status IN ('holding', 'closing') AND NEW.open_value_minor IS NOT NULL;
    n_rest := NEW.status = 'pending';
  END IF;
  IF TG_OP = 'UPDATE' AND o_open = n_open AND o_rest = n_rest
     AND OLD.shares = NEW.shares AND OLD.leverage = NEW.leverage
     AND OLD.open_value_minor IS NOT DISTINCT FROM NEW.open_value_minor
     AND OLD.margin_minor = NEW.margin_minor AND OLD.frozen_minor = NEW.frozen_minor
     AND OLD.follow_id IS NOT DISTINCT FROM NEW.follow_id THEN
    RETURN NULL;
  END IF;
  IF o_open OR o_rest THEN
    PERFORM position_exposure_add(OLD.user_id, coalesce(OLD.follow_id, 0), OLD.symbol, OLD.side,
      OLD.side = 'long' AND OLD.leverage = 1,
      CASE WHEN o_open THEN -1 ELSE 0 END,
      CASE WHEN o_open THEN -OLD.shares::bigint ELSE 0 END,
      CASE WHEN o_open THEN -(OLD.open_value_minor) ELSE 0 END,
      CASE WHEN o_open THEN -OLD.margin_minor ELSE 0 END,
      CASE WHEN o_rest THEN -1 ELSE 0 END,
      CASE WHEN o_rest THEN -OLD.frozen_minor ELSE 0 END,
      CASE WHEN o_rest THEN -OLD.margin_minor ELSE 0 END);
  END IF;
  IF n_open OR n_rest THEN
    PERFORM position_exposure_add(NEW.user_id, coalesce(NEW.follow_id, 0), NEW.symbol, NEW.side,
      NEW.side = 'long' AND NEW.leverage = 1,
      CASE WHEN n_open THEN 1 ELSE 0 END,
      CASE WHEN n_open THEN NEW.shares::bigint ELSE 0 END,
      CASE WHEN n_open THEN NEW.open_value_minor ELSE 0 END,
      CASE WHEN n_open THEN NEW.margin_minor ELSE 0 END,
      CASE WHEN n_rest THEN 1 ELSE 0 END,
      CASE WHEN n_rest THEN NEW.frozen_minor ELSE 0 END,
      CASE WHEN n_rest THEN NEW.margin_minor ELSE 0 END);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "orders_position_exposure" AFTER INSERT OR UPDATE OR DELETE ON "orders"
  FOR EACH ROW EXECUTE FUNCTION orders_position_exposure();--> statement-breakpoint
INSERT INTO position_exposures (user_id, pool, symbol, side, cash, open_count, open_shares,
  open_value_minor, open_margin_minor, resting_count, resting_frozen_minor, resting_margin_minor)
SELECT user_id, coalesce(follow_id, 0), symbol, side, side = 'long' AND leverage = 1,
  count(*) FILTER (WHERE status <> 'pending'),
  coalesce(sum(shares) FILTER (WHERE status <> 'pending'), 0),
  coalesce(sum(open_value_minor) FILTER (WHERE status <> 'pending'), 0),
  coalesce(sum(margin_minor) FILTER (WHERE status <> 'pending'), 0),
  count(*) FILTER (WHERE status = 'pending'),
  coalesce(sum(frozen_minor) FILTER (WHERE status = 'pending'), 0),
  coalesce(sum(margin_minor) FILTER (WHERE status = 'pending'), 0)
FROM orders
WHERE status = 'pending' OR (status IN ('holding', 'closing') AND open_value_minor IS NOT NULL)
GROUP BY user_id, coalesce(follow_id, 0), symbol, side, side = 'long' AND leverage = 1;
--> statement-breakpoint
ALTER TABLE "member_notices" DROP CONSTRAINT "member_notices_kind_check";--> statement-breakpoint
ALTER TABLE "member_notices" ADD CONSTRAINT "member_notices_kind_check" CHECK ("kind" IN ('marginCall', 'forcedSale', 'ipoWon', 'ipoNotWon', 'kycApproved', 'kycRejected', 'depositApproved', 'depositRejected', 'withdrawalApproved', 'withdrawalRejected', 'dayTradeApproved', 'dayTradeRejected', 'copySkipped', 'positionAdjusted', 'orderAdjusted', 'orderCancelledByAction', 'exRightsSettled'));
