-- Login and registration under brute force (docs/adr/0021-login-registration-and-invitations.md).
-- * auth_throttle: the store of rate-limiter-flexible's RateLimiterDrizzle (its expected shape:
--   key, points, expire), one row per limiter key (`login-acct:<account>`, `login-ip:<ip>`, ...).
--   Kept in our own database so one code path throttles on embedded PGlite and on PostgreSQL, and
--   every server process behind one PostgreSQL sees the same counters.
-- * invitation_codes: an owner (created_by: the operator or member who issued the code), a use
--   limit, a use count and an expiry; an operator may disable a code. Codes from before get the
--   first operator as owner, the registrations already made as uses, a limit of at least 1000
--   and one year from now.
CREATE TABLE "auth_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer NOT NULL,
	"expire" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "auth_throttle_expire_idx" ON "auth_throttle" USING btree ("expire");--> statement-breakpoint
ALTER TABLE "invitation_codes" ADD COLUMN "max_uses" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "invitation_codes" ADD COLUMN "uses" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invitation_codes" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invitation_codes" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
UPDATE "invitation_codes" c SET
	"uses" = (SELECT count(*) FROM "users" u WHERE u."invite_code" = c."code"),
	"max_uses" = greatest(1000, (SELECT count(*) FROM "users" u WHERE u."invite_code" = c."code")),
	"expires_at" = now() + interval '365 days',
	"created_by" = coalesce(c."created_by", (SELECT min(u."id") FROM "users" u WHERE u."role" <> 'member'));--> statement-breakpoint
ALTER TABLE "invitation_codes" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "invitation_codes" ADD CONSTRAINT "invitation_codes_uses_check" CHECK ("uses" >= 0 AND "max_uses" > 0 AND "uses" <= "max_uses");--> statement-breakpoint
CREATE INDEX "invitation_codes_created_by_idx" ON "invitation_codes" USING btree ("created_by");
