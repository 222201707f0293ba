-- The time to build the documents of the upstream file's row groups, in C
-- and with the SQL builders of 0.1.0, side by side in one run (not a suite:
-- run it by hand, in a database with the extension and the oracle):
--
--   psql -d DB -v extschema=public -f test/sql/liger_catalog_oracle.sql
--   psql -d DB -v csv=$PWD/../shared/data/liger/all_benchmark_data.csv \
--        -f test/sql/liger_catalog_bench.sql
--
-- The groups are those the CSV ingestion makes (rows alike but for their
-- timestamp and values).  Each variant builds, per statement, what the
-- ingestion asks kernelindex.liger_series for:
--   series, SQL       liger_oracle.liger_series: today's SQL step, documents
--                     and templates, all in SQL
--   series, C docs    kernelindex.liger_series: the same step on the C
--                     builders (templates still in SQL)
--   documents, SQL    the four documents of every group, set-based as
--                     liger_series builds them (once per distinct protocol,
--                     GPU, implementation, workload), SQL builders
--   documents, C      the same with the C builders
-- Rounds alternate the variants (-v rounds=N, 7 by default); the median and
-- the fastest round of each are shown, and the backend's CPU time per round
-- (from /proc/self/stat, in 10 ms ticks: superuser, Linux).
\set ON_ERROR_STOP 1
CREATE TEMP TABLE bench_rows (LIKE kernelindex.liger_rows);
-- (\copy takes no variables: the command is built in one)
\set copy_rows '\\copy bench_rows FROM ' :'csv' ' WITH (FORMAT csv, HEADER MATCH)'
:copy_rows
CREATE TEMP TABLE bench_groups AS
SELECT array_agg(kernel_name) k, array_agg(kernel_provider) p, array_agg(kernel_operation_mode) o,
	array_agg(metric_name) m, array_agg(x_name) xn, array_agg(x_label) xl, array_agg(x_value) xv,
	array_agg(extra_benchmark_config_str) cf, array_agg(gpu_name) g, array_agg(liger_version) v, count(*) n
FROM (SELECT DISTINCT kernel_name, kernel_provider, kernel_operation_mode, metric_name, metric_unit, x_name,
		x_label, x_value, extra_benchmark_config_str, gpu_name, liger_version FROM bench_rows) d;
SELECT n AS groups FROM bench_groups;

\if :{?rounds}
\else
\set rounds 7
\endif
SELECT set_config('kidx_bench.rounds', :'rounds', false) AS rounds;
CREATE TEMP TABLE bench_times (variant text, round int, ms float8, cpu_ms float8);
-- CPU time of this backend (user and system), in ms: on a machine others
-- share, the wall time of a round also counts their work.
CREATE FUNCTION pg_temp.cpu_ms() RETURNS float8 LANGUAGE sql AS $$
	SELECT (split_part(st, ' ', 14)::float8 + split_part(st, ' ', 15)::float8) * 1000 / 100
	FROM pg_read_file('/proc/self/stat') AS st
$$;
DO $$
DECLARE
	-- each statement planned for its values, as the ingestion's SPI query is
	series_sql text := 'SELECT count(*) FROM liger_oracle.liger_series($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)';
	documents_sql text := 'SELECT (SELECT count(liger_oracle.liger_workload(d.k, d.xn, d.xl, d.xv, d.cf))
			FROM (SELECT DISTINCT * FROM unnest($1, $5, $6, $7, $8) d(k, xn, xl, xv, cf)) d)
		+ (SELECT count(liger_oracle.liger_environment(d.g)) FROM (SELECT DISTINCT * FROM unnest($9) d(g)) d)
		+ (SELECT count(liger_oracle.liger_protocol(d.m, d.o)) FROM (SELECT DISTINCT * FROM unnest($4, $3) d(m, o)) d)
		+ (SELECT count(liger_oracle.liger_implementation(d.k, d.p)) FROM (SELECT DISTINCT * FROM unnest($1, $2) d(k, p)) d)';
	g record;
	t timestamptz;
	c float8;
	r int;
	n bigint;
	v text;
	s text;
BEGIN
	SELECT * INTO g FROM bench_groups;
	FOR r IN 1..current_setting('kidx_bench.rounds')::int LOOP
		FOREACH v IN ARRAY ARRAY['series, SQL', 'series, C docs', 'documents, SQL', 'documents, C'] LOOP
			s := CASE v
				WHEN 'series, SQL' THEN series_sql
				WHEN 'series, C docs' THEN replace(series_sql, 'liger_oracle.', 'kernelindex.')
				WHEN 'documents, SQL' THEN documents_sql
				ELSE replace(documents_sql, 'liger_oracle.', 'kernelindex.') END;
			c := pg_temp.cpu_ms();
			t := clock_timestamp();
			EXECUTE s INTO n USING g.k, g.p, g.o, g.m, g.xn, g.xl, g.xv, g.cf, g.g, g.v;
			INSERT INTO bench_times VALUES (v, r, extract(epoch FROM clock_timestamp() - t) * 1000,
				pg_temp.cpu_ms() - c);
		END LOOP;
	END LOOP;
END
$$;
SELECT variant, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1) AS median_ms,
	round(min(ms)::numeric, 1) AS fastest_ms, round(avg(cpu_ms)::numeric, 1) AS cpu_ms_per_round
FROM bench_times GROUP BY variant
ORDER BY array_position(ARRAY['series, SQL', 'series, C docs', 'documents, SQL', 'documents, C'], variant);
SELECT (SELECT count(*) FROM (SELECT DISTINCT * FROM bench_groups b, unnest(b.k, b.xn, b.xl, b.xv, b.cf)) d) AS workloads,
	(SELECT count(*) FROM (SELECT DISTINCT * FROM bench_groups b, unnest(b.g)) d) AS gpus,
	(SELECT count(*) FROM (SELECT DISTINCT * FROM bench_groups b, unnest(b.m, b.o)) d) AS protocols,
	(SELECT count(*) FROM (SELECT DISTINCT * FROM bench_groups b, unnest(b.k, b.p)) d) AS implementations;
