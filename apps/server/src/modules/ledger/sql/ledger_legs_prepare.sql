-- The legs a caller posts with ledger_post_legs; dropped at commit.
CREATE OR REPLACE FUNCTION ledger_legs_prepare() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  CREATE TEMP TABLE ledger_legs_in (
    ord bigint NOT NULL,
    flow_id bigint NOT NULL,
    type text NOT NULL,
    asset text NOT NULL,
    amount numeric(78, 0) NOT NULL,
    debit_id bigint NOT NULL,
    debit_part text NOT NULL,
    credit_id bigint NOT NULL,
    credit_part text NOT NULL,
    memo jsonb
  ) ON COMMIT DROP;
END;
$$;
