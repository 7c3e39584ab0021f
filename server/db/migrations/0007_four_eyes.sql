-- Four eyes on money: receipts are matched by the content the member sent.
-- * uploads.received_sha256: sha256 (hex) of the bytes as received, before any re-encoding, so
--   the same file sent twice has the same hash whatever the server stores. Rows written before
--   this column hold the same value in "sha256" (computed from the received bytes).
-- * deposits.receipt_sha256: the receipt's received_sha256, copied when the deposit is requested
--   (a receipt upload never changes), so the checks below need no join.
-- * deposits_member_receipt_uq: one live (pending or approved) deposit per member and receipt
--   content; the database refuses the second one even when two requests race. A rejected deposit
--   credited nothing, so its receipt may be submitted again.
-- * deposits_receipt_sha256_idx: finds other members' deposits with the same receipt, which the
--   operator's queue flags.
-- Existing live duplicates of one member keep the hash on the oldest row only, so the unique
-- index can be built on any existing data.
ALTER TABLE "uploads" ADD COLUMN "received_sha256" text;--> statement-breakpoint
UPDATE "uploads" SET "received_sha256" = "sha256";--> statement-breakpoint
ALTER TABLE "uploads" ALTER COLUMN "received_sha256" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "receipt_sha256" text;--> statement-breakpoint
UPDATE "deposits" SET "receipt_sha256" = "uploads"."received_sha256" FROM "uploads" WHERE "uploads"."id" = "deposits"."receipt_upload_id";--> statement-breakpoint
UPDATE "deposits" SET "receipt_sha256" = NULL WHERE "deposits"."status" <> 'rejected' AND EXISTS (SELECT 1 FROM "deposits" "older" WHERE "older"."user_id" = "deposits"."user_id" AND "older"."receipt_sha256" = "deposits"."receipt_sha256" AND "older"."status" <> 'rejected' AND "older"."id" < "deposits"."id");--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_member_receipt_uq" ON "deposits" USING btree ("user_id","receipt_sha256") WHERE "deposits"."status" <> 'rejected';--> statement-breakpoint
CREATE INDEX "deposits_receipt_sha256_idx" ON "deposits" USING btree ("receipt_sha256");
