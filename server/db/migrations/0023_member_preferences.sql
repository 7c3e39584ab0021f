-- Member preferences: the confirmation threshold in TWD minor units (contract/account.ts
-- preferencesSchema); a member without a row has the defaults.
CREATE TABLE "member_preferences" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"confirm_above_minor" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_preferences_confirm_above_check" CHECK ("member_preferences"."confirm_above_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "member_preferences" ADD CONSTRAINT "member_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
