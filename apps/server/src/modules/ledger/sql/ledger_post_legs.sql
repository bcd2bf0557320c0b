-- ledger_post_legs posts any number of legs (hundreds of thousands, the epoch settlement's) written by
-- the caller into the temporary table ledger_legs_in (made by ledger_legs_prepare): the same checks and
-- journal as ledger_post_flows, with the legs in a table instead of a jsonb document. ledger_post_flows
-- stays for the market, which posts small batches hundreds of times a second, where a temporary table
-- per batch costs more than it saves.
--
-- Posts the legs of ledger_legs_in in `ord` order (unique) for flows the caller inserted: locks every
-- account they name, lowest id first (the product's one lock order), computes each account's
-- balances and version after every leg as running sums, refuses the whole post if a user part would
-- go below zero (NL002), appends the journal rows (ids in leg order) and writes each account once.
-- No ANALYZE of the temporary tables (here and in mining_settle_epoch): the planner sizes them from
-- their pages, the joins stay hash or merge joins, and the ANALYZEs cost about a tenth of a settlement.
-- Returns the number of journal rows; ledger_legs_in is dropped.
CREATE OR REPLACE FUNCTION ledger_post_legs(p_now timestamptz) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_ids bigint[];
  v_locked integer;
  v_rows integer;
BEGIN
  IF EXISTS (SELECT 1 FROM ledger_legs_in WHERE amount <= 0 OR debit_part NOT IN ('available', 'frozen') OR credit_part NOT IN ('available', 'frozen')
                OR (debit_id = credit_id AND debit_part = credit_part)) THEN
    RAISE EXCEPTION 'a leg must move a positive amount between two account parts' USING ERRCODE = 'NL004';
  END IF;
  -- The accounts by id (an array, so that they are found through the primary key, never by a scan).
  SELECT coalesce(array_agg(id ORDER BY id), '{}') INTO v_ids FROM (SELECT debit_id AS id FROM ledger_legs_in UNION SELECT credit_id FROM ledger_legs_in) ids;
  CREATE TEMP TABLE ledger_legs_accounts ON COMMIT DROP AS
    SELECT a.id AS account_id, a.asset, a.available, a.frozen, a.version, a.is_system
      FROM ledger_accounts a
     WHERE a.id = ANY (v_ids)
     ORDER BY a.id
       FOR UPDATE OF a;
  GET DIAGNOSTICS v_locked = ROW_COUNT;
  IF v_locked <> cardinality(v_ids) THEN
    RAISE EXCEPTION 'ledger: % of % accounts named by the legs exist', v_locked, cardinality(v_ids) USING ERRCODE = 'NL003';
  END IF;

  -- One step per account and leg (a move between two parts of one account is one step for it).
  CREATE TEMP TABLE ledger_legs_running ON COMMIT DROP AS
  WITH moves AS (
    SELECT l.ord, l.debit_id AS account_id, l.asset,
           CASE WHEN l.debit_part = 'available' THEN -l.amount ELSE 0 END
             + CASE WHEN l.credit_id = l.debit_id AND l.credit_part = 'available' THEN l.amount ELSE 0 END AS d_available,
           CASE WHEN l.debit_part = 'frozen' THEN -l.amount ELSE 0 END
             + CASE WHEN l.credit_id = l.debit_id AND l.credit_part = 'frozen' THEN l.amount ELSE 0 END AS d_frozen
      FROM ledger_legs_in l
    UNION ALL
    SELECT l.ord, l.credit_id, l.asset,
           CASE WHEN l.credit_part = 'available' THEN l.amount ELSE 0 END,
           CASE WHEN l.credit_part = 'frozen' THEN l.amount ELSE 0 END
      FROM ledger_legs_in l
     WHERE l.credit_id <> l.debit_id
  )
  SELECT m.account_id, m.ord, a.is_system, a.asset <> m.asset AS bad_asset,
         a.available + sum(m.d_available) OVER w AS available_after,
         a.frozen + sum(m.d_frozen) OVER w AS frozen_after,
         a.version + row_number() OVER w AS version_after,
         lead(m.ord) OVER w IS NULL AS is_last
    FROM moves m JOIN ledger_legs_accounts a ON a.account_id = m.account_id
  WINDOW w AS (PARTITION BY m.account_id ORDER BY m.ord ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);

  IF EXISTS (SELECT 1 FROM ledger_legs_running WHERE bad_asset) THEN
    RAISE EXCEPTION 'a leg moves one asset between accounts of that asset' USING ERRCODE = 'NL004';
  END IF;
  IF EXISTS (SELECT 1 FROM ledger_legs_running WHERE NOT is_system AND (available_after < 0 OR frozen_after < 0)) THEN
    RAISE EXCEPTION 'a user balance would go below zero' USING ERRCODE = 'NL002';
  END IF;

  INSERT INTO ledger_transfers (flow_id, type, asset, amount, debit_account_id, debit_part, credit_account_id, credit_part,
    debit_available_after, debit_frozen_after, debit_version, credit_available_after, credit_frozen_after, credit_version, memo, created_at)
  SELECT l.flow_id, l.type, l.asset, l.amount, l.debit_id, l.debit_part, l.credit_id, l.credit_part,
         d.available_after, d.frozen_after, d.version_after, c.available_after, c.frozen_after, c.version_after, l.memo, p_now
    FROM ledger_legs_in l
    JOIN ledger_legs_running d ON d.account_id = l.debit_id AND d.ord = l.ord
    JOIN ledger_legs_running c ON c.account_id = l.credit_id AND c.ord = l.ord
   ORDER BY l.ord;
  GET DIAGNOSTICS v_rows = ROW_COUNT;

  UPDATE ledger_accounts a
     SET available = r.available_after, frozen = r.frozen_after, version = r.version_after
    FROM ledger_legs_running r
   WHERE r.is_last AND a.id = r.account_id AND a.id = ANY (v_ids);

  DROP TABLE ledger_legs_running;
  DROP TABLE ledger_legs_accounts;
  DROP TABLE ledger_legs_in;
  RETURN v_rows;
END;
$$;
