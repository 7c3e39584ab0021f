-- Public-subscription prices placed on the replay (docs/adr/0004-ipo-offers-on-the-replay.md): how the
-- price was set (contract/ipo.ts IPO_PRICINGS), the real announcement's price and the real close
-- its ratio came from, the replayed close the price was set from (and its clock session), and the
-- ratio applied (offer ÷ reference = ratio_num ÷ ratio_den).
ALTER TABLE "ipo_offerings" ADD COLUMN "pricing" text DEFAULT 'asAnnounced' NOT NULL;--> statement-breakpoint
ALTER TABLE "ipo_offerings" ADD COLUMN "announced_price_minor" bigint;--> statement-breakpoint
ALTER TABLE "ipo_offerings" ADD COLUMN "announced_close_minor" bigint;--> statement-breakpoint
ALTER TABLE "ipo_offerings" ADD COLUMN "announced_close_date" date;--> statement-breakpoint
ALTER TABLE "ipo_offerings" ADD COLUMN "reference_minor" bigint;--> statement-breakpoint
ALTER TABLE "ipo_offerings" ADD COLUMN "reference_day" integer;--> statement-breakpoint
ALTER TABLE "ipo_offerings" ADD COLUMN "ratio_num" integer;--> statement-breakpoint
ALTER TABLE "ipo_offerings" ADD COLUMN "ratio_den" integer;--> statement-breakpoint
ALTER TABLE "ipo_offerings" ADD CONSTRAINT "ipo_offerings_pricing_check" CHECK ("pricing" IN ('announcement', 'rule', 'listing', 'asAnnounced'));--> statement-breakpoint
ALTER TABLE "ipo_offerings" ADD CONSTRAINT "ipo_offerings_ratio_check" CHECK (("ratio_num" IS NULL) = ("ratio_den" IS NULL) AND ("ratio_den" IS NULL OR ("ratio_num" > 0 AND "ratio_den" > 0)));--> statement-breakpoint
-- Seeded offerings nobody has applied to and whose steps have not started carry the raw 2026
-- price: dropped here, the runner creates them again priced on the replay. Any other keeps its
-- price (asAnnounced).
DELETE FROM "ipo_draws" WHERE "offering_id" IN (
	SELECT o."id" FROM "ipo_offerings" o
	WHERE o."source" LIKE 'twse:%' AND o."stage" = 'scheduled'
		AND NOT EXISTS (SELECT 1 FROM "ipo_applications" a WHERE a."offering_id" = o."id")
);--> statement-breakpoint
DELETE FROM "ipo_offerings" o
WHERE o."source" LIKE 'twse:%' AND o."stage" = 'scheduled'
	AND NOT EXISTS (SELECT 1 FROM "ipo_applications" a WHERE a."offering_id" = o."id");
