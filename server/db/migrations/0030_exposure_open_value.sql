-- position_exposures (migration 0024) sums each position's open value (orders.open_value_minor,
-- migration 0025: Σ fill price × shares, kept through corporate actions) instead of open price ×
-- shares, which a split changes; the table is rebuilt from the orders.
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
DELETE FROM position_exposures;--> statement-breakpoint
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
