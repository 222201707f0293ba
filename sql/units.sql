-- Exact unit conversion: kidx_ms_to_ns and kidx_mib_to_bytes.
-- The oracle is PostgreSQL's numeric: round(x::numeric * 1000000)::bigint
-- (for double precision, x::text::numeric: the shortest round-trip decimal).
\pset null '(null)'

-- The reference values of doc/reference.md ("Units"), for each input type.
SELECT x, kidx_ms_to_ns(x::numeric) AS from_numeric, kidx_ms_to_ns(x) AS from_text,
       kidx_ms_to_ns(x::float8) AS from_float8
FROM unnest(ARRAY['2.628607988357544', '2.629631996154785', '94.83366394042969',
                  '2.6306560039520264', '1e-05', ' 3 ', '0']) AS x;

-- Halfway cases round half away from zero; everything else to nearest.
SELECT x, kidx_ms_to_ns(x) AS ns, round(x::numeric * 1000000)::bigint AS oracle
FROM unnest(ARRAY['0.0000005', '-0.0000005', '2.5e-6', '-2.5e-6', '0.0000015', '0.0000004999999',
                  '0.00000050000001', '-0.0000004999999', '.5', '5.', '+1.5', '-0', '1E3',
                  '1e+2', '123456.0000005', '0.000000000000000000001']) AS x;

-- The bigint edges.
SELECT kidx_ms_to_ns('9223372036854.775807') AS max_ns, kidx_ms_to_ns('-9223372036854.775808') AS min_ns,
       kidx_ms_to_ns('9223372036854.7758074999') AS rounds_down;
SELECT kidx_ms_to_ns('9223372036854.775808');
SELECT kidx_ms_to_ns('9223372036854.7758075');
SELECT kidx_ms_to_ns('-9223372036854.7758085');
SELECT kidx_ms_to_ns(1e300::float8);
SELECT kidx_ms_to_ns(1e20::numeric);

-- Errors show the input.
SELECT kidx_ms_to_ns('NaN');
SELECT kidx_ms_to_ns('nan'::numeric);
SELECT kidx_ms_to_ns('Infinity'::numeric);
SELECT kidx_ms_to_ns('-inf');
SELECT kidx_ms_to_ns('infinity'::float8);
SELECT kidx_ms_to_ns('NaN'::float8);
SELECT kidx_ms_to_ns('');
SELECT kidx_ms_to_ns('   ');
SELECT kidx_ms_to_ns('abc');
SELECT kidx_ms_to_ns('1e');
SELECT kidx_ms_to_ns('--1');
SELECT kidx_ms_to_ns('1.2.3');
SELECT kidx_ms_to_ns('0x10');
SELECT kidx_ms_to_ns('1 2');
SELECT kidx_ms_to_ns(repeat('9', 100) || 'x');
SELECT kidx_ms_to_ns(NULL::text), kidx_ms_to_ns(NULL::numeric), kidx_ms_to_ns(NULL::float8);

-- MiB to bytes (Liger writes max_memory_allocated() / 2**20).
SELECT x, kidx_mib_to_bytes(x) AS bytes, kidx_mib_to_bytes(x::numeric) AS from_numeric,
       kidx_mib_to_bytes(x::float8) AS from_float8, round(x::numeric * 1048576)::bigint AS oracle
FROM unnest(ARRAY['1', '0.5', '1024', '40.0185546875', '0.00000047683715820312', '1e-6',
                  '1e-7']) AS x;
SELECT kidx_mib_to_bytes('8796093022207.999999') AS max_bytes;
SELECT kidx_mib_to_bytes('8796093022208');
SELECT kidx_mib_to_bytes('-1.5e400');
SELECT kidx_mib_to_bytes('many');

