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
-- the fastest round of each are shown.
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
CREATE TEMP TABLE bench_times (variant text, round int, ms float8);
DO $$
DECLARE
	g record;
	t timestamptz;
	r int;
	n bigint;
BEGIN
	SELECT * INTO g FROM bench_groups;
	FOR r IN 1..current_setting('kidx_bench.rounds')::int LOOP
		t := clock_timestamp();
		SELECT count(*) INTO n FROM liger_oracle.liger_series(g.k, g.p, g.o, g.m, g.xn, g.xl, g.xv, g.cf, g.g, g.v);
		INSERT INTO bench_times VALUES ('series, SQL', r, extract(epoch FROM clock_timestamp() - t) * 1000);
		t := clock_timestamp();
		SELECT count(*) INTO n FROM kernelindex.liger_series(g.k, g.p, g.o, g.m, g.xn, g.xl, g.xv, g.cf, g.g, g.v);
		INSERT INTO bench_times VALUES ('series, C docs', r, extract(epoch FROM clock_timestamp() - t) * 1000);
		t := clock_timestamp();
		SELECT (SELECT count(liger_oracle.liger_workload(d.k, d.xn, d.xl, d.xv, d.cf))
				FROM (SELECT DISTINCT * FROM unnest(g.k, g.xn, g.xl, g.xv, g.cf) d(k, xn, xl, xv, cf)) d)
			+ (SELECT count(liger_oracle.liger_environment(d.g)) FROM (SELECT DISTINCT * FROM unnest(g.g) d(g)) d)
			+ (SELECT count(liger_oracle.liger_protocol(d.m, d.o)) FROM (SELECT DISTINCT * FROM unnest(g.m, g.o) d(m, o)) d)
			+ (SELECT count(liger_oracle.liger_implementation(d.k, d.p)) FROM (SELECT DISTINCT * FROM unnest(g.k, g.p) d(k, p)) d)
		INTO n;
		INSERT INTO bench_times VALUES ('documents, SQL', r, extract(epoch FROM clock_timestamp() - t) * 1000);
		t := clock_timestamp();
		SELECT (SELECT count(kernelindex.liger_workload(d.k, d.xn, d.xl, d.xv, d.cf))
				FROM (SELECT DISTINCT * FROM unnest(g.k, g.xn, g.xl, g.xv, g.cf) d(k, xn, xl, xv, cf)) d)
			+ (SELECT count(kernelindex.liger_environment(d.g)) FROM (SELECT DISTINCT * FROM unnest(g.g) d(g)) d)
			+ (SELECT count(kernelindex.liger_protocol(d.m, d.o)) FROM (SELECT DISTINCT * FROM unnest(g.m, g.o) d(m, o)) d)
			+ (SELECT count(kernelindex.liger_implementation(d.k, d.p)) FROM (SELECT DISTINCT * FROM unnest(g.k, g.p) d(k, p)) d)
		INTO n;
		INSERT INTO bench_times VALUES ('documents, C', r, extract(epoch FROM clock_timestamp() - t) * 1000);
	END LOOP;
END
$$;
SELECT variant, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1) AS median_ms,
	round(min(ms)::numeric, 1) AS fastest_ms
FROM bench_times GROUP BY variant
ORDER BY array_position(ARRAY['series, SQL', 'series, C docs', 'documents, SQL', 'documents, C'], variant);
SELECT (SELECT count(*) FROM (SELECT DISTINCT * FROM bench_groups b, unnest(b.k, b.xn, b.xl, b.xv, b.cf)) d) AS workloads,
	(SELECT count(*) FROM (SELECT DISTINCT * FROM bench_groups b, unnest(b.g)) d) AS gpus,
	(SELECT count(*) FROM (SELECT DISTINCT * FROM bench_groups b, unnest(b.m, b.o)) d) AS protocols,
	(SELECT count(*) FROM (SELECT DISTINCT * FROM bench_groups b, unnest(b.k, b.p)) d) AS implementations;
