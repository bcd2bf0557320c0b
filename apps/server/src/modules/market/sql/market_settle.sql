-- One batch of the spot market's single writer (docs/market.md, "Single writer"), all or nothing,
-- in one statement:
--   1. fencing: p_epoch must still be the market's newest writer epoch (NM001 otherwise); the
--      share lock on the epoch row makes a new writer's takeover wait for this statement;
--   2. the batch's new orders, inserted in their state at the end of the batch;
--   3. the flows in command order (freezes, trades, releases) through ledger_post_flows;
--   4. the orders that existed before the batch, updated to their state at its end;
--   5. each trade's row, with its flow.
-- Returns {"trades": [[seq, trade id], ...], "available": {ref: available after}}: the ids the
-- trades got, and the balances of the user accounts the batch touched (the writer checks the next
-- batches against them).
-- Each changed order is updated by its primary key, one index lookup each, whatever the table's size
-- or statistics: PL/pgSQL keeps a statement's plan for the life of the connection, and one UPDATE ...
-- FROM jsonb_populate_recordset(...) planned while market_orders was small (or its statistics old)
-- was a hash join over a sequential scan of the whole table, so a batch cost more the longer the
-- market ran.
CREATE OR REPLACE FUNCTION market_settle(p_symbol text, p_epoch bigint, p_new_orders jsonb, p_flows jsonb, p_changed_orders jsonb)
RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_epoch text;
  v_posted jsonb;
  v_flow_ids jsonb;
  v_order market_orders;
  v_trades jsonb;
BEGIN
  IF p_epoch IS NOT NULL THEN
    SELECT value::text INTO v_epoch FROM app_settings WHERE key = 'market_epoch:' || p_symbol FOR SHARE;
    IF v_epoch IS DISTINCT FROM p_epoch::text THEN
      RAISE EXCEPTION 'market %: writer epoch % is not the newest (%)', p_symbol, p_epoch, v_epoch USING ERRCODE = 'NM001';
    END IF;
  END IF;

  INSERT INTO market_orders SELECT * FROM jsonb_populate_recordset(NULL::market_orders, p_new_orders);
  v_posted := ledger_post_flows(p_flows, now());
  v_flow_ids := v_posted->'flows';

  FOR v_order IN SELECT * FROM jsonb_populate_recordset(NULL::market_orders, p_changed_orders) LOOP
    UPDATE market_orders
       SET filled = v_order.filled, quote_filled = v_order.quote_filled, fee_numerator = v_order.fee_numerator, fee = v_order.fee,
           frozen_remaining = v_order.frozen_remaining, status = v_order.status, cancel_reason = v_order.cancel_reason,
           last_seq = v_order.last_seq, updated_at = v_order.updated_at
     WHERE id = v_order.id AND symbol = p_symbol;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'market %: order % to update does not exist', p_symbol, v_order.id;
    END IF;
  END LOOP;

  WITH trades AS (
    INSERT INTO market_trades (symbol, seq, maker_order_id, taker_order_id, maker_user_id, taker_user_id, taker_side,
      price, quantity, quote, maker_fee, taker_fee, ts_ms, flow_id, created_at)
    SELECT t.symbol, t.seq, t.maker_order_id, t.taker_order_id, t.maker_user_id, t.taker_user_id, t.taker_side,
           t.price, t.quantity, t.quote, t.maker_fee, t.taker_fee, t.ts_ms, (v_flow_ids->>(f->>'key'))::bigint, t.created_at
      FROM jsonb_array_elements(p_flows) f, jsonb_populate_record(NULL::market_trades, f->'trade') t
     WHERE f ? 'trade'
     ORDER BY t.seq
    RETURNING market_trades.seq, market_trades.id
  )
  SELECT coalesce(jsonb_agg(jsonb_build_array(seq, id)), '[]'::jsonb) INTO v_trades FROM trades;
  RETURN jsonb_build_object('trades', v_trades, 'available', v_posted->'available');
END;
$$;
