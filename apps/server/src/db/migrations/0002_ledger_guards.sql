-- The journal's append-only triggers and their function live in
-- apps/server/src/modules/ledger/sql/ledger_transfers_append_only.sql (docs/sql.md).
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