-- Oracle: 100,000 generated inputs per type (random digits and exponents,
-- halfway cases, signs, spaces, values near the bigint edge) agree with numeric.
SELECT setseed(0.42);
CREATE TABLE gen AS
SELECT n,
       CASE n % 8
         WHEN 0 THEN (floor(random() * 1e9) / 10 ^ floor(random() * 16))::text
         WHEN 1 THEN to_char(floor(random() * 9000000000) + 1000000000, 'FM9999999999') || 'e' || (floor(random() * 18) - 15)::int
         WHEN 2 THEN (floor(random() * 1e6)::bigint * 10 + 5)::text || 'e-' || (7 + floor(random() * 3))::int
         WHEN 3 THEN (CASE WHEN random() < 0.5 THEN '-' ELSE '+' END) || (random() * 1000)::numeric(20, 13)::text
         WHEN 4 THEN ' ' || (random() * 1e6)::numeric(30, 17)::text || '  '
         WHEN 5 THEN (9223372036854.775807 - floor(random() * 1e7) / 1e7)::text
         WHEN 6 THEN '-' || (9223372036854.775808 - floor(random() * 1e7) / 1e7)::text
         ELSE (random() ^ 8 * 1e4)::text
       END AS x
FROM generate_series(1, 100000) AS n;
SELECT count(*) AS text_inputs,
       count(*) FILTER (WHERE kidx_ms_to_ns(x) = round(x::numeric * 1000000)::bigint) AS text_agree,
       count(*) FILTER (WHERE kidx_ms_to_ns(x::numeric) = round(x::numeric * 1000000)::bigint) AS numeric_agree
FROM gen;
SELECT count(*) AS float8_inputs,
       count(*) FILTER (WHERE kidx_ms_to_ns(f) = round(f::text::numeric * 1000000)::bigint) AS float8_agree
FROM (SELECT x::float8 AS f FROM gen WHERE n % 8 NOT IN (5, 6)
      UNION ALL
      SELECT ('x' || lpad(to_hex(floor(random() * 4294967296)::bigint), 8, '0'))::bit(32)::int
             * random() / 10 ^ floor(random() * 12)
      FROM generate_series(1, 25000)) s;
SELECT count(*) AS mib_agree FROM gen
WHERE n % 8 NOT IN (5, 6) AND kidx_mib_to_bytes(x) = round(x::numeric * 1048576)::bigint;
DROP TABLE gen;

-- The other way, for the BI views: ns_to_ms and bytes_to_mib (C) give the
-- values of the formulas they stand for, ns::numeric * 0.000001 and
-- trim_scale(bytes::numeric * 2^-20), digit for digit, on edges and on
-- 200,000 random bigints of every magnitude (multiples of 2^k for MiB, as
-- allocators give, and odd ones, whose digits do not fit a bigint).
SELECT setseed(0.17);
CREATE TABLE ints AS
SELECT v FROM (VALUES (0::bigint), (1), (-1), (999999), (1000000), (-1000001),
	(1048575), (1048576), (-1048576), (524288), (1572864), (2628608),
	(9223372036854775807), (-9223372036854775808), (-9223372036854775807),
	(4503599627370497), (-4503599627370497), (9223372036853727232)) AS e(v)
UNION ALL
SELECT (floor(random() * 2 ^ floor(random() * 63)))::bigint
	* CASE WHEN random() < 0.2 THEN -1 ELSE 1 END
	* CASE WHEN random() < 0.5 THEN 1 ELSE 0 END
	+ CASE WHEN random() < 0.5 THEN 0 ELSE (floor(random() * 2 ^ floor(random() * 30)))::bigint * 1024 END
FROM generate_series(1, 200000);
SELECT count(*) AS ints,
	count(*) FILTER (WHERE kernelindex.ns_to_ms(v)::text
		= (v::numeric * 0.000001)::text) AS ms_same_text,
	count(*) FILTER (WHERE kernelindex.bytes_to_mib(v)::text
		= trim_scale(v::numeric * 0.00000095367431640625)::text) AS mib_same_text,
	count(*) FILTER (WHERE kernelindex.bytes_to_mib(v) * 1048576 = v) AS mib_exact
FROM ints;
SELECT kernelindex.ns_to_ms(2628608), kernelindex.ns_to_ms(-1), kernelindex.ns_to_ms(0),
	kernelindex.bytes_to_mib(1572864), kernelindex.bytes_to_mib(1), kernelindex.bytes_to_mib(0),
	kernelindex.bytes_to_mib(-9223372036854775808), kernelindex.ns_to_ms(NULL), kernelindex.bytes_to_mib(NULL);
DROP TABLE ints;
