-- Nodes and savings in the epoch settlement (docs/nodes-and-savings.md, "Settlement"): the indexes and
-- storage settings they need.
-- The functions this migration once defined (mining_settle_epoch with node and pledge miners,
-- pledge_settle_epoch, node_settle_epoch) live in their modules' sql/ folders, one file each,
-- applied after the migrations whenever a file changes (apps/server/src/db/functions.ts,
-- docs/sql.md). The migration stays, without them, so that the journal (meta/_journal.json) and
-- databases that ran it stay as they are.

-- The settlement of epoch n also pays flexible positions redeemed after n ended (redeemed_at >= its end).
CREATE INDEX "pledge_positions_redeemed_idx" ON "pledge_positions" USING btree ("redeemed_at") WHERE "pledge_positions"."redeemed_at" is not null;
--> statement-breakpoint
-- Every settlement updates each earning position's interest_total (a column no index covers). Pages
-- kept half empty leave room for the new version on the same page: a HOT update writes no entry in the
-- table's indexes (as migration 0010 does for ledger_accounts).
ALTER TABLE pledge_positions SET (fillfactor = 50);
--> statement-breakpoint
-- The node fee dividend sums what the fees accounts were credited during an epoch. Only those credits
-- are indexed, so that every other journal insert stays as cheap as before: a partial index on the two
-- fees accounts, whose ids (fixed since migration 0002) are written into its predicate here.
DO $$
BEGIN
  EXECUTE format('CREATE INDEX ledger_transfers_fees_idx ON ledger_transfers (credit_account_id, created_at) WHERE credit_account_id IN (%s)',
    (SELECT string_agg(id::text, ', ' ORDER BY id) FROM ledger_accounts WHERE user_id IS NULL AND kind = 'fees'));
END;
$$;
