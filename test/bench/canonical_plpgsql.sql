-- A canonicalizer written in PL/pgSQL, the comparison point of doc/performance.md ("Targets")
-- ("kidx_canonical_digest ... at least 20x faster than a canonicalizer written
-- in PL/pgSQL").  Created in pg_temp, so it lives only for the session.
--
-- It is meant to be a fair, correct RFC 8785 implementation, not a straw man:
--   - object members sorted by UTF-16 code units (COLLATE "C" byte order,
--     which equals it unless a key holds U+E000..U+FFFF; then a remapped
--     UTF-8 byte key is used);
--   - strings escaped by jsonb's own output (escape_json: \" \\ \b \f \n \r \t,
--     other controls as lowercase \u00xx, everything else raw), which is
--     exactly RFC 8785's rule;
--   - numbers: integers below 1e15 as jsonb prints them, others through the
--     shortest round-trip double (float8out, needs extra_float_digits >= 1,
--     the default) reformatted as ECMAScript Number::toString; a number the
--     double cannot carry exactly (doc/reference.md, "Canonical JSON and digests") raises 22003.
-- Set-based per level (string_agg), recursion per nested container.

CREATE FUNCTION pg_temp.bench_shortest_big(d float8, m text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  v numeric := abs(m::numeric);             -- an integer here
  nd int := length(trunc(v)::text);
  sig int := length(rtrim(trunc(v)::text, '0'));
  ad float8 := abs(d);
  unit numeric;
  lo numeric;
  hi numeric;
  c numeric;
BEGIN
  FOR p IN 1 .. sig - 1 LOOP
    unit := power(10::numeric, nd - p);
    lo := div(v, unit) * unit;
    hi := lo + unit;
    c := NULL;
    IF lo::float8 = ad THEN c := lo; END IF;
    IF hi < 1.7976931348623158e308 AND hi::float8 = ad AND (c IS NULL OR hi - v < v - lo) THEN c := hi; END IF;
    IF c IS NOT NULL THEN
      RETURN CASE WHEN d < 0 THEN '-' ELSE '' END || trunc(c)::text;
    END IF;
  END LOOP;
  RETURN m;
END $$;

CREATE FUNCTION pg_temp.bench_es_number(j jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  s text := j::text;
  n numeric;
  d float8;
  neg boolean;
  m text;
  e int := 0;
  p int;
  digits text;
  k int;
  pt int;   -- value = 0.digits * 10^pt
BEGIN
  IF s ~ '^-?(0|[1-9][0-9]{0,14})$' THEN   -- integer below 1e15: exact, already canonical
    RETURN s;
  END IF;
  n := j::numeric;
  d := n::float8;                           -- raises 22003 on overflow / underflow
  m := d::text;                             -- round-trip digits (not always the shortest, see below)
  IF abs(d) >= 9007199254740992 THEN
    -- float8out does not accept the bounds of the rounding interval, so where
    -- the shortest decimal is exactly a midpoint between two doubles it
    -- prints a longer one (1e23 -> 9.999999999999999e+22, 8.41e21 ->
    -- 8.409999999999999e+21).  That only happens for integers >= 2^53: look
    -- for fewer digits that still parse (ties-to-even) to d.
    m := pg_temp.bench_shortest_big(d, m);
  END IF;
  IF m::numeric <> n THEN
    RAISE EXCEPTION 'number % cannot be represented exactly as a double', s
      USING ERRCODE = 'numeric_value_out_of_range',
            HINT = 'Pass such values as strings.';
  END IF;
  IF d = 0 THEN RETURN '0'; END IF;
  neg := left(m, 1) = '-';
  IF neg THEN m := substr(m, 2); END IF;
  p := strpos(m, 'e');
  IF p > 0 THEN
    e := substr(m, p + 1)::int;
    m := left(m, p - 1);
  END IF;
  p := strpos(m, '.');
  IF p = 0 THEN
    pt := length(m) + e;
    digits := m;
  ELSE
    pt := p - 1 + e;
    digits := left(m, p - 1) || substr(m, p + 1);
  END IF;
  k := length(digits);
  digits := ltrim(digits, '0');
  pt := pt - (k - length(digits));
  digits := rtrim(digits, '0');
  k := length(digits);
  -- ECMAScript Number::toString(10), with n = pt
  IF k <= pt AND pt <= 21 THEN
    m := digits || repeat('0', pt - k);
  ELSIF 0 < pt AND pt <= 21 THEN
    m := left(digits, pt) || '.' || substr(digits, pt + 1);
  ELSIF -6 < pt AND pt <= 0 THEN
    m := '0.' || repeat('0', -pt) || digits;
  ELSE
    m := left(digits, 1)
         || CASE WHEN k > 1 THEN '.' || substr(digits, 2) ELSE '' END
         || 'e' || CASE WHEN pt - 1 >= 0 THEN '+' ELSE '-' END
         || abs(pt - 1)::text;
  END IF;
  RETURN CASE WHEN neg THEN '-' || m ELSE m END;
END $$;

CREATE FUNCTION pg_temp.bench_canonical_plpgsql(j jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  r text;
BEGIN
  CASE jsonb_typeof(j)
  WHEN 'object' THEN
    IF NOT EXISTS (SELECT 1 FROM jsonb_object_keys(j) k WHERE k ~ '[\uE000-\uFFFF]') THEN
      SELECT string_agg(to_json(key)::text || ':' || pg_temp.bench_canonical_plpgsql(value), ','
                        ORDER BY key COLLATE "C")
        INTO r FROM jsonb_each(j);
    ELSE
      -- UTF-16 order: code points >= U+10000 (UTF-8 lead F0..F4) sort before
      -- U+E000..U+FFFF (lead EE, EF); remap those leads to F5, F6 (never in UTF-8).
      SELECT string_agg(to_json(key)::text || ':' || pg_temp.bench_canonical_plpgsql(value), ','
                        ORDER BY decode(replace(replace(replace(
                          regexp_replace(encode(convert_to(key, 'UTF8'), 'hex'), '(..)', '\1 ', 'g'),
                          'ee ', 'f5 '), 'ef ', 'f6 '), ' ', ''), 'hex'))
        INTO r FROM jsonb_each(j);
    END IF;
    RETURN '{' || coalesce(r, '') || '}';
  WHEN 'array' THEN
    SELECT string_agg(pg_temp.bench_canonical_plpgsql(value), ',' ORDER BY o)
      INTO r FROM jsonb_array_elements(j) WITH ORDINALITY AS a(value, o);
    RETURN '[' || coalesce(r, '') || ']';
  WHEN 'number' THEN
    RETURN pg_temp.bench_es_number(j);
  ELSE                                      -- string, boolean, null: jsonb's text is canonical
    RETURN j::text;
  END CASE;
END $$;

CREATE FUNCTION pg_temp.bench_canonical_digest_plpgsql(j jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  RETURN 'sha256:' || encode(sha256(convert_to(pg_temp.bench_canonical_plpgsql(j), 'UTF8')), 'hex');
END $$;
