-- The journal is append-only: a correction is a new transfer, never an edit.
CREATE OR REPLACE FUNCTION ledger_transfers_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_transfers is append-only (% refused)', TG_OP;
END;
$$;
--> statement-breakpoint
-- The triggers are (re)made here, after the function they run (a fresh database gets this file after
-- every versioned migration).
CREATE OR REPLACE TRIGGER ledger_transfers_no_update_or_delete
  BEFORE UPDATE OR DELETE ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_transfers_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER ledger_transfers_no_truncate
  BEFORE TRUNCATE ON ledger_transfers
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_transfers_append_only();
