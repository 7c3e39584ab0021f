-- Fewer writes per ledger posting (docs/adr/0017-ledger-writes-and-order-lanes.md): measured with
-- pg_waldump during npm run bench:orders, an order wrote 20 index entries and 6 row locks.
-- * The idempotency key's unique index becomes partial: most transactions have no key, and each
--   NULL still cost an index entry.
-- * ledger_postings is keyed by (transaction_id, id), which also serves the lookups by transaction,
--   so its separate transaction index goes: one index write less per posting.
-- * ledger_post (migration 0004 documents its batch shape) moves the balances one account at a
--   time in id order instead of locking every touched account first and then updating them all:
--   the UPDATE takes the row lock itself, in the same order (no deadlocks between posters), and
--   the separate lock pass wrote one lock record per account. The balances' CHECK constraint
--   still refuses an overdraft (SQLSTATE 23514, server/modules/ledger/ledger.ts ledgerRefusal),
--   failing the whole batch.
-- * Floors: a leg may carry "f" (minor units), the balance its account must keep after the batch
--   (an opening order's reserve on the member's available balance, trading fills.ts;
--   ledger.ts PostingInput.floorMinor). Several floors on one account: the highest holds. Below it
--   the batch fails as an overdraft does (SQLSTATE 23514 on ledger_accounts_non_negative).
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_idempotency_key_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_tx_idempotency_key_uq" ON "ledger_transactions" USING btree ("idempotency_key") WHERE "ledger_transactions"."idempotency_key" is not null;--> statement-breakpoint
ALTER TABLE "ledger_postings" DROP CONSTRAINT "ledger_postings_pkey";--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_transaction_id_id_pk" PRIMARY KEY("transaction_id","id");--> statement-breakpoint
DROP INDEX "ledger_postings_tx_idx";--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_post(batch jsonb, p_ref_id bigint DEFAULT NULL) RETURNS bigint[]
LANGUAGE plpgsql AS $$
DECLARE
  t jsonb;
  l jsonb;
  n_tx int := 0;
  acct int;
  tx_id bigint;
  ids bigint[] := '{}';
  leg_tx int[] := '{}';
  leg_acct int[] := '{}';
  leg_amount bigint[] := '{}';
  leg_cur text[] := '{}';
  leg_floor bigint[] := '{}';
  bal bigint;
  r record;
BEGIN
  FOR t IN SELECT value FROM jsonb_array_elements(batch) LOOP
    n_tx := n_tx + 1;
    FOR l IN SELECT value FROM jsonb_array_elements(t->'legs') LOOP
      SELECT id INTO acct FROM ledger_accounts
      WHERE coalesce(user_id, 0) = coalesce((l->>'u')::int, 0) AND currency = l->>'c'
        AND purpose = l->>'p' AND slot = (l->>'s')::smallint;
      IF acct IS NULL THEN
        RAISE EXCEPTION 'ledger account missing';
      END IF;
      leg_tx := leg_tx || n_tx;
      leg_acct := leg_acct || acct;
      leg_amount := leg_amount || (l->>'a')::bigint;
      leg_cur := leg_cur || (l->>'c');
      leg_floor := leg_floor || (l->>'f')::bigint;
    END LOOP;
  END LOOP;

  FOR r IN SELECT x.id, sum(x.d) AS d, max(x.f) AS f FROM unnest(leg_acct, leg_amount, leg_floor) AS x(id, d, f)
           GROUP BY x.id ORDER BY x.id LOOP
    UPDATE ledger_accounts SET balance_minor = balance_minor + r.d WHERE id = r.id RETURNING balance_minor INTO bal;
    IF r.f IS NOT NULL AND bal < r.f THEN
      RAISE EXCEPTION 'ledger floor' USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_accounts_non_negative';
    END IF;
  END LOOP;

  FOR t IN SELECT value FROM jsonb_array_elements(batch) LOOP
    INSERT INTO ledger_transactions (type, ref_type, ref_id, idempotency_key, actor_user_id, memo)
    VALUES (t->>'type', t->>'refType', coalesce(t->>'refId', p_ref_id::text), t->>'key', (t->>'actor')::int, t->>'memo')
    RETURNING id INTO tx_id;
    ids := ids || tx_id;
  END LOOP;

  INSERT INTO ledger_postings (transaction_id, account_id, amount_minor, currency)
  SELECT ids[x.t], x.id, x.d, x.c
  FROM unnest(leg_tx, leg_acct, leg_amount, leg_cur) WITH ORDINALITY AS x(t, id, d, c, n)
  ORDER BY x.n;
  RETURN ids;
END
$$;
