-- The kidx_digest type: I/O, errors, ordering, hashing, indexes, casts.
\pset null '(null)'

-- Text round trip.
SELECT 'sha256:a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747'::kidx_digest;
SELECT 'sha256:0000000000000000000000000000000000000000000000000000000000000000'::kidx_digest::text;
SELECT pg_column_size('sha256:ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff'::kidx_digest) AS bytes;
SELECT NULL::kidx_digest IS NULL AS null_in;

-- Every input error: missing prefix, wrong length, non-hex, uppercase.
SELECT ''::kidx_digest;
SELECT 'a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747'::kidx_digest;
SELECT 'SHA256:a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747'::kidx_digest;
SELECT 'sha512:a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747'::kidx_digest;
SELECT 'sha256:'::kidx_digest;
SELECT 'sha256:a79eaf'::kidx_digest;
SELECT 'sha256:a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde77470'::kidx_digest;
SELECT 'sha256:A79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747'::kidx_digest;
SELECT 'sha256:a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde774F'::kidx_digest;
SELECT 'sha256:a79eaf4dg66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747'::kidx_digest;
SELECT 'sha256: a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde774'::kidx_digest;
SELECT 'sha256:a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747 '::kidx_digest;
SELECT 'sha256:a79eaf4df66c97c6éadc1fb2d09df78682155d1ea86652ae0b70199875bde747'::kidx_digest;
-- A long input is shown truncated.
SELECT ('sha256:' || repeat('a', 64) || repeat('z', 200))::kidx_digest;
SELECT repeat('x', 300)::kidx_digest;

-- A digest for each of 2000 integers, to test ordering, sorting and joins.
CREATE TABLE digests AS
SELECT i, ('sha256:' || encode(sha256(i::text::bytea), 'hex'))::kidx_digest AS d
FROM generate_series(1, 2000) AS i;

-- Every operator agrees with the order of the bytes (4 million pairs).
SELECT count(*) AS disagreements
FROM digests a, digests b
WHERE (a.d < b.d) IS DISTINCT FROM (a.d::bytea < b.d::bytea)
   OR (a.d <= b.d) IS DISTINCT FROM (a.d::bytea <= b.d::bytea)
   OR (a.d = b.d) IS DISTINCT FROM (a.d::bytea = b.d::bytea)
   OR (a.d <> b.d) IS DISTINCT FROM (a.d::bytea <> b.d::bytea)
   OR (a.d >= b.d) IS DISTINCT FROM (a.d::bytea >= b.d::bytea)
   OR (a.d > b.d) IS DISTINCT FROM (a.d::bytea > b.d::bytea)
   OR sign(kidx_digest_cmp(a.d, b.d)) IS DISTINCT FROM
      CASE WHEN a.d::bytea < b.d::bytea THEN -1 WHEN a.d::bytea > b.d::bytea THEN 1 ELSE 0 END;

-- Text order is byte order too.
SELECT count(*) AS disagreements
FROM digests a, digests b
WHERE a.i < 300 AND b.i < 300
  AND (a.d < b.d) IS DISTINCT FROM (a.d::text COLLATE "C" < b.d::text COLLATE "C");

-- Sorting (abbreviated keys, in memory and on disk) gives byte order,
-- also with many duplicates (where abbreviation aborts).
CREATE TABLE many AS
SELECT d FROM digests, generate_series(1, 30);
INSERT INTO many SELECT d FROM digests CROSS JOIN generate_series(1, 20000) WHERE i <= 5;
SET work_mem = '64kB';
SELECT count(*) AS out_of_order
FROM (SELECT d, lag(d) OVER (ORDER BY d) AS prev FROM many) s
WHERE prev::bytea > d::bytea;
SELECT bool_and(a = b) AS same_order
FROM (SELECT row_number() OVER (ORDER BY d) AS n, d AS a FROM many) x
JOIN (SELECT row_number() OVER (ORDER BY d::bytea) AS n, d AS b FROM many) y USING (n);
RESET work_mem;

-- min, max, DISTINCT, GROUP BY.
SELECT min(d) = (SELECT d FROM digests ORDER BY d::bytea LIMIT 1) AS min_ok,
       max(d) = (SELECT d FROM digests ORDER BY d::bytea DESC LIMIT 1) AS max_ok,
       min(NULL::kidx_digest) AS min_null
FROM digests;
SELECT count(DISTINCT d) AS distinct_digests FROM many;
SET enable_sort = off;
SELECT count(*) AS groups FROM (SELECT d FROM many GROUP BY d) g;
RESET enable_sort;

-- Hash functions are stable (stored hash partitions depend on them).
SELECT kidx_digest_hash('sha256:a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747'),
       kidx_digest_hash_extended('sha256:a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747', 0),
       kidx_digest_hash_extended('sha256:a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747', 42);
-- Support function 2 with seed 0 agrees with support function 1 in its low bits.
SELECT count(*) AS mismatched
FROM digests
WHERE kidx_digest_hash(d) <> (kidx_digest_hash_extended(d, 0) & x'ffffffff'::bigint)::bit(32)::integer;

-- Both operator classes are valid.
SELECT opc.opcname, am.amname, amvalidate(opc.oid)
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
WHERE opc.opcintype = 'kidx_digest'::regtype
ORDER BY 1;

-- Index scan, deduplicated btree.
CREATE INDEX digests_d ON digests (d);
ANALYZE digests;
EXPLAIN (COSTS OFF)
SELECT i FROM digests WHERE d = 'sha256:6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b';
SELECT i FROM digests WHERE d = 'sha256:6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b';
SELECT count(*) FROM digests WHERE d < 'sha256:1000000000000000000000000000000000000000000000000000000000000000';
CREATE EXTENSION pageinspect;
CREATE INDEX many_d ON many (d);
SELECT allequalimage FROM bt_metap('many_d');
SELECT count(*) > 0 AS has_posting_lists
FROM generate_series(1, pg_relation_size('many_d') / 8192 - 1) AS p,
     bt_page_items('many_d', p::int)
