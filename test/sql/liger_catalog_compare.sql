-- The comparison of test/sql/liger_catalog.sh: every case of table lc_rows
-- (Liger rows, by source), lc_labels (direct workload_label calls) and
-- lc_slugs, built by the C functions of the extension and by the SQL oracle
-- (schema liger_oracle, test/sql/liger_catalog_oracle.sql), must give the
-- same jsonb (=) with the same text, or both fail with the same SQLSTATE.
--
-- Each case is built twice: once alone, in a PL/pgSQL block that catches
-- errors (each call site then reads the catalogs afresh), and once more
-- set-based in one query for the sources that have no failing case (the
-- catalogs read once per call site).  Prints the report below.

-- C and SQL outcomes to a difference, or NULL when they agree.
CREATE FUNCTION lc_diff(c jsonb, o jsonb, c_err text, o_err text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE
		WHEN c_err IS NOT NULL OR o_err IS NOT NULL THEN
			CASE WHEN pg_catalog.left(c_err, 5) IS NOT DISTINCT FROM pg_catalog.left(o_err, 5) THEN NULL
			ELSE pg_catalog.format('C: %s; SQL: %s', coalesce(c_err, c::text), coalesce(o_err, o::text)) END
		WHEN c IS DISTINCT FROM o OR c::text IS DISTINCT FROM o::text
			THEN pg_catalog.format('C: %s; SQL: %s', c, o)
	END
$$;

CREATE TEMP TABLE lc_outcomes (kind text, src text, args text, failed boolean, diff text);

-- One case of each kind, C against SQL, errors caught.
CREATE FUNCTION lc_case(kind text, src text, a text[], ja jsonb[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c jsonb;
	o jsonb;
	ce text;
	oe text;
BEGIN
	BEGIN
		c := CASE kind
			WHEN 'protocol' THEN kernelindex.liger_protocol(a[1], a[2])
			WHEN 'environment' THEN kernelindex.liger_environment(a[1])
			WHEN 'implementation' THEN kernelindex.liger_implementation(a[1], a[2])
			WHEN 'workload' THEN kernelindex.liger_workload(a[1], a[2], a[3], a[4], a[5])
			WHEN 'workload_label' THEN to_jsonb(kernelindex.liger_workload_label(a[1], a[2], ja[1], ja[2]))
			WHEN 'slug' THEN to_jsonb(kernelindex.liger_slug(a[1])) END;
	EXCEPTION WHEN OTHERS THEN
		ce := SQLSTATE || ': ' || SQLERRM;
	END;
	BEGIN
		o := CASE kind
			WHEN 'protocol' THEN liger_oracle.liger_protocol(a[1], a[2])
			WHEN 'environment' THEN liger_oracle.liger_environment(a[1])
			WHEN 'implementation' THEN liger_oracle.liger_implementation(a[1], a[2])
			WHEN 'workload' THEN liger_oracle.liger_workload(a[1], a[2], a[3], a[4], a[5])
			WHEN 'workload_label' THEN to_jsonb(liger_oracle.liger_workload_label(a[1], a[2], ja[1], ja[2]))
			WHEN 'slug' THEN to_jsonb(liger_oracle.liger_slug(a[1])) END;
	EXCEPTION WHEN OTHERS THEN
		oe := SQLSTATE || ': ' || SQLERRM;
	END;
	INSERT INTO lc_outcomes VALUES (kind, src, pg_catalog.array_to_string(a, ' | ', '<NULL>')
		|| coalesce(' | ' || pg_catalog.array_to_string(ja::text[], ' | ', '<NULL>'), ''),
		ce IS NOT NULL AND oe IS NOT NULL, lc_diff(c, o, ce, oe));
END
$$;

-- A value as the oracle makes it for a label, or NULL when it fails.
CREATE FUNCTION lc_try_x(x text) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
	RETURN liger_oracle.liger_x_value(x);
EXCEPTION WHEN OTHERS THEN
	RETURN NULL;
END
$$;
CREATE FUNCTION lc_try_config(config text) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
	RETURN config::jsonb;
EXCEPTION WHEN OTHERS THEN
	RETURN NULL;
END
$$;

-- Every case, one at a time.
\o /dev/null
SELECT count(lc_case('protocol', src, ARRAY[metric_name, kernel_operation_mode], NULL))
FROM (SELECT DISTINCT src, metric_name, kernel_operation_mode FROM lc_rows) d;
SELECT count(lc_case('environment', src, ARRAY[gpu_name], NULL))
FROM (SELECT DISTINCT src, gpu_name FROM lc_rows) d;
SELECT count(lc_case('implementation', src, ARRAY[kernel_name, kernel_provider], NULL))
FROM (SELECT DISTINCT src, kernel_name, kernel_provider FROM lc_rows) d;
SELECT count(lc_case('workload', src, ARRAY[kernel_name, x_name, x_label, x_value, extra_benchmark_config_str], NULL))
FROM (SELECT DISTINCT src, kernel_name, x_name, x_label, x_value, extra_benchmark_config_str FROM lc_rows) d;
SELECT count(lc_case('workload_label', src, ARRAY[kernel_name, x_name], ARRAY[x, config]))
FROM (SELECT DISTINCT src, kernel_name, x_name, lc_try_x(x_value) AS x, lc_try_config(extra_benchmark_config_str) AS config
	  FROM lc_rows
	  UNION SELECT src, kernel, x_name, x_value, config FROM lc_labels) d;
SELECT count(lc_case('slug', src, ARRAY[s], NULL))
FROM (SELECT DISTINCT src, s FROM lc_rows,
		LATERAL (VALUES (kernel_name), (kernel_provider), (kernel_operation_mode), (metric_name),
			(x_name), (x_label), (x_value), (extra_benchmark_config_str), (gpu_name), (liger_version)) v(s)
	  UNION SELECT src, s FROM lc_slugs) d;

-- Sources with no failing case, again set-based (a call site reads the catalogs once).
CREATE TEMP TABLE lc_clean AS
SELECT src FROM lc_rows GROUP BY src
HAVING NOT EXISTS (SELECT FROM lc_outcomes o WHERE o.src = lc_rows.src AND o.failed);
INSERT INTO lc_outcomes
SELECT 'protocol (set-based)', src, concat_ws(' | ', m, p), false,
	lc_diff(kernelindex.liger_protocol(m, p), liger_oracle.liger_protocol(m, p), NULL, NULL)
FROM (SELECT DISTINCT src, metric_name m, kernel_operation_mode p FROM lc_rows JOIN lc_clean USING (src)) d;
INSERT INTO lc_outcomes
SELECT 'environment (set-based)', src, g, false,
	lc_diff(kernelindex.liger_environment(g), liger_oracle.liger_environment(g), NULL, NULL)
FROM (SELECT DISTINCT src, gpu_name g FROM lc_rows JOIN lc_clean USING (src)) d;
INSERT INTO lc_outcomes
SELECT 'implementation (set-based)', src, concat_ws(' | ', k, p), false,
	lc_diff(kernelindex.liger_implementation(k, p), liger_oracle.liger_implementation(k, p), NULL, NULL)
FROM (SELECT DISTINCT src, kernel_name k, kernel_provider p FROM lc_rows JOIN lc_clean USING (src)) d;
INSERT INTO lc_outcomes
SELECT 'workload (set-based)', src, concat_ws(' | ', k, xn, xl, xv, cf), false,
	lc_diff(kernelindex.liger_workload(k, xn, xl, xv, cf), liger_oracle.liger_workload(k, xn, xl, xv, cf), NULL, NULL)
FROM (SELECT DISTINCT src, kernel_name k, x_name xn, x_label xl, x_value xv, extra_benchmark_config_str cf
	  FROM lc_rows JOIN lc_clean USING (src)) d;
INSERT INTO lc_outcomes
SELECT 'workload_label (set-based)', src, concat_ws(' | ', k, xn, xv, cf), false,
	lc_diff(to_jsonb(kernelindex.liger_workload_label(k, xn, liger_oracle.liger_x_value(xv), cf::jsonb)),
		to_jsonb(liger_oracle.liger_workload_label(k, xn, liger_oracle.liger_x_value(xv), cf::jsonb)), NULL, NULL)
FROM (SELECT DISTINCT src, kernel_name k, x_name xn, x_value xv, extra_benchmark_config_str cf
	  FROM lc_rows JOIN lc_clean USING (src)) d;

\o

-- The report: kind|cases|both failed|different, then the first ten
-- differences of each kind as difference|kind|source|arguments|outcomes.
SELECT 'clean sources', string_agg(src, ' ' ORDER BY src) FROM lc_clean;
SELECT kind, count(*), count(*) FILTER (WHERE failed), count(diff)
FROM lc_outcomes GROUP BY kind ORDER BY kind;
SELECT 'difference', kind, src, translate(args, E'\n\t', '  '), translate(diff, E'\n\t', '  ')
FROM (SELECT *, row_number() OVER (PARTITION BY kind ORDER BY src, args) AS i
	  FROM lc_outcomes WHERE diff IS NOT NULL) d
WHERE i <= 10 ORDER BY kind, i;
