-- ledger_post(batch, p_ref_id): writes ledger transactions in one round trip
-- (server/modules/ledger/ledger.ts postAll and postingsSql are its callers and document the shapes).
-- batch is a JSON array of
--   {"type", "refType", "refId", "key", "actor", "memo", "legs": [{"u", "p", "c", "s", "a"}]}
-- where a leg names its account by owner u (null for the platform), purpose p, currency c and
-- slot s, and a is the signed amount in minor units. Each transaction's legs sum to zero per
-- currency (checked by the caller). A transaction without refId takes p_ref_id (so a statement can
-- post for a row it inserts in the same statement). In order: each leg's account is found by its
-- unique index (one index probe per leg; a join would scan the platform's slot rows); every
-- touched account is locked in id order (one statement, so concurrent batches cannot deadlock);
-- the transactions, then all postings in one statement, are inserted and every touched balance
-- moves by its net amount in one statement. An account that may not go negative and would is
-- refused by the table's CHECK constraint ledger_accounts_non_negative (SQLSTATE 23514), which
-- fails the statement and with it the whole batch (server/modules/ledger/ledger.ts ledgerRefusal
-- answers insufficientBalance). Returns the new transaction ids in batch order. Raises 'ledger
-- account missing' when a leg names no account.
CREATE FUNCTION ledger_post(batch jsonb, p_ref_id bigint DEFAULT NULL) RETURNS bigint[]
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
    END LOOP;
  END LOOP;

  PERFORM 1 FROM ledger_accounts WHERE id = ANY(leg_acct) ORDER BY id FOR UPDATE;

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

  UPDATE ledger_accounts a
  SET balance_minor = a.balance_minor + (SELECT sum(x.d) FROM unnest(leg_acct, leg_amount) AS x(id, d) WHERE x.id = a.id)
  WHERE a.id = ANY(leg_acct);
  RETURN ids;
END
$$;
