-- Sessions end after a period without requests (server/modules/auth/sessions.ts): when the
-- session was last used, written at most once a minute.
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Devices a member or operator has logged in from (server/modules/auth/devices.ts): only the
-- sha256 of the random token handed to the device is kept. A known device logs in past the
-- throttle of the addresses and of the account as a whole (server/modules/auth/throttle.ts).
CREATE TABLE "known_devices" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "known_devices_user_idx" ON "known_devices" ("user_id");
