-- ledger_post without its own balance check: the UPDATE of the balances meets the table's CHECK
-- constraint ledger_accounts_non_negative (allow_negative or balance_minor >= 0), which refuses
-- the statement (SQLSTATE 23514) and with it the whole batch, so the separate count of accounts
-- that would go negative was a second pass over the same rows (server/modules/ledger/ledger.ts
-- ledgerRefusal answers insufficientBalance for either). Otherwise as in 0004: each leg's account
-- found by its unique index, every touched account locked in id order (no deadlocks), the
-- transactions, all postings in one statement, all balances in one.
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
