CREATE TABLE "day_trade_applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"granted_by" text,
	"reason" text,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"order_id" integer,
	"kind" text NOT NULL,
	"ratio_bps" integer,
	"price_minor" bigint,
	"detail" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "time_in_force" text DEFAULT 'ROD' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "entry_session" text DEFAULT 'regular' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "day_trade" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "close_reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "trade_date" date;--> statement-breakpoint
ALTER TABLE "day_trade_applications" ADD CONSTRAINT "day_trade_applications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "day_trade_applications" ADD CONSTRAINT "day_trade_applications_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_events" ADD CONSTRAINT "risk_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_events" ADD CONSTRAINT "risk_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "day_trade_apps_user_idx" ON "day_trade_applications" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "day_trade_apps_one_open_uq" ON "day_trade_applications" USING btree ("user_id") WHERE "day_trade_applications"."status" in ('pending', 'approved');--> statement-breakpoint
CREATE INDEX "risk_events_user_idx" ON "risk_events" USING btree ("user_id","id");