-- The journal is append-only: a correction is a new transfer, never an edit.
CREATE FUNCTION ledger_transfers_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_transfers is append-only (% refused)', TG_OP;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_transfers_no_update_or_delete
  BEFORE UPDATE OR DELETE ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_transfers_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_transfers_no_truncate
  BEFORE TRUNCATE ON ledger_transfers
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_transfers_append_only();
--> statement-breakpoint
-- The system side of every flow, one account per kind and asset.
INSERT INTO ledger_accounts (user_id, kind, asset, is_system)
SELECT NULL, k.kind, a.asset, true
  FROM (VALUES ('custody'), ('fees'), ('rewards_pool'), ('burn'), ('treasury')) AS k(kind)
  CROSS JOIN (VALUES ('NADI'), ('USDT')) AS a(asset);
--> statement-breakpoint
-- Users registered before the ledger existed get their accounts too.
INSERT INTO ledger_accounts (user_id, kind, asset, is_system)
SELECT u.id, k.kind, k.asset, false
  FROM users u
  CROSS JOIN (VALUES ('fund', 'NADI'), ('fund', 'USDT'), ('trade', 'NADI'), ('trade', 'USDT'), ('destroy_quota', 'USDT')) AS k(kind, asset);
