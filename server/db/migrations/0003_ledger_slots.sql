DROP INDEX "ledger_accounts_owner_uq";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "slot" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_owner_uq" ON "ledger_accounts" USING btree (coalesce("user_id", 0),"currency","purpose","slot");