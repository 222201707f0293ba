/*
 * kernelindex upgrade script: 0.1.0 to 0.2.0 (ALTER EXTENSION kernelindex UPDATE).
 *
 * Brings a database created at 0.1.0 (sql/kernelindex--0.1.0.sql, the
 * release tagged v0.1.0) to what a fresh CREATE EXTENSION of 0.2.0 makes
 * (the parts in src/sql), moving the stored data where 0.2.0 stores it otherwise.
 * test/t/080_upgrade.pl loads real data into 0.1.0, runs this script, and
 * compares the database with a fresh 0.2.0 loaded with the same data: the
 * same objects, rows, documents and digests.  doc/CHANGELOG.md lists what
 * changed.
 */

\echo Use "ALTER EXTENSION kernelindex UPDATE" to load this file. \quit

/* ---------------------------------------------------------------------
 * Every statistic a harness reports, typed (issue 25): the mean, standard
 * deviation, min, max and samples of latency and peak memory are columns
 * of runs (a run whose primaryStatistic names the mean or the min needs no
 * median), and a template says which statistic its runs are compared on.
 * --------------------------------------------------------------------- */

ALTER TABLE kernelindex.runs
	ADD COLUMN latency_ns_mean bigint,
	ADD COLUMN latency_ns_stddev bigint,
	ADD COLUMN latency_ns_min bigint,
	ADD COLUMN latency_ns_max bigint,
	ADD COLUMN latency_samples bigint,
	ADD COLUMN peak_bytes_mean bigint,
	ADD COLUMN peak_bytes_stddev bigint,
	ADD COLUMN peak_bytes_min bigint,
	ADD COLUMN peak_bytes_max bigint,
	ADD COLUMN peak_samples bigint;
COMMENT ON COLUMN kernelindex.runs.latency_ns_mean IS 'the latency/mean/ns measurement, nanoseconds';
COMMENT ON COLUMN kernelindex.runs.latency_ns_stddev IS 'the latency/stddev/ns measurement (standard deviation), nanoseconds';
COMMENT ON COLUMN kernelindex.runs.latency_ns_min IS 'the latency/min/ns measurement, nanoseconds';
COMMENT ON COLUMN kernelindex.runs.latency_ns_max IS 'the latency/max/ns measurement, nanoseconds';
COMMENT ON COLUMN kernelindex.runs.latency_samples IS 'the latency/samples/count measurement: the number of trials behind the latency statistics';
COMMENT ON COLUMN kernelindex.runs.peak_bytes_mean IS 'the peakMemory/mean/bytes measurement, bytes';
COMMENT ON COLUMN kernelindex.runs.peak_bytes_stddev IS 'the peakMemory/stddev/bytes measurement (standard deviation), bytes';
COMMENT ON COLUMN kernelindex.runs.peak_bytes_min IS 'the peakMemory/min/bytes measurement, bytes';
COMMENT ON COLUMN kernelindex.runs.peak_bytes_max IS 'the peakMemory/max/bytes measurement, bytes';
COMMENT ON COLUMN kernelindex.runs.peak_samples IS 'the peakMemory/samples/count measurement: the number of trials behind the peak memory statistics';

