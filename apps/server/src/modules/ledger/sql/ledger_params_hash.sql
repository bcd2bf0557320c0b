-- A flow's params_hash: sha256 (hex) of the parameters' canonical text (ledger_params_text), the same
-- hash as hashParams in TypeScript (apps/server/src/lib/hash-params.ts) for the same object.
CREATE OR REPLACE FUNCTION ledger_params_hash(p_params json) RETURNS text
LANGUAGE sql IMMUTABLE STRICT
RETURN encode(sha256(convert_to(ledger_params_text(p_params), 'UTF8')), 'hex');
