-- The Liger resource documents and workload labels built in C
-- (src/liger_catalog.c): errors where input can be bad, and the catalogs
-- read once per call site and snapshot.  test/sql/liger_catalog.sh compares
-- every document with the SQL builders of kernelindex 0.1.0.
\set SHOW_CONTEXT never

-- SQLSTATE, message, detail and hint of a statement's error ('ok' if none).
CREATE FUNCTION pg_temp.outcome(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	st text;
	msg text;
	det text;
	hint text;
BEGIN
	EXECUTE q;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
		det = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
	RETURN st || ': ' || msg || coalesce(E'\nDETAIL: ' || nullif(det, ''), '')
		|| coalesce(E'\nHINT: ' || nullif(hint, ''), '');
END
$$;

-- A configuration that is not a JSON object: 22023 naming it (the row
-- check refuses it in a CSV; called directly, the builders do).
SELECT pg_temp.outcome($$SELECT kernelindex.liger_workload('rope', 'T', NULL, '1', '[1, 2]')$$);
SELECT pg_temp.outcome($$SELECT kernelindex.liger_workload('sparsemax', 'V', NULL, '1', ' 5 ')$$);
SELECT pg_temp.outcome($$SELECT kernelindex.liger_workload('rope', 'T', NULL, '1', 'null')$$);
SELECT pg_temp.outcome($$SELECT kernelindex.liger_workload_label('rope', 'T', '1', '"a"'::jsonb)$$);
SELECT pg_temp.outcome($$SELECT kernelindex.liger_workload_label('rope', 'T', '1', ('[' || repeat('1,', 150) || '1]')::jsonb)$$);
-- Not JSON at all: jsonb's own 22P02, the value named in the CONTEXT.
\set VERBOSITY default
\set SHOW_CONTEXT always
SELECT kernelindex.liger_workload('rope', 'T', NULL, '1', '{"a": tru}');
-- An x value with white space numeric cannot read (U+2003, a space to this
-- locale's \s): numeric's 22P02, as with the SQL builders.
SELECT kernelindex.liger_workload('rope', 'T', NULL, U&'\2003 5', '{}');
\set SHOW_CONTEXT never
-- A number a label cannot show exactly: canonical JSON's 22003.
SELECT pg_temp.outcome($$SELECT kernelindex.liger_workload('rope', 'T', NULL, '1', '{"k": 12345678901234567}')$$);
SELECT pg_temp.outcome($$SELECT kernelindex.liger_workload_label('rope', 'T', '1', '{"a": [1, {"b": 1e400}]}')$$);
SELECT pg_temp.outcome($$SELECT kernelindex.liger_workload('rope', 'T', NULL, '1e400', '{}')$$);
-- A template kernel needs the x name.
SELECT pg_temp.outcome($$SELECT kernelindex.liger_workload('sparsemax', NULL, NULL, '1', '{}')$$);
-- NULL where SQL passes NULL: the documents the SQL builders gave.
SELECT kernelindex.liger_protocol(NULL, NULL);
SELECT kernelindex.liger_environment(NULL);
SELECT kernelindex.liger_workload('rope', 'T', NULL, NULL, NULL) -> 'metadata' AS metadata,
	kernelindex.liger_workload_label('rope', 'T', NULL, '{}') AS no_x_value,
	kernelindex.liger_workload_label('sparsemax', 'V', '16384', NULL) AS no_config;

-- A role that may not read a catalog: 42501, without the CONTEXT of the
-- internal query.
CREATE ROLE kidx_catalog_reader NOLOGIN;
GRANT USAGE ON SCHEMA kernelindex TO kidx_catalog_reader;
GRANT SELECT ON kernelindex.kernels, kernelindex.providers TO kidx_catalog_reader;
SET ROLE kidx_catalog_reader;
SELECT kernelindex.liger_implementation('rope', 'liger') #>> '{metadata,title}' AS title;
SELECT pg_temp.outcome($$SELECT kernelindex.liger_environment('NVIDIA B200')$$);
\set SHOW_CONTEXT always
SELECT kernelindex.liger_environment('NVIDIA B200');
\set SHOW_CONTEXT never
RESET ROLE;
DROP OWNED BY kidx_catalog_reader;
DROP ROLE kidx_catalog_reader;

-- A call site reads the catalog tables it needs once (one scan of gpus for
-- 200 documents), not once per call: table scans counted in this
-- transaction.
BEGIN;
CREATE TEMP TABLE scans AS
SELECT relname, seq_scan, idx_scan FROM pg_stat_xact_user_tables
WHERE relname IN ('gpus', 'kernels', 'providers', 'liger_passes');
CREATE FUNCTION pg_temp.scans() RETURNS TABLE (relname name, seq_scan bigint, idx_scan bigint)
LANGUAGE sql AS $$
	SELECT s.relname, s.seq_scan - b.seq_scan, s.idx_scan - b.idx_scan
	FROM pg_stat_xact_user_tables s JOIN scans b USING (relname) ORDER BY 1
$$;
SELECT count(DISTINCT kernelindex.liger_environment('NVIDIA B' || i)) AS documents
FROM generate_series(1, 200) i;
SELECT * FROM pg_temp.scans();
SELECT count(DISTINCT kernelindex.liger_workload('rope', 'T', NULL, i::text, '{}')::text)
	+ count(DISTINCT kernelindex.liger_implementation('rope', 'p' || i)::text) AS documents
FROM generate_series(1, 100) i;
SELECT * FROM pg_temp.scans();
ROLLBACK;

-- ... and again when its snapshot sees other rows: one call site (in
-- pg_temp.hardware) before and after each change in a PL/pgSQL block, also
-- in a block that fails (its rows then gone).
CREATE FUNCTION pg_temp.hardware(gpu text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	RETURN kernelindex.liger_environment(gpu) #>> '{spec,hardware}';
END
$$;
DO $$
DECLARE
	i int;
BEGIN
	RAISE NOTICE 'before: %', pg_temp.hardware('Loop GPU 1');
	FOR i IN 1..3 LOOP
		INSERT INTO kernelindex.gpus (name, vendor, product) VALUES ('Loop GPU ' || i, 'acme', 'Acme ' || i);
		RAISE NOTICE 'added: %', pg_temp.hardware('Loop GPU ' || i);
	END LOOP;
	RAISE NOTICE 'before the block: %', pg_temp.hardware('Loop GPU 4');
	BEGIN
		INSERT INTO kernelindex.gpus (name, vendor, product) VALUES ('Loop GPU 4', 'acme', 'Acme 4');
		RAISE NOTICE 'in the block: %', pg_temp.hardware('Loop GPU 4');
		RAISE EXCEPTION 'undo';
	EXCEPTION WHEN raise_exception THEN
		NULL;
	END;
	RAISE NOTICE 'after it: %', pg_temp.hardware('Loop GPU 4');
	UPDATE kernelindex.gpus SET product = 'Acme One' WHERE name = 'Loop GPU 1';
	RAISE NOTICE 'updated: %', pg_temp.hardware('Loop GPU 1');
	DELETE FROM kernelindex.gpus WHERE name LIKE 'Loop GPU %';
	RAISE NOTICE 'deleted: %', pg_temp.hardware('Loop GPU 1');
END
$$;

-- The same in REPEATABLE READ, where every statement has the transaction's
-- snapshot: only the subtransaction tells the failed block's rows gone.
BEGIN ISOLATION LEVEL REPEATABLE READ;
DO $$
BEGIN
	BEGIN
		INSERT INTO kernelindex.gpus (name, vendor, product) VALUES ('Loop GPU 5', 'acme', 'Acme 5');
		RAISE NOTICE 'in the block: %', pg_temp.hardware('Loop GPU 5');
		RAISE EXCEPTION 'undo';
	EXCEPTION WHEN raise_exception THEN
		NULL;
	END;
	RAISE NOTICE 'after it: %', pg_temp.hardware('Loop GPU 5');
END
$$;
ROLLBACK;

-- Slugs: lower() of the database's collation, then a-z0-9 runs.
SELECT kernelindex.liger_slug('NVIDIA A100-SXM4-80GB') AS gpu, kernelindex.liger_slug('--Ärger__GPU--') AS odd,
	kernelindex.liger_slug('') AS empty;