ALTER TABLE kernelindex.run_templates
	ADD COLUMN latency_statistic text GENERATED ALWAYS AS
		(COALESCE(value OPERATOR(pg_catalog.#>>) '{spec,timing,primaryStatistic}', 'median')) STORED,
	ADD COLUMN memory_statistic text GENERATED ALWAYS AS
		(COALESCE(value OPERATOR(pg_catalog.#>>) '{spec,memory,primaryStatistic}', 'median')) STORED;
COMMENT ON COLUMN kernelindex.run_templates.latency_statistic IS 'the statistic its runs'' latency is compared on: spec.timing.primaryStatistic, median when it names none (generated)';
COMMENT ON COLUMN kernelindex.run_templates.memory_statistic IS 'the statistic its runs'' peak memory is compared on: spec.memory.primaryStatistic, median when it names none (generated)';

/*
 * The runs 0.1.0 stored with such statistics in their templates (each run
 * a template of its own, its values in it) are stored again as 0.2.0 stores
 * them: typed, their templates shared.  A run's document is rebuilt from
 * what 0.1.0 stored (the same document, the same digest), the run removed
 * and its document ingested; a run 0.2.0 refuses (a primaryStatistic other
 * than median, mean or min, or one naming a statistic the run lacks) stays
 * as 0.1.0 stored it, which 0.2.0 reads back the same, and a NOTICE counts
 * them.  Templates no run uses any more are removed.
 */
CREATE FUNCTION kernelindex.migrate_runs(digests text[])
RETURNS void
LANGUAGE plpgsql
AS $fn$
DECLARE
	docs jsonb[];
BEGIN
	SELECT pg_catalog.array_agg(kernelindex.run_document(d::@extschema@.kidx_digest) ORDER BY d) INTO docs
	FROM pg_catalog.unnest(digests) AS u(d);
	DELETE FROM kernelindex.runs r
	WHERE r.digest OPERATOR(@extschema@.=) ANY (digests::@extschema@.kidx_digest[]);
	PERFORM kernelindex.ingest_bundles(docs);
END
$fn$;

DO $migrate$
DECLARE
	affected integer[];
	batch text[];
	kept integer := 0;
	moved integer := 0;
	d text;
BEGIN
	SELECT pg_catalog.array_agg(t.id) INTO affected
	FROM kernelindex.run_templates t
	WHERE EXISTS (
		SELECT FROM pg_catalog.jsonb_array_elements(
			CASE pg_catalog.jsonb_typeof(t.value OPERATOR(pg_catalog.#>) '{spec,measurements}')
			WHEN 'array' THEN t.value OPERATOR(pg_catalog.#>) '{spec,measurements}' ELSE '[]' END) e(m)
		WHERE e.m OPERATOR(pg_catalog.?) 'value'
		AND ((e.m OPERATOR(pg_catalog.->>) 'metric') = 'latency' AND (e.m OPERATOR(pg_catalog.->>) 'unit') = 'ns'
			 AND (e.m OPERATOR(pg_catalog.->>) 'statistic') IN ('mean', 'stddev', 'min', 'max')
			OR (e.m OPERATOR(pg_catalog.->>) 'metric') = 'peakMemory' AND (e.m OPERATOR(pg_catalog.->>) 'unit') = 'bytes'
			 AND (e.m OPERATOR(pg_catalog.->>) 'statistic') IN ('mean', 'stddev', 'min', 'max')
			OR (e.m OPERATOR(pg_catalog.->>) 'metric') IN ('latency', 'peakMemory')
			 AND (e.m OPERATOR(pg_catalog.->>) 'statistic') = 'samples' AND (e.m OPERATOR(pg_catalog.->>) 'unit') = 'count'));
	IF affected IS NULL THEN
		RETURN;
	END IF;
	FOR batch IN
		SELECT pg_catalog.array_agg(s.digest ORDER BY s.digest) FROM (
			SELECT r.digest::text AS digest, (pg_catalog.row_number() OVER (ORDER BY r.digest) - 1) / 1000 AS b
			FROM kernelindex.runs r WHERE r.template_id OPERATOR(pg_catalog.=) ANY (affected)) s
		GROUP BY s.b ORDER BY s.b
	LOOP
		BEGIN
			PERFORM kernelindex.migrate_runs(batch);
			moved := moved + pg_catalog.cardinality(batch);
		EXCEPTION WHEN OTHERS THEN
			FOREACH d IN ARRAY batch LOOP
				BEGIN
					PERFORM kernelindex.migrate_runs(ARRAY[d]);
					moved := moved + 1;
				EXCEPTION WHEN OTHERS THEN
					kept := kept + 1;
				END;
			END LOOP;
		END;
	END LOOP;
	DELETE FROM kernelindex.run_templates t
	WHERE t.id OPERATOR(pg_catalog.=) ANY (affected)
	AND NOT EXISTS (SELECT FROM kernelindex.runs r WHERE r.template_id OPERATOR(pg_catalog.=) t.id);
	RAISE NOTICE 'kernelindex 0.2.0: % runs with statistics 0.1.0 kept in their templates stored again typed, % kept as they were', moved, kept;
END
$migrate$;
DROP FUNCTION kernelindex.migrate_runs(text[]);
-- welch_p_value (issue 25)
/* ---------------------------------------------------------------------
 * 6a. Statistics: Welch's t-test on two runs' summaries (issue 25)
 *
 * Where both runs report a mean, a standard deviation and a number of
 * samples, whether they differ outside the noise is Welch's unequal-
 * variances t-test: kernelindex.welch_p_value (src/stats.c; the test and
 * Student's t distribution are src/core/stats.c).  It comes before the
 * views, which may call it.
 * --------------------------------------------------------------------- */

CREATE FUNCTION kernelindex.welch_p_value(mean_a double precision, stddev_a double precision, samples_a bigint,
	mean_b double precision, stddev_b double precision, samples_b bigint)
RETURNS double precision
AS 'MODULE_PATHNAME', 'kidx_welch_p_value'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.welch_p_value(double precision, double precision, bigint, double precision, double precision, bigint) IS
'the two-sided p-value of Welch''s unequal-variances t-test of two runs'' means, from each run''s mean, sample standard deviation and number of samples (Student''s t with the Welch-Satterthwaite degrees of freedom): the probability of a difference at least this large between two runs of equal means; below the chosen level (e.g. 0.05) the difference is outside the noise. 1 for equal means and 0 for different ones when both standard deviations are 0; NULL when a run has fewer than 2 samples (no variance, no test); an error (22023) for a negative standard deviation or number of samples, or a NaN or infinite mean or standard deviation';
