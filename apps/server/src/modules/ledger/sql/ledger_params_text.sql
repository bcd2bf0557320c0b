-- The canonical text of a flow's parameters, the text whose sha256 is the flow's params_hash: what
-- JSON.stringify writes in TypeScript (hashParams, apps/server/src/lib/hash-params.ts), so that a
-- flow opened in SQL (ledger_open_flow) and one posted from TypeScript hash their parameters alike.
-- Objects keep their keys in the order written (a `json` value, not `jsonb`, which reorders them:
-- build it with json_build_object in the order TypeScript would), no whitespace; strings escaped as
-- JSON.stringify does (", \, \b \f \n \r \t, other control characters as \u00xx, the rest as is);
-- numbers as the shortest decimal (integers: what JSON.stringify writes up to 10²¹; amounts are
-- decimal strings on both sides, as hashParams writes a bigint).
CREATE OR REPLACE FUNCTION ledger_params_text(p_value json) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  CASE json_typeof(p_value)
    WHEN 'object' THEN
      RETURN '{' || coalesce((SELECT string_agg(to_json(e.key)::text || ':' || ledger_params_text(e.value), ',' ORDER BY e.n)
                                FROM json_each(p_value) WITH ORDINALITY AS e(key, value, n)), '') || '}';
    WHEN 'array' THEN
      RETURN '[' || coalesce((SELECT string_agg(ledger_params_text(e.value), ',' ORDER BY e.n)
                                FROM json_array_elements(p_value) WITH ORDINALITY AS e(value, n)), '') || ']';
    WHEN 'string' THEN
      RETURN to_json(p_value #>> '{}')::text;
    WHEN 'number' THEN
      RETURN trim_scale(btrim(p_value::text)::numeric)::text;
    ELSE
      -- true, false, null
      RETURN btrim(p_value::text);
  END CASE;
END;
$$;
