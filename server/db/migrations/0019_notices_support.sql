-- Notices (contract/notices.ts, server/modules/notices): operator announcements in tw and en with
-- per-member reads, and account notices (kind + params, worded by the client) written in the
-- same transaction as the event. Customer service (contract/support.ts, server/modules/support):
-- one conversation per member with unread counts on both sides, and its messages (text or a
-- `support` upload).
CREATE TABLE "notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"title_tw" text NOT NULL,
	"title_en" text NOT NULL,
	"body_tw" text NOT NULL,
	"body_en" text NOT NULL,
	"published_at" timestamp with time zone,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "users"("id")
);
--> statement-breakpoint
CREATE INDEX "notices_published_idx" ON "notices" ("published_at");
--> statement-breakpoint
CREATE TABLE "notice_reads" (
	"notice_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_reads_pk" PRIMARY KEY ("notice_id", "user_id"),
	CONSTRAINT "notice_reads_notice_id_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "notices"("id"),
	CONSTRAINT "notice_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id")
);
--> statement-breakpoint
CREATE INDEX "notice_reads_user_idx" ON "notice_reads" ("user_id");
--> statement-breakpoint
CREATE TABLE "member_notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"params" text NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id"),
	CONSTRAINT "member_notices_kind_check" CHECK ("kind" IN ('marginCall', 'ipoWon', 'ipoNotWon', 'kycApproved', 'kycRejected', 'depositApproved', 'depositRejected', 'withdrawalApproved', 'withdrawalRejected', 'dayTradeApproved', 'dayTradeRejected'))
);
--> statement-breakpoint
CREATE INDEX "member_notices_user_idx" ON "member_notices" ("user_id", "id");
--> statement-breakpoint
CREATE TABLE "support_conversations" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"assigned_to" integer,
	"member_unread" integer DEFAULT 0 NOT NULL,
	"operator_unread" integer DEFAULT 0 NOT NULL,
	"last_message_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_conversations_user_uq" UNIQUE ("user_id"),
	CONSTRAINT "support_conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id"),
	CONSTRAINT "support_conversations_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "users"("id"),
	CONSTRAINT "support_conversations_status_check" CHECK ("status" IN ('open', 'resolved')),
	CONSTRAINT "support_conversations_unread_check" CHECK ("member_unread" >= 0 and "operator_unread" >= 0)
);
--> statement-breakpoint
CREATE INDEX "support_conversations_status_idx" ON "support_conversations" ("status", "last_message_at");
--> statement-breakpoint
CREATE TABLE "support_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"conversation_id" integer NOT NULL,
	"sender" text NOT NULL,
	"author_id" integer NOT NULL,
	"text" text,
	"upload_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_messages_conversation_id_support_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "support_conversations"("id"),
	CONSTRAINT "support_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "users"("id"),
	CONSTRAINT "support_messages_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "uploads"("id"),
	CONSTRAINT "support_messages_sender_check" CHECK ("sender" IN ('member', 'operator')),
	CONSTRAINT "support_messages_content_check" CHECK ("text" IS NOT NULL OR "upload_id" IS NOT NULL)
);
--> statement-breakpoint
CREATE INDEX "support_messages_conversation_idx" ON "support_messages" ("conversation_id", "id");
--> statement-breakpoint
ALTER TABLE "uploads" DROP CONSTRAINT "uploads_purpose_check";
--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_purpose_check" CHECK ("purpose" IN ('kycFront', 'kycBack', 'receipt', 'newsCover', 'support'));
