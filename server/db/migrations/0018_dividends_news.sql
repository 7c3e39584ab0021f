-- Dividends and news (contract/dividends.ts, contract/news.ts; server/modules/dividends, news).
-- ex_rights_events: the exchanges' ex-rights/ex-dividend events of the replay window, imported from
-- full-market/ex_rights_2025-04-01_2025-07-22.csv (server/db/import.ts importExRightsEvents); the
-- cash dividend is kept exactly in millionths of a NT$ per share (the file has up to 6 decimals).
-- dividend_credits: one row per (position, replayed ex-date session) credited or charged, unique,
-- so a restart or a second run never pays twice; its ledger transaction is written with it.
-- news_articles / news_instruments: operator articles and the generated items (ex-dividend
-- notices, public subscriptions, the day's market summary), unique per source_key.
CREATE TABLE "ex_rights_events" (
	"symbol" text NOT NULL,
	"ex_date" date NOT NULL,
	"name" text NOT NULL,
	"market" text NOT NULL,
	"close_before_minor" bigint NOT NULL,
	"reference_minor" bigint NOT NULL,
	"cash_dividend_micros" bigint,
	"stock_dividend_ratio" text,
	"kind_zh" text NOT NULL,
	CONSTRAINT "ex_rights_events_symbol_ex_date_pk" PRIMARY KEY("symbol","ex_date"),
	CONSTRAINT "ex_rights_events_cash_non_negative" CHECK ("ex_rights_events"."cash_dividend_micros" is null or "ex_rights_events"."cash_dividend_micros" >= 0)
);
--> statement-breakpoint
CREATE INDEX "ex_rights_events_date_idx" ON "ex_rights_events" USING btree ("ex_date");
--> statement-breakpoint
CREATE TABLE "dividend_credits" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"ex_date" date NOT NULL,
	"ex_day" integer NOT NULL,
	"side" text NOT NULL,
	"shares" integer NOT NULL,
	"cash_dividend_micros" bigint NOT NULL,
	"amount_minor" bigint NOT NULL,
	"ledger_transaction_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dividend_credits_side_check" CHECK ("dividend_credits"."side" in ('long', 'short'))
);
--> statement-breakpoint
ALTER TABLE "dividend_credits" ADD CONSTRAINT "dividend_credits_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "dividend_credits" ADD CONSTRAINT "dividend_credits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "dividend_credits_once_uq" ON "dividend_credits" USING btree ("order_id","ex_day");
--> statement-breakpoint
CREATE INDEX "dividend_credits_user_idx" ON "dividend_credits" USING btree ("user_id","id");
--> statement-breakpoint
CREATE TABLE "news_articles" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'published' NOT NULL,
	"source_key" text,
	"title_tw" text NOT NULL,
	"title_en" text NOT NULL,
	"body_tw" text NOT NULL,
	"body_en" text NOT NULL,
	"cover_upload_id" text,
	"replay_date" date,
	"created_by" integer,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "news_articles_kind_check" CHECK ("news_articles"."kind" in ('operator', 'exDividend', 'ipo', 'marketSummary')),
	CONSTRAINT "news_articles_status_check" CHECK ("news_articles"."status" in ('published', 'withdrawn'))
);
--> statement-breakpoint
ALTER TABLE "news_articles" ADD CONSTRAINT "news_articles_cover_upload_id_uploads_id_fk" FOREIGN KEY ("cover_upload_id") REFERENCES "public"."uploads"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "news_articles" ADD CONSTRAINT "news_articles_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "news_articles_source_key_uq" ON "news_articles" USING btree ("source_key") WHERE "news_articles"."source_key" is not null;
--> statement-breakpoint
CREATE INDEX "news_articles_published_idx" ON "news_articles" USING btree ("status","published_at","id");
--> statement-breakpoint
CREATE TABLE "news_instruments" (
	"article_id" integer NOT NULL,
	"symbol" text NOT NULL,
	CONSTRAINT "news_instruments_article_id_symbol_pk" PRIMARY KEY("article_id","symbol")
);
--> statement-breakpoint
ALTER TABLE "news_instruments" ADD CONSTRAINT "news_instruments_article_id_news_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."news_articles"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "news_instruments_symbol_idx" ON "news_instruments" USING btree ("symbol","article_id");
--> statement-breakpoint
ALTER TABLE "uploads" DROP CONSTRAINT "uploads_purpose_check";
--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_purpose_check" CHECK ("uploads"."purpose" in ('kycFront', 'kycBack', 'receipt', 'newsCover'));
