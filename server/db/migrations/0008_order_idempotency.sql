-- Orders are retry-safe: the member's idempotency key (the `idempotency-key` header of
-- trade/placeOrder and dayTrade/placeOrder) is written into the order row by the same INSERT that
-- opens the position or rests the order (trading open-lanes.ts writes many members' orders in one
-- statement), so the key commits together with the position and its ledger postings. The partial
-- unique index makes a second order with the same (member, key) impossible: a retry, even one
-- running at the same moment as the first request, fails its insert and is answered with the
-- order already placed. `request_sha256` (sha256 of the endpoint and validated body) tells a
-- retry from a different order sent with a reused key (keyMismatch). Orders from before, and those
-- placed by the engine itself, have no key: NULLs take no index entry.
ALTER TABLE "orders" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "request_sha256" text;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_idempotency_key_uq" ON "orders" USING btree ("user_id","idempotency_key") WHERE "orders"."idempotency_key" is not null;
