-- Copy trading (contract/copy-trading.ts, server/modules/copy-trading): mentor applications and
-- approved mentors, follows (the allocated cash lives in the member's `follow` ledger account,
-- created on first use), and one row per mentor order mirrored or skipped for a follow, unique per
-- (mentor order, follow) so a retried mirror never opens a second copy. State columns carry a CHECK
-- with their contract list (tests/integration/state-enums.test.ts).
CREATE TABLE "mentors" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'review' NOT NULL,
	"min_follow_minor" bigint NOT NULL,
	"profit_share_bps" integer NOT NULL,
	"reason" text,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mentors_status_check" CHECK ("mentors"."status" in ('review', 'approved', 'rejected')),
	CONSTRAINT "mentors_profit_share_range" CHECK ("mentors"."profit_share_bps" between 0 and 10000),
	CONSTRAINT "mentors_min_follow_positive" CHECK ("mentors"."min_follow_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "follows" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"mentor_id" integer NOT NULL,
	"status" text NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"amount_minor" bigint NOT NULL,
	"cash_minor" bigint NOT NULL,
	"high_water_minor" bigint NOT NULL,
	"stop_loss_bps" integer NOT NULL,
	"since_order_id" integer NOT NULL,
	"deadline_at" timestamp with time zone NOT NULL,
	"returned_minor" bigint,
	"profit_share_minor" bigint,
	"end_reason" text,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "follows_status_check" CHECK ("follows"."status" in ('review', 'following', 'ended', 'cancelled', 'rejected')),
	CONSTRAINT "follows_end_reason_check" CHECK ("follows"."end_reason" in ('member', 'deadline', 'operator')),
	CONSTRAINT "follows_cash_non_negative" CHECK ("follows"."cash_minor" >= 0),
	CONSTRAINT "follows_stop_loss_range" CHECK ("follows"."stop_loss_bps" between 500 and 9500)
);
--> statement-breakpoint
CREATE TABLE "follow_copies" (
	"id" serial PRIMARY KEY NOT NULL,
	"follow_id" integer NOT NULL,
	"mentor_order_id" integer NOT NULL,
	"order_id" integer,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"mentor_lots" integer NOT NULL,
	"lots" integer NOT NULL,
	"mentor_equity_minor" bigint NOT NULL,
	"allocation_minor" bigint NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "follow_copies_status_check" CHECK ("follow_copies"."status" in ('open', 'closed', 'skipped')),
	CONSTRAINT "follow_copies_side_check" CHECK ("follow_copies"."side" in ('long', 'short')),
	CONSTRAINT "follow_copies_reason_check" CHECK ("follow_copies"."reason" in ('zeroLots', 'margin', 'refused', 'paused', 'mentorClosed', 'stopLoss', 'followStopped', 'closedElsewhere', 'mentorClosedFirst'))
);
--> statement-breakpoint
ALTER TABLE "mentors" ADD CONSTRAINT "mentors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentors" ADD CONSTRAINT "mentors_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_mentor_id_mentors_id_fk" FOREIGN KEY ("mentor_id") REFERENCES "public"."mentors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_copies" ADD CONSTRAINT "follow_copies_follow_id_follows_id_fk" FOREIGN KEY ("follow_id") REFERENCES "public"."follows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_copies" ADD CONSTRAINT "follow_copies_mentor_order_id_orders_id_fk" FOREIGN KEY ("mentor_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_copies" ADD CONSTRAINT "follow_copies_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mentors_one_open_uq" ON "mentors" USING btree ("user_id") WHERE "mentors"."status" in ('review', 'approved');--> statement-breakpoint
CREATE INDEX "follows_user_idx" ON "follows" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "follows_mentor_status_idx" ON "follows" USING btree ("mentor_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "follow_copies_mentor_order_follow_uq" ON "follow_copies" USING btree ("mentor_order_id","follow_id");--> statement-breakpoint
CREATE INDEX "follow_copies_follow_idx" ON "follow_copies" USING btree ("follow_id","id");
