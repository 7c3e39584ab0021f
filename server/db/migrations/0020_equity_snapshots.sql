-- Asset overview (contract/wallet.ts, server/modules/wallet): one row per member, trading date and
-- currency, taken at each trading day's close (the closing call's match). The kinds are the
-- member's ledger balances in that currency at the snapshot (available, frozen, margin, debt and
-- every other member account summed in other_minor), unrealised P&L marks the open positions to
-- the closing prices (TWD only), total_minor is their sum, and value_twd_minor the total valued in
-- TWD at the operator rate of that moment (null when the currency had no rate). A replay that
-- starts its window over reaches a date again: the newer snapshot replaces the older one.
CREATE TABLE "equity_snapshots" (
	"user_id" integer NOT NULL,
	"trade_date" date NOT NULL,
	"currency" text NOT NULL,
	"available_minor" bigint NOT NULL,
	"frozen_minor" bigint NOT NULL,
	"margin_minor" bigint NOT NULL,
	"debt_minor" bigint NOT NULL,
	"other_minor" bigint NOT NULL,
	"unrealised_minor" bigint NOT NULL,
	"total_minor" bigint NOT NULL,
	"value_twd_minor" bigint,
	"taken_at" timestamp with time zone NOT NULL,
	CONSTRAINT "equity_snapshots_pk" PRIMARY KEY("user_id","trade_date","currency"),
	CONSTRAINT "equity_snapshots_total" CHECK ("equity_snapshots"."total_minor" = "equity_snapshots"."available_minor" + "equity_snapshots"."frozen_minor" + "equity_snapshots"."margin_minor" + "equity_snapshots"."debt_minor" + "equity_snapshots"."other_minor" + "equity_snapshots"."unrealised_minor")
);
--> statement-breakpoint
ALTER TABLE "equity_snapshots" ADD CONSTRAINT "equity_snapshots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "equity_snapshots_date_idx" ON "equity_snapshots" USING btree ("trade_date");
