-- Secrets of one install, created on first start and never served by any endpoint: the replay's
-- intraday seed (server/market/install-seed.ts) so the replayed paths are not public.
CREATE TABLE "install_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
