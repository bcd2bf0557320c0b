-- The planner's view of ledger_transfers' account columns (docs/ledger.md, "Statistics"). A few
-- system accounts (the treasury, the pools) sit on one side of most transfers, so ANALYZE's sample
-- sees a handful of distinct accounts and PostgreSQL takes any other account for hundreds of
-- thousands of rows: it then walks the primary key backwards instead of the (account, id) indexes.
-- The number of accounts grows with the transfers (each user brings theirs): one distinct account
-- per 20 transfers, as a fraction of the rows. The system accounts stay in the most-common list.
ALTER TABLE "ledger_transfers" ALTER COLUMN "debit_account_id" SET (n_distinct = -0.05);--> statement-breakpoint
ALTER TABLE "ledger_transfers" ALTER COLUMN "credit_account_id" SET (n_distinct = -0.05);
