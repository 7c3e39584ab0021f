-- Receipts are matched by the picture, not the file (server/modules/funds/receipt-fingerprint.ts):
-- * uploads.pixels_sha256: sha256 of a receipt's decoded pixels, uploads.phash: its 256-bit
--   perceptual hash (64 hex characters); null for other purposes and for receipts stored before.
-- * deposits.receipt_sha256 now holds the receipt's pixels_sha256 (received_sha256 for a receipt
--   stored before this migration), so deposits_member_receipt_uq keeps one live deposit per member
--   and picture, whatever bytes were appended or stripped.
-- * deposits.receipt_phash: the receipt's phash, copied at the request; the console lists other
--   deposits within RECEIPT_NEAR_DISTANCE_MAX bits of it (a re-encoded copy of the same receipt).
ALTER TABLE "uploads" ADD COLUMN "pixels_sha256" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "phash" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_phash_check" CHECK ("phash" IS NULL OR "phash" ~ '^[0-9a-f]{64}$');--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "receipt_phash" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_receipt_phash_check" CHECK ("receipt_phash" IS NULL OR "receipt_phash" ~ '^[0-9a-f]{64}$');