WHERE tids IS NOT NULL;
DROP EXTENSION pageinspect;

-- Merge join (sorting with the btree opclass) and hash join on =.  No
-- index scans: whether autovacuum has set the visibility map would decide
-- between a sort and an index-only scan.
SET enable_hashjoin = off; SET enable_nestloop = off;
SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM digests a JOIN digests b ON a.d = b.d;
SELECT count(*) FROM digests a JOIN digests b ON a.d = b.d;
RESET enable_indexscan; RESET enable_indexonlyscan; RESET enable_bitmapscan;
RESET enable_hashjoin; SET enable_mergejoin = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM digests a JOIN digests b ON a.d = b.d;
SELECT count(*) FROM digests a JOIN digests b ON a.d = b.d;
RESET enable_mergejoin; RESET enable_nestloop;

-- PARTITION BY HASH routes rows with the extended hash.
CREATE TABLE parts (d kidx_digest, i int) PARTITION BY HASH (d);
CREATE TABLE parts_0 PARTITION OF parts FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE parts_1 PARTITION OF parts FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE parts_2 PARTITION OF parts FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE parts_3 PARTITION OF parts FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO parts SELECT d, i FROM digests;
SELECT tableoid::regclass AS partition, count(*) FROM parts GROUP BY 1 ORDER BY 1;
SELECT count(*) AS misrouted FROM parts
WHERE NOT satisfies_hash_partition('parts'::regclass, 4,
	substr(tableoid::regclass::text, 7)::int, d);
EXPLAIN (COSTS OFF)
SELECT * FROM parts WHERE d = 'sha256:6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b';

-- As a primary key.
CREATE TABLE pk (d kidx_digest PRIMARY KEY);
INSERT INTO pk SELECT d FROM digests WHERE i <= 3;
INSERT INTO pk VALUES ('sha256:6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b');

-- Casts: bytea both ways, text both ways.
SELECT 'sha256:6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b'::kidx_digest::bytea;
SELECT sha256('1'::bytea)::kidx_digest;
SELECT '\x0102'::bytea::kidx_digest;
SELECT ('\x' || repeat('00', 33))::bytea::kidx_digest;
SELECT 'sha256:6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b'::text::kidx_digest;
CREATE TABLE t (x text);
INSERT INTO t SELECT d FROM digests WHERE i = 1;   -- assignment cast to text
SELECT x FROM t;
SELECT NULL::bytea::kidx_digest, NULL::kidx_digest::bytea, NULL::text::kidx_digest;

-- Binary send/receive: a binary COPY round trip, and a wrong length rejected.
\copy (SELECT d FROM digests ORDER BY i) TO 'results/digest_copy.bin' WITH (FORMAT binary)
CREATE TABLE copied (d kidx_digest);
\copy copied FROM 'results/digest_copy.bin' WITH (FORMAT binary)
SELECT count(*) AS rows, count(*) FILTER (WHERE d IN (SELECT d FROM digests)) AS matching FROM copied;
SELECT kidx_digest_send('sha256:6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b');
\copy (SELECT '\x0102'::bytea) TO 'results/digest_short.bin' WITH (FORMAT binary)
\copy copied FROM 'results/digest_short.bin' WITH (FORMAT binary)

DROP TABLE digests, many, parts, pk, t, copied;

-- Soft input errors: on PostgreSQL 16 and later pg_input_is_valid() and
-- pg_input_error_info() answer for a kidx_digest without raising; 15 has
-- neither, and there the same answers come from the error the input raises,
-- so that this output is the same on every major.
CREATE FUNCTION pg_temp.digest_input(v text, OUT valid boolean, OUT error_code text,
	OUT message text, OUT detail text)
LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('server_version_num')::int >= 160000 THEN
		EXECUTE 'SELECT pg_input_is_valid($1, ''kidx_digest'')' INTO valid USING v;
		EXECUTE 'SELECT sql_error_code, message, detail FROM pg_input_error_info($1, ''kidx_digest'')'
			INTO error_code, message, detail USING v;
	ELSE
		BEGIN
			PERFORM v::kidx_digest;
			valid := true;
		EXCEPTION WHEN OTHERS THEN
			valid := false;
			GET STACKED DIAGNOSTICS error_code = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
				detail = PG_EXCEPTION_DETAIL;
		END;
	END IF;
END
$$;
SELECT v, (pg_temp.digest_input(v)).*
FROM (VALUES ('sha256:' || repeat('ab', 32)), (''), ('sha256:' || repeat('AB', 32)),
	('sha256:abc'), (repeat('ab', 32)), ('sha256:' || repeat('ab', 31) || 'zz')) AS t(v);

-- The cast to text (kidx_digest_to_text, written straight into the text)
-- says what the type's output says, on 10,000 digests.
SELECT count(*) AS digests,
	count(*) FILTER (WHERE d::text = kidx_digest_out(d)::text) AS cast_is_output,
	count(*) FILTER (WHERE kidx_digest_to_text(d) = d::text AND octet_length(d::text) = 71) AS same_71_bytes
FROM (SELECT ('sha256:' || encode(sha256(i::text::bytea), 'hex'))::kidx_digest AS d
	  FROM generate_series(1, 10000) AS i) s;
SELECT castfunc::regprocedure AS digest_to_text, castcontext FROM pg_cast
WHERE castsource = 'kidx_digest'::regtype AND casttarget = 'text'::regtype;
