-- Bank cards name Taiwan banks the Taiwan way: a 3-digit bank code (金融機構代號, contract/banks.ts)
-- and a 4-digit branch code (分行代號); the UPI / IFSC code is asked only for an account outside
-- Taiwan (docs/adr/0039-bank-cards-taiwan-codes.md).
-- Existing cards keep working: a 7-digit branch code (FISC's bank + branch form) is split into its
-- bank code and branch code, a 3-digit one was the bank code alone; any other branch code stays
-- as typed with no bank code. Their UPI stays as it was bound; they are Taiwan accounts.
ALTER TABLE "bank_cards" ADD COLUMN "outside_taiwan" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bank_cards" ADD COLUMN "bank_code" text;--> statement-breakpoint
ALTER TABLE "bank_cards" ALTER COLUMN "branch_code" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "bank_cards" ALTER COLUMN "upi" DROP NOT NULL;--> statement-breakpoint
UPDATE "bank_cards" SET "bank_code" = substr("branch_code", 1, 3), "branch_code" = substr("branch_code", 4, 4)
  WHERE "branch_code" ~ '^[0-9]{7}$';--> statement-breakpoint
UPDATE "bank_cards" SET "bank_code" = "branch_code", "branch_code" = NULL
  WHERE "branch_code" ~ '^[0-9]{3}$';--> statement-breakpoint
ALTER TABLE "bank_cards" ADD CONSTRAINT "bank_cards_bank_code_check" CHECK ("bank_cards"."bank_code" ~ '^[0-9]{3}$');--> statement-breakpoint
ALTER TABLE "bank_cards" ADD CONSTRAINT "bank_cards_outside_taiwan_upi_check" CHECK (not "bank_cards"."outside_taiwan" or "bank_cards"."upi" is not null);
