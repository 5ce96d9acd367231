-- hand-written
-- (Restores revision 0017.) A JSON value's text as JavaScript's JSON.stringify writes the value node-postgres parses from it:
-- compact, object keys in jsonb's order (chr(1) where JavaScript would order them otherwise, for
-- keys that read as array indexes), numbers as JavaScript prints them (chr(1) outside the range
-- where PostgreSQL's shortest form is JavaScript's). One-statement reads (crud/document.ts) write
-- JSON columns with it; chr(1) sends that record through the readers.
CREATE OR REPLACE FUNCTION muster_json_text(value jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
DECLARE
  out text;
  n float8;
BEGIN
  CASE jsonb_typeof(value)
    WHEN 'object' THEN
      IF EXISTS (SELECT 1 FROM jsonb_object_keys(value) AS k(key) WHERE k.key ~ '^(0|[1-9][0-9]*)$') THEN
        RETURN chr(1);
      END IF;
      SELECT '{' || COALESCE(string_agg(to_json(e.key)::text || ':' || muster_json_text(e.value), ',' ORDER BY e.n), '') || '}'
        INTO out FROM jsonb_each(value) WITH ORDINALITY AS e(key, value, n);
      RETURN out;
    WHEN 'array' THEN
      SELECT '[' || COALESCE(string_agg(muster_json_text(a.value), ',' ORDER BY a.n), '') || ']'
        INTO out FROM jsonb_array_elements(value) WITH ORDINALITY AS a(value, n);
      RETURN out;
    WHEN 'number' THEN
      n := value::text::float8;
      IF n = 0 THEN
        RETURN '0';
      ELSIF abs(n) >= 1e-4 AND abs(n) < 1e15 THEN
        RETURN n::text;
      END IF;
      RETURN chr(1);
    ELSE
      -- A string, true, false or null (and SQL NULL): jsonb writes them as JSON does.
      RETURN value::text;
  END CASE;
END
$fn$;
