-- A position's cost (contract/market-rules.ts closeResult, unrealisedPnlMinor).
-- orders.open_value_minor: Σ fill price × shares, from which every P&L is computed; filled rows
-- are backfilled with open_price_minor × shares (every fill so far was one price for the whole
-- order).
ALTER TABLE "orders" ADD COLUMN "open_value_minor" bigint;
--> statement-breakpoint
UPDATE "orders" SET "open_value_minor" = "open_price_minor" * "shares" WHERE "open_price_minor" IS NOT NULL;
