-- One application per person and offering (docs/tw-market-rules.md "Public subscription: who
-- and how much"): the applicant's verified ID number on each application, unique per offering;
-- and the bidder's on each auction bid, so the 10 % cap sums every account of one person.
-- Older rows keep null (a unique index lets nulls repeat).
ALTER TABLE "ipo_applications" ADD COLUMN "id_number" text;--> statement-breakpoint
CREATE UNIQUE INDEX "ipo_applications_one_per_id_uq" ON "ipo_applications" USING btree ("offering_id","id_number");--> statement-breakpoint
ALTER TABLE "auction_bids" ADD COLUMN "id_number" text;--> statement-breakpoint
CREATE INDEX "auction_bids_person_idx" ON "auction_bids" USING btree ("offering_id","id_number");
