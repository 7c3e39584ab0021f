-- The whole market (issue 14): every security of the exchanges' daily files becomes an instrument.
-- security_type says what it is (contract/market.ts SECURITY_TYPES); kind stays the trading-rule
-- class (tick table, tax). Existing rows are classified from their code's form, as
-- contract/market.ts securityTypeOf does for new ones. market takes only TWSE, TPEx or SIM (the
-- stress source's synthetic instruments).
ALTER TABLE "instruments" ADD COLUMN "security_type" text DEFAULT 'stock' NOT NULL;
--> statement-breakpoint
UPDATE "instruments" SET "security_type" = CASE
  WHEN "kind" = 'etf' THEN 'etf'
  WHEN "symbol" ~ '^02[0-9]{3}[0-9A-Z][A-Z]?$' THEN 'etn'
  WHEN "symbol" ~ '^01[0-9]{3}T$' THEN 'reit'
  WHEN "symbol" ~ '^91[0-9]{4}$' THEN 'tdr'
  WHEN "symbol" ~ '^00[0-9]{2,4}[A-Z]?$' THEN 'etf'
  WHEN "symbol" ~ '^[0-9]{4}[A-Z]$' THEN 'preferred'
  ELSE 'stock' END;
--> statement-breakpoint
ALTER TABLE "instruments" ADD CONSTRAINT "instruments_security_type_check" CHECK ("security_type" IN ('stock', 'etf', 'etn', 'reit', 'tdr', 'preferred'));
--> statement-breakpoint
ALTER TABLE "instruments" ADD CONSTRAINT "instruments_market_check" CHECK ("market" IN ('TWSE', 'TPEx', 'SIM'));
