-- Search history (issue 14, contract/search.ts): a member's opened search results, one row per
-- member and instrument; opening it again moves opened_at forward (the member's list is ordered
-- by it, newest first). Hot searches count the members per instrument whose opened_at lies in the
-- window (search_history_opened_idx). A member clears their history by deleting their rows.
-- No state columns.
CREATE TABLE "search_history" (
	"user_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	CONSTRAINT "search_history_user_id_symbol_pk" PRIMARY KEY("user_id","symbol")
);
--> statement-breakpoint
ALTER TABLE "search_history" ADD CONSTRAINT "search_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_history" ADD CONSTRAINT "search_history_symbol_instruments_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "public"."instruments"("symbol") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_history_user_opened_idx" ON "search_history" USING btree ("user_id","opened_at");--> statement-breakpoint
CREATE INDEX "search_history_opened_idx" ON "search_history" USING btree ("opened_at");
