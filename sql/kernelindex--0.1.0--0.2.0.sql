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
 * The columns of the BI views, made in C (issue 27): a digest becomes
 * text by kidx_digest_to_text, written straight into the text value (the
 * cast was an I/O cast: a C string, then a copy of it); ns_to_ms and
 * bytes_to_mib build their numeric from the integer, with the values of
 * the formulas they replace (regress units compares them).  First, so that
 * the views made again below use them.
 * --------------------------------------------------------------------- */
CREATE FUNCTION @extschema@.kidx_digest_to_text(@extschema@.kidx_digest)
RETURNS text
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_to_text(@extschema@.kidx_digest) IS
'the text form sha256:<hex> of a digest, as text';
DROP CAST (@extschema@.kidx_digest AS text);
CREATE CAST (@extschema@.kidx_digest AS text)
	WITH FUNCTION @extschema@.kidx_digest_to_text(@extschema@.kidx_digest) AS ASSIGNMENT;
COMMENT ON CAST (@extschema@.kidx_digest AS text) IS 'the text form sha256:<hex>';

CREATE OR REPLACE FUNCTION kernelindex.ns_to_ms(ns bigint)
RETURNS numeric
AS 'MODULE_PATHNAME', 'kidx_ns_to_ms'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.ns_to_ms(bigint) IS
'nanoseconds as milliseconds, exactly (numeric with six decimals): ns::numeric * 0.000001';
CREATE OR REPLACE FUNCTION kernelindex.bytes_to_mib(bytes bigint)
RETURNS numeric
AS 'MODULE_PATHNAME', 'kidx_bytes_to_mib'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.bytes_to_mib(bigint) IS
'bytes as MiB (2^20 bytes), exactly, without trailing zeros: trim_scale(bytes::numeric * 0.00000095367431640625)';

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

/* === 0.2.0: harnesses, run_rows and the views (generated from src/sql at development time; frozen with the release) === */

/* Protocols say their harness and pass (the views read them). */
ALTER TABLE kernelindex.protocols
	ADD COLUMN harness text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{spec,harness,name}') STORED,
	ADD COLUMN pass text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{spec,measurement,pass}') STORED;
COMMENT ON COLUMN kernelindex.protocols.harness IS 'spec.harness.name: the harness, e.g. kernelbench (generated; kernelindex.harnesses)';
COMMENT ON COLUMN kernelindex.protocols.pass IS 'spec.measurement.pass: the timed pass, where the protocol names one (generated)';

/* A quarantined run_rows row keeps its columns. */
ALTER TABLE kernelindex.rejected_rows ADD COLUMN fields jsonb;
COMMENT ON COLUMN kernelindex.rejected_rows.source IS 'which CSV format the row came in: liger (its columns below) or run_rows (in fields)';
COMMENT ON COLUMN kernelindex.rejected_rows.fields IS 'a run_rows row''s columns, verbatim, as an object (the columns its COPY named)';

/* ---------------------------------------------------------------------
 * 6a. Ingestion from any harness: kernelindex.run_rows (doc/reference.md, "Any harness")
 *
 *   \copy kernelindex.run_rows (harness, kernel, implementation, gpu,
 *         observed_at, unit, mean, stddev, samples, ...) FROM 'runs.csv'
 *         WITH (FORMAT csv, HEADER MATCH)
 *
 * kernelindex.run_rows is a view with the harness-neutral columns (a COPY
 * names any subset of them) and three triggers in C (src/run_rows.c): each
 * row is checked and becomes a run, through the same run layout and batch
 * writer as Liger rows and documents.  Nothing is kept in the view.
 * kernelindex.harnesses names, for each harness, the implementation its
 * speedups are measured against.
 * --------------------------------------------------------------------- */

CREATE TABLE kernelindex.harnesses (
	name text PRIMARY KEY,
	title text,
	reference_implementation text NOT NULL DEFAULT 'torch',
	builtin boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE kernelindex.harnesses IS
'Harness catalog: a benchmark harness (the protocol''s spec.harness.name; run_rows'' harness column) to its display title and the implementation its speedups are measured against; extend with INSERT';
COMMENT ON COLUMN kernelindex.harnesses.name IS 'the harness as its protocols name it, e.g. kernelbench, Liger-Kernel benchmark scripts';
COMMENT ON COLUMN kernelindex.harnesses.title IS 'display title, e.g. KernelBench';
COMMENT ON COLUMN kernelindex.harnesses.reference_implementation IS 'the implementation (provider) the harness''s speedups are measured against; torch by default';
COMMENT ON COLUMN kernelindex.harnesses.builtin IS 'true for rows the extension seeds (not dumped by pg_dump)';
SELECT pg_catalog.pg_extension_config_dump('kernelindex.harnesses', 'WHERE NOT builtin');
INSERT INTO kernelindex.harnesses (name, title, reference_implementation, builtin) VALUES
('Liger-Kernel benchmark scripts', 'Liger-Kernel', 'torch', true);

-- A view: COPY into it hands each row to its INSTEAD OF trigger; it is always empty.
CREATE VIEW kernelindex.run_rows AS
SELECT NULL::text AS harness, NULL::text AS harness_version, NULL::text AS timer,
	NULL::text AS kernel, NULL::text AS pass, NULL::text AS implementation,
	NULL::text AS workload, NULL::text AS workload_label, NULL::text AS gpu,
	NULL::text AS observed_at, NULL::text AS release, NULL::text AS labels,
	NULL::text AS status, NULL::text AS metric, NULL::text AS unit,
	NULL::text AS primary_statistic, NULL::text AS median, NULL::text AS p20,
	NULL::text AS p80, NULL::text AS mean, NULL::text AS stddev, NULL::text AS min,
	NULL::text AS max, NULL::text AS samples
WHERE false;
COMMENT ON VIEW kernelindex.run_rows IS
'COPY target for any harness''s results, one run a row (a COPY names any subset of the columns; harness, kernel, implementation, gpu, observed_at, unit and one of median, mean, min are required): each row written to it becomes a run; it is always empty';
COMMENT ON COLUMN kernelindex.run_rows.harness IS 'the harness, e.g. kernelbench (required; with timer and pass it makes the protocol; kernelindex.harnesses)';
COMMENT ON COLUMN kernelindex.run_rows.harness_version IS 'its version, where known (the run''s label harness_version)';
COMMENT ON COLUMN kernelindex.run_rows.timer IS 'how the time was taken, e.g. cuda_events, cuda_graph, wall_clock (part of the protocol)';
COMMENT ON COLUMN kernelindex.run_rows.kernel IS 'the kernel or problem measured, as the harness names it (required)';
COMMENT ON COLUMN kernelindex.run_rows.pass IS 'forward, backward, full or the harness''s own word (part of the protocol)';
COMMENT ON COLUMN kernelindex.run_rows.implementation IS 'the implementation measured, e.g. torch, triton (required; kernelindex.providers for its title)';
COMMENT ON COLUMN kernelindex.run_rows.workload IS 'a JSON object of the workload''s parameters (sizes, dtype); none: {}';
COMMENT ON COLUMN kernelindex.run_rows.workload_label IS 'a display label for the workload; none: key=value,... of workload (default for none)';
COMMENT ON COLUMN kernelindex.run_rows.gpu IS 'the device name as the harness reports it (required; kernelindex.gpus; a name it does not know is stored as written, with a NOTICE)';
COMMENT ON COLUMN kernelindex.run_rows.observed_at IS 'when it was measured: RFC 3339, or YYYY-MM-DD HH:MM:SS[.f] (UTC) with an optional offset (required)';
COMMENT ON COLUMN kernelindex.run_rows.release IS 'the release of what was measured (the run''s label release, which the release views order)';
COMMENT ON COLUMN kernelindex.run_rows.labels IS 'a JSON object of strings: further labels of the run';
COMMENT ON COLUMN kernelindex.run_rows.status IS 'passed (the default), or the harness''s word for a failed run';
COMMENT ON COLUMN kernelindex.run_rows.metric IS 'latency (the default) or peak_memory';
COMMENT ON COLUMN kernelindex.run_rows.unit IS 's, ms, us or ns for latency; B, KiB, MiB, GiB, KB, MB or GB for peak memory (required); converted exactly to whole ns or bytes, rounded half away from zero';
COMMENT ON COLUMN kernelindex.run_rows.primary_statistic IS 'median, mean or min: the statistic the run is compared on; none: the median where given, else the mean, else the min';
COMMENT ON COLUMN kernelindex.run_rows.median IS 'the median, a decimal number in unit';
COMMENT ON COLUMN kernelindex.run_rows.p20 IS 'the 20th percentile, a decimal number in unit';
COMMENT ON COLUMN kernelindex.run_rows.p80 IS 'the 80th percentile, a decimal number in unit';
COMMENT ON COLUMN kernelindex.run_rows.mean IS 'the mean, a decimal number in unit';
COMMENT ON COLUMN kernelindex.run_rows.stddev IS 'the standard deviation, a decimal number in unit';
COMMENT ON COLUMN kernelindex.run_rows.min IS 'the minimum, a decimal number in unit';
COMMENT ON COLUMN kernelindex.run_rows.max IS 'the maximum, a decimal number in unit';
COMMENT ON COLUMN kernelindex.run_rows.samples IS 'the number of trials behind the statistics, a whole number';

CREATE FUNCTION kernelindex.run_rows_begin()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_run_rows_begin' LANGUAGE C;
COMMENT ON FUNCTION kernelindex.run_rows_begin() IS
'BEFORE INSERT statement trigger of kernelindex.run_rows: begins the statement''s batch, reads the catalogs';

CREATE FUNCTION kernelindex.run_rows_row()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_run_rows_row' LANGUAGE C;
COMMENT ON FUNCTION kernelindex.run_rows_row() IS
'INSTEAD OF INSERT trigger of kernelindex.run_rows: checks one row and makes its run (a bad row fails the statement, or is quarantined)';

CREATE FUNCTION kernelindex.run_rows_end()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_run_rows_end' LANGUAGE C;
COMMENT ON FUNCTION kernelindex.run_rows_end() IS
'AFTER INSERT statement trigger of kernelindex.run_rows: stores the statement''s last batch';

CREATE TRIGGER run_rows_begin
BEFORE INSERT ON kernelindex.run_rows
FOR EACH STATEMENT EXECUTE FUNCTION kernelindex.run_rows_begin();
COMMENT ON TRIGGER run_rows_begin ON kernelindex.run_rows IS
'begins turning an INSERT or COPY into runs';

CREATE TRIGGER run_rows_row
INSTEAD OF INSERT ON kernelindex.run_rows
FOR EACH ROW EXECUTE FUNCTION kernelindex.run_rows_row();
COMMENT ON TRIGGER run_rows_row ON kernelindex.run_rows IS
'each row is checked and becomes a run of its group (the rows that differ from it only in time and statistics)';

CREATE TRIGGER run_rows_end
AFTER INSERT ON kernelindex.run_rows
FOR EACH STATEMENT EXECUTE FUNCTION kernelindex.run_rows_end();
COMMENT ON TRIGGER run_rows_end ON kernelindex.run_rows IS
'stores what the statement has not stored yet';

/* The views, made again: every view pairs runs on their primary statistic. */
DROP VIEW kernelindex.release_speedups, kernelindex.speedup_since, kernelindex.release_changes,
	kernelindex.release_runs, kernelindex.speedups, kernelindex.latest_runs, kernelindex.run_facts,
	kernelindex.run_bundles_citus;

CREATE FUNCTION kernelindex.primary_value(statistic text, median bigint, mean bigint, min bigint)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE statistic WHEN 'mean' THEN mean WHEN 'min' THEN min ELSE median END;
COMMENT ON FUNCTION kernelindex.primary_value(text, bigint, bigint, bigint) IS
'the value of a run''s primary statistic (median, mean or min, as its template names it) among its median, mean and min';

CREATE FUNCTION kernelindex.runs_p_value(a_mean bigint, a_stddev bigint, a_samples bigint,
	b_mean bigint, b_stddev bigint, b_samples bigint)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN kernelindex.welch_p_value(a_mean::double precision, a_stddev::double precision, a_samples,
	b_mean::double precision, b_stddev::double precision, b_samples);
COMMENT ON FUNCTION kernelindex.runs_p_value(bigint, bigint, bigint, bigint, bigint, bigint) IS
'the two-sided p-value of Welch''s t-test between two runs'' means (their standard deviations and samples): NULL unless both runs report all three, with at least 2 samples each';

CREATE FUNCTION kernelindex.outside_noise(a_p20 bigint, a_p80 bigint, b_p20 bigint, b_p80 bigint,
	p_value double precision)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN a_p20 IS NOT NULL AND a_p80 IS NOT NULL AND b_p20 IS NOT NULL AND b_p80 IS NOT NULL
	THEN kernelindex.bands_apart(a_p20, a_p80, b_p20, b_p80)
	ELSE p_value OPERATOR(pg_catalog.<) 0.01 END;
COMMENT ON FUNCTION kernelindex.outside_noise(bigint, bigint, bigint, bigint, double precision) IS
'whether two runs differ outside the measurement noise: where both have p20-p80 bands, the bands do not overlap; else, where both have mean, standard deviation and samples, Welch''s t-test gives p < 0.01 (the p_value given); else NULL';

/* --- The views ------------------------------------------------------------ */

DO $views$
DECLARE
	-- Narrow rows: a run, its key's resources, what the passes partition
	-- and order by.
	run_rows CONSTANT text := $q$
SELECT q.*,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN 'latency'
		WHEN q.peak_bytes_primary IS NOT NULL THEN 'peak_memory' END AS metric,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_statistic
		WHEN q.peak_bytes_primary IS NOT NULL THEN q.memory_statistic END AS primary_statistic,
	COALESCE(q.latency_ns_primary, q.peak_bytes_primary) AS value,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_p20 ELSE q.peak_bytes_p20 END AS value_p20,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_p80 ELSE q.peak_bytes_p80 END AS value_p80,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_mean ELSE q.peak_bytes_mean END AS value_mean,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_stddev ELSE q.peak_bytes_stddev END AS value_stddev,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_samples ELSE q.peak_samples END AS value_samples
FROM (
SELECT r.*, k.protocol_id, k.workload_id, k.environment_id,
	w.kernel, w.label AS workload_label, e.product AS gpu, e.form_factor AS gpu_form_factor,
	i.provider, p.harness,
	COALESCE(i.provider OPERATOR(pg_catalog.=) hn.reference_implementation, pv.is_reference, false) AS is_reference,
	l.release, tp.latency_statistic, tp.memory_statistic,
	kernelindex.primary_value(tp.latency_statistic, r.latency_ns, r.latency_ns_mean, r.latency_ns_min) AS latency_ns_primary,
	kernelindex.primary_value(tp.memory_statistic, r.peak_bytes, r.peak_bytes_mean, r.peak_bytes_min) AS peak_bytes_primary
FROM kernelindex.runs r
JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) r.comparability_key
JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id
JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) k.protocol_id
JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) r.implementation_id
JOIN kernelindex.run_templates tp ON tp.id OPERATOR(pg_catalog.=) r.template_id
LEFT JOIN kernelindex.harnesses hn ON hn.name OPERATOR(pg_catalog.=) p.harness
LEFT JOIN kernelindex.providers pv ON pv.name OPERATOR(pg_catalog.=) i.provider
LEFT JOIN kernelindex.run_labels l ON l.id OPERATOR(pg_catalog.=) r.labels_id
) q
$q$;
	-- The columns of run_facts, over a source s of run rows, and what they
	-- read.  Every row they join exists (the references of runs and keys
	-- are checked); the joins are LEFT JOINs so that the planner keeps
	-- the number of rows of a source whose columns it has no statistics
	-- for (DISTINCT ON, a window), instead of taking each join for a
	-- filter.
	facts CONSTANT text := $q$
	s.digest::text AS run_digest,
	s.comparability_key::text AS comparability_key,
	p.digest::text AS protocol_digest,
	w.digest::text AS workload_digest,
	e.digest::text AS environment_digest,
	i.digest::text AS implementation_digest,
	s.observed_at,
	s.metric,
	s.kernel,
	COALESCE(kc.title, s.kernel) AS kernel_title,
	s.provider,
	COALESCE(pv.title, s.provider) AS provider_title,
	s.is_reference,
	COALESCE(p.pass, b.pass) AS pass,
	s.workload_label,
	w.title AS workload_title,
	s.release,
	t.value AS run_title,
	st.value AS status,
	s.gpu,
	e.vendor AS gpu_vendor,
	s.gpu_form_factor,
	e.architecture AS gpu_architecture,
	e.title AS environment_title,
	p.title AS protocol_title,
	s.latency_ns,
	s.latency_ns_p20,
	s.latency_ns_p80,
	kernelindex.ns_to_ms(s.latency_ns) AS latency_ms,
	kernelindex.ns_to_ms(s.latency_ns_p20) AS latency_ms_p20,
	kernelindex.ns_to_ms(s.latency_ns_p80) AS latency_ms_p80,
	s.peak_bytes,
	s.peak_bytes_p20,
	s.peak_bytes_p80,
	kernelindex.bytes_to_mib(s.peak_bytes) AS peak_mib,
	kernelindex.bytes_to_mib(s.peak_bytes_p20) AS peak_mib_p20,
	kernelindex.bytes_to_mib(s.peak_bytes_p80) AS peak_mib_p80,
	src.value AS source,
	kernelindex.external_id_of(tp.external_id_form, b.value, x.value, s.workload_label, s.observed_at) AS external_id,
	b.value AS benchmark,
	s.harness,
	s.primary_statistic,
	s.latency_ns_mean,
	s.latency_ns_stddev,
	s.latency_ns_min,
	s.latency_ns_max,
	s.latency_samples,
	s.latency_ns_primary,
	kernelindex.ns_to_ms(s.latency_ns_mean) AS latency_ms_mean,
	kernelindex.ns_to_ms(s.latency_ns_stddev) AS latency_ms_stddev,
	kernelindex.ns_to_ms(s.latency_ns_min) AS latency_ms_min,
	kernelindex.ns_to_ms(s.latency_ns_max) AS latency_ms_max,
	kernelindex.ns_to_ms(s.latency_ns_primary) AS latency_ms_primary,
	s.peak_bytes_mean,
	s.peak_bytes_stddev,
	s.peak_bytes_min,
	s.peak_bytes_max,
	s.peak_samples,
	s.peak_bytes_primary,
	kernelindex.bytes_to_mib(s.peak_bytes_primary) AS peak_mib_primary$q$;
	facts_joins CONSTANT text := $q$
LEFT JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) s.protocol_id
LEFT JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) s.workload_id
LEFT JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) s.environment_id
LEFT JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) s.implementation_id
LEFT JOIN kernelindex.run_templates tp ON tp.id OPERATOR(pg_catalog.=) s.template_id
LEFT JOIN kernelindex.run_statuses st ON st.id OPERATOR(pg_catalog.=) s.status_id
LEFT JOIN kernelindex.run_titles t ON t.id OPERATOR(pg_catalog.=) s.title_id
LEFT JOIN kernelindex.run_sources src ON src.id OPERATOR(pg_catalog.=) s.source_id
LEFT JOIN kernelindex.run_benchmarks b ON b.id OPERATOR(pg_catalog.=) s.benchmark_id
LEFT JOIN kernelindex.run_strings x ON x.id OPERATOR(pg_catalog.=) s.external_id_id
LEFT JOIN kernelindex.kernels kc ON kc.name OPERATOR(pg_catalog.=) s.kernel
LEFT JOIN kernelindex.providers pv ON pv.name OPERATOR(pg_catalog.=) s.provider$q$;
	-- The partition of a series' comparisons: its key (and what the key
	-- determines, for filters), without the implementation.
	by_key CONSTANT text := 's.comparability_key, s.kernel, s.workload_label, s.gpu, s.gpu_form_factor';
	-- Per comparability key, implementation and release: the latest run,
	-- the reference's latest run of the same key and release (r_*), the
	-- release's rank, and the ratio to the reference.  The reference's
	-- numbers and texts travel through the window as one array each (as
	-- in referenced_rows).
	release_rows text;
	-- Each non-reference run with the reference's latest run of the same
	-- release, else of any release (ref_*).  The reference's numbers and
	-- texts travel through each window as one array each (a first_value
	-- a column costs a window call a row each: a full read of speedups was
	-- 7.2x a full read of runs that way, on 200k release-shaped runs).
	referenced_rows text;
	-- A view over a source of run rows: the columns of run_facts (and
	-- those the source adds, as extras).
	facts_of CONSTANT text := 'SELECT %s%s FROM (%s) s %s';
BEGIN
	release_rows := pg_catalog.format($q$
SELECT q.*,
	CASE WHEN q.has_reference AND q.primary_statistic OPERATOR(pg_catalog.=) q.r_statistic
		THEN kernelindex.ratio(q.r_value, q.value) END AS ratio,
	CASE WHEN q.has_reference THEN kernelindex.outside_noise(q.value_p20, q.value_p80, q.r_value_p20, q.r_value_p80,
		kernelindex.runs_p_value(q.value_mean, q.value_stddev, q.value_samples,
			q.r_value_mean, q.r_value_stddev, q.r_value_samples)) END AS outside_noise,
	CASE WHEN q.has_reference THEN kernelindex.runs_p_value(q.value_mean, q.value_stddev, q.value_samples,
			q.r_value_mean, q.r_value_stddev, q.r_value_samples) END AS p_value
FROM (
	SELECT q0.*,
		q0.r_texts[1] AS r_provider,
		q0.r_texts[2] AS r_statistic,
		q0.r_numbers[1] AS r_latency_ns,
		q0.r_numbers[2] AS r_latency_ns_p20,
		q0.r_numbers[3] AS r_latency_ns_p80,
		q0.r_numbers[4] AS r_peak_bytes,
		q0.r_numbers[5] AS r_peak_bytes_p20,
		q0.r_numbers[6] AS r_peak_bytes_p80,
		q0.r_numbers[7] AS r_value,
		q0.r_numbers[8] AS r_value_p20,
		q0.r_numbers[9] AS r_value_p80,
		q0.r_numbers[10] AS r_value_mean,
		q0.r_numbers[11] AS r_value_stddev,
		q0.r_numbers[12] AS r_value_samples
	FROM (
		SELECT s.*, rel.release_rank,
			pg_catalog.first_value(s.is_reference) OVER w AND NOT s.is_reference AS has_reference,
			pg_catalog.first_value(s.digest) OVER w AS r_digest,
			pg_catalog.first_value(ARRAY[s.provider, s.primary_statistic]) OVER w AS r_texts,
			pg_catalog.first_value(ARRAY[s.latency_ns, s.latency_ns_p20, s.latency_ns_p80, s.peak_bytes, s.peak_bytes_p20, s.peak_bytes_p80, s.value, s.value_p20, s.value_p80, s.value_mean, s.value_stddev, s.value_samples]) OVER w AS r_numbers
		FROM (SELECT DISTINCT ON (%1$s, s.implementation_id, s.release) s.*
			  FROM (%2$s) s
			  WHERE s.release IS NOT NULL
			  ORDER BY %1$s, s.implementation_id, s.release, s.observed_at DESC, s.digest DESC) s
		JOIN kernelindex.release_ranks rel ON rel.release OPERATOR(pg_catalog.=) s.release
		WINDOW w AS (PARTITION BY %1$s, s.release
			ORDER BY s.is_reference DESC, s.observed_at DESC, s.digest DESC)
	) q0
) q$q$, by_key, run_rows);

	referenced_rows := pg_catalog.format($q$
SELECT c.*,
	CASE WHEN c.same_is_reference THEN c.same_digest ELSE c.any_digest END AS ref_digest,
	CASE WHEN c.same_is_reference THEN c.same_observed_at ELSE c.any_observed_at END AS ref_observed_at,
	(CASE WHEN c.same_is_reference THEN c.same_texts ELSE c.any_texts END)[1] AS ref_provider,
	(CASE WHEN c.same_is_reference THEN c.same_texts ELSE c.any_texts END)[2] AS ref_release,
	(CASE WHEN c.same_is_reference THEN c.same_texts ELSE c.any_texts END)[3] AS ref_statistic,
	(CASE WHEN c.same_is_reference THEN c.same_numbers ELSE c.any_numbers END)[1] AS ref_latency_ns,
	(CASE WHEN c.same_is_reference THEN c.same_numbers ELSE c.any_numbers END)[2] AS ref_latency_ns_p20,
	(CASE WHEN c.same_is_reference THEN c.same_numbers ELSE c.any_numbers END)[3] AS ref_latency_ns_p80,
	(CASE WHEN c.same_is_reference THEN c.same_numbers ELSE c.any_numbers END)[4] AS ref_peak_bytes,
	(CASE WHEN c.same_is_reference THEN c.same_numbers ELSE c.any_numbers END)[5] AS ref_peak_bytes_p20,
	(CASE WHEN c.same_is_reference THEN c.same_numbers ELSE c.any_numbers END)[6] AS ref_peak_bytes_p80,
	(CASE WHEN c.same_is_reference THEN c.same_numbers ELSE c.any_numbers END)[7] AS ref_value,
	(CASE WHEN c.same_is_reference THEN c.same_numbers ELSE c.any_numbers END)[8] AS ref_value_p20,
	(CASE WHEN c.same_is_reference THEN c.same_numbers ELSE c.any_numbers END)[9] AS ref_value_p80,
	(CASE WHEN c.same_is_reference THEN c.same_numbers ELSE c.any_numbers END)[10] AS ref_value_mean,
	(CASE WHEN c.same_is_reference THEN c.same_numbers ELSE c.any_numbers END)[11] AS ref_value_stddev,
	(CASE WHEN c.same_is_reference THEN c.same_numbers ELSE c.any_numbers END)[12] AS ref_value_samples
FROM (
	SELECT s.*,
		pg_catalog.first_value(s.is_reference) OVER same AS same_is_reference,
		pg_catalog.first_value(s.digest) OVER same AS same_digest,
		pg_catalog.first_value(s.observed_at) OVER same AS same_observed_at,
		pg_catalog.first_value(ARRAY[s.provider, s.release, s.primary_statistic]) OVER same AS same_texts,
		pg_catalog.first_value(ARRAY[s.latency_ns, s.latency_ns_p20, s.latency_ns_p80, s.peak_bytes, s.peak_bytes_p20, s.peak_bytes_p80, s.value, s.value_p20, s.value_p80, s.value_mean, s.value_stddev, s.value_samples]) OVER same AS same_numbers,
		pg_catalog.first_value(s.is_reference) OVER any_release AS any_is_reference,
		pg_catalog.first_value(s.digest) OVER any_release AS any_digest,
		pg_catalog.first_value(s.observed_at) OVER any_release AS any_observed_at,
		pg_catalog.first_value(ARRAY[s.provider, s.release, s.primary_statistic]) OVER any_release AS any_texts,
		pg_catalog.first_value(ARRAY[s.latency_ns, s.latency_ns_p20, s.latency_ns_p80, s.peak_bytes, s.peak_bytes_p20, s.peak_bytes_p80, s.value, s.value_p20, s.value_p80, s.value_mean, s.value_stddev, s.value_samples]) OVER any_release AS any_numbers
	FROM (%2$s) s
	WINDOW any_release AS (PARTITION BY %1$s ORDER BY s.is_reference DESC, s.observed_at DESC, s.digest DESC),
		same AS (PARTITION BY %1$s, s.release ORDER BY s.is_reference DESC, s.observed_at DESC, s.digest DESC)
) c
WHERE NOT c.is_reference AND c.any_is_reference$q$, by_key, run_rows);

	/* One row per run. */
	EXECUTE 'CREATE VIEW kernelindex.run_facts AS '
		|| pg_catalog.format(facts_of, facts, '', run_rows, facts_joins);

	/* The latest run per comparability key and implementation. */
	EXECUTE 'CREATE VIEW kernelindex.latest_runs AS '
		|| pg_catalog.format(facts_of, facts, '', pg_catalog.format(
			'SELECT DISTINCT ON (%1$s, s.implementation_id) s.* FROM (%2$s) s'
			' ORDER BY %1$s, s.implementation_id, s.observed_at DESC, s.digest DESC', by_key, run_rows),
			facts_joins);

	/* Each run against the reference implementation. */
	EXECUTE pg_catalog.format($v$
CREATE VIEW kernelindex.speedups AS
SELECT
	f.kernel,
	f.kernel_title,
	f.pass,
	f.metric,
	f.gpu,
	f.gpu_form_factor,
	f.workload_label,
	f.provider,
	f.provider_title,
	f.release,
	f.observed_at,
	f.reference_provider,
	COALESCE(rpv.title, f.reference_provider) AS reference_provider_title,
	f.reference_release,
	f.reference_observed_at,
	f.same_release,
	f.latency_ns,
	f.latency_ns_p20,
	f.latency_ns_p80,
	f.latency_ms,
	f.latency_ms_p20,
	f.latency_ms_p80,
	f.reference_latency_ns,
	f.reference_latency_ns_p20,
	f.reference_latency_ns_p80,
	kernelindex.ns_to_ms(f.reference_latency_ns) AS reference_latency_ms,
	kernelindex.ns_to_ms(f.reference_latency_ns_p20) AS reference_latency_ms_p20,
	kernelindex.ns_to_ms(f.reference_latency_ns_p80) AS reference_latency_ms_p80,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'latency'
		AND f.primary_statistic OPERATOR(pg_catalog.=) f.reference_primary_statistic
		THEN kernelindex.ratio(f.reference_value, f.value) END AS speedup,
	f.peak_bytes,
	f.peak_bytes_p20,
	f.peak_bytes_p80,
	f.peak_mib,
	f.reference_peak_bytes,
	f.reference_peak_bytes_p20,
	f.reference_peak_bytes_p80,
	kernelindex.bytes_to_mib(f.reference_peak_bytes) AS reference_peak_mib,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'peak_memory'
		AND f.primary_statistic OPERATOR(pg_catalog.=) f.reference_primary_statistic
		THEN kernelindex.ratio(f.reference_value, f.value) END AS memory_ratio,
	kernelindex.outside_noise(f.value_p20, f.value_p80, f.reference_value_p20, f.reference_value_p80,
		f.p_value) AS outside_noise,
	f.comparability_key,
	f.implementation_digest,
	f.run_digest,
	f.reference_run_digest,
	f.harness,
	f.primary_statistic,
	f.reference_primary_statistic,
	f.latency_ns_primary,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'latency' THEN f.reference_value END AS reference_latency_ns_primary,
	f.peak_bytes_primary,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN f.reference_value END AS reference_peak_bytes_primary,
	f.p_value
FROM (%s) f
LEFT JOIN kernelindex.providers rpv ON rpv.name OPERATOR(pg_catalog.=) f.reference_provider$v$,
		pg_catalog.format(facts_of, facts, ',
	s.ref_provider AS reference_provider,
	s.ref_release AS reference_release,
	s.ref_observed_at AS reference_observed_at,
	s.same_is_reference AS same_release,
	s.ref_latency_ns AS reference_latency_ns,
	s.ref_latency_ns_p20 AS reference_latency_ns_p20,
	s.ref_latency_ns_p80 AS reference_latency_ns_p80,
	s.ref_peak_bytes AS reference_peak_bytes,
	s.ref_peak_bytes_p20 AS reference_peak_bytes_p20,
	s.ref_peak_bytes_p80 AS reference_peak_bytes_p80,
	s.ref_digest::text AS reference_run_digest,
	s.value, s.value_p20, s.value_p80,
	s.ref_statistic AS reference_primary_statistic,
	s.ref_value AS reference_value,
	s.ref_value_p20 AS reference_value_p20,
	s.ref_value_p80 AS reference_value_p80,
	kernelindex.runs_p_value(s.value_mean, s.value_stddev, s.value_samples,
		s.ref_value_mean, s.ref_value_stddev, s.ref_value_samples) AS p_value', referenced_rows, facts_joins));

	/* Per release: one run per workload and implementation. */
	EXECUTE pg_catalog.format($v$
CREATE VIEW kernelindex.release_runs AS
SELECT f.kernel, f.kernel_title, f.pass, f.metric, f.gpu, f.gpu_form_factor, f.workload_label,
	f.provider, f.provider_title, f.is_reference, f.release, f.release_rank, f.observed_at,
	f.latency_ns, f.latency_ns_p20, f.latency_ns_p80, f.latency_ms,
	f.peak_bytes, f.peak_bytes_p20, f.peak_bytes_p80, f.peak_mib,
	f.reference_provider,
	f.reference_latency_ns,
	kernelindex.ns_to_ms(f.reference_latency_ns) AS reference_latency_ms,
	f.reference_latency_ns_p20,
	f.reference_latency_ns_p80,
	f.reference_peak_bytes,
	kernelindex.bytes_to_mib(f.reference_peak_bytes) AS reference_peak_mib,
	f.reference_peak_bytes_p20,
	f.reference_peak_bytes_p80,
	f.ratio,
	f.outside_noise,
	f.comparability_key, f.implementation_digest, f.run_digest, f.reference_run_digest,
	f.harness, f.primary_statistic, f.p_value
FROM (%s) f$v$,
		pg_catalog.format(facts_of, facts, ',
	s.p_value,
	s.release_rank,
	CASE WHEN s.has_reference THEN s.r_provider END AS reference_provider,
	CASE WHEN s.has_reference THEN s.r_latency_ns END AS reference_latency_ns,
	CASE WHEN s.has_reference THEN s.r_latency_ns_p20 END AS reference_latency_ns_p20,
	CASE WHEN s.has_reference THEN s.r_latency_ns_p80 END AS reference_latency_ns_p80,
	CASE WHEN s.has_reference THEN s.r_peak_bytes END AS reference_peak_bytes,
	CASE WHEN s.has_reference THEN s.r_peak_bytes_p20 END AS reference_peak_bytes_p20,
	CASE WHEN s.has_reference THEN s.r_peak_bytes_p80 END AS reference_peak_bytes_p80,
	s.ratio,
	s.outside_noise,
	CASE WHEN s.has_reference THEN s.r_digest::text END AS reference_run_digest', release_rows, facts_joins));

	/* Each pair of consecutive releases of a series. */
	EXECUTE pg_catalog.format($v$
CREATE VIEW kernelindex.release_changes AS
SELECT f.kernel, f.kernel_title, f.pass, f.metric, f.gpu, f.gpu_form_factor, f.workload_label,
	f.provider, f.provider_title,
	f.old_release, f.release AS new_release,
	f.old_release_rank, f.new_release_rank,
	f.old_latency_ns, f.latency_ns AS new_latency_ns,
	kernelindex.ns_to_ms(f.old_latency_ns) AS old_latency_ms, f.latency_ms AS new_latency_ms,
	f.old_peak_bytes, f.peak_bytes AS new_peak_bytes,
	f.ratio,
	f.outside_noise,
	f.regression_rank,
	f.comparability_key, f.implementation_digest, f.old_run_digest, f.run_digest AS new_run_digest,
	f.harness, f.primary_statistic, f.old_value, f.new_value, f.change_p_value AS p_value
FROM (%s) f$v$,
		pg_catalog.format(facts_of, facts, ',
	s.previous_release AS old_release,
	s.previous_release_rank AS old_release_rank,
	s.release_rank AS new_release_rank,
	s.previous_latency_ns AS old_latency_ns,
	s.previous_peak_bytes AS old_peak_bytes,
	s.previous_value AS old_value,
	s.value AS new_value,
	s.change_p_value,
	s.change AS ratio,
	s.apart AS outside_noise,
	s.regression_rank,
	s.previous_digest::text AS old_run_digest',
		pg_catalog.format($q$
SELECT d.*,
	pg_catalog.rank() OVER (ORDER BY COALESCE(d.apart AND d.change OPERATOR(pg_catalog.>) 1, false) DESC,
		d.change DESC NULLS LAST) AS regression_rank
FROM (
SELECT c.*,
	CASE WHEN c.primary_statistic OPERATOR(pg_catalog.=) c.previous_statistic
		THEN kernelindex.ratio(c.value, c.previous_value) END AS change,
	kernelindex.outside_noise(c.value_p20, c.value_p80, c.previous_value_p20, c.previous_value_p80,
		kernelindex.runs_p_value(c.value_mean, c.value_stddev, c.value_samples,
			c.previous_value_mean, c.previous_value_stddev, c.previous_value_samples)) AS apart,
	kernelindex.runs_p_value(c.value_mean, c.value_stddev, c.value_samples,
		c.previous_value_mean, c.previous_value_stddev, c.previous_value_samples) AS change_p_value
FROM (
	SELECT c0.*,
		c0.previous_numbers[1] AS previous_latency_ns,
		c0.previous_numbers[2] AS previous_latency_ns_p20,
		c0.previous_numbers[3] AS previous_latency_ns_p80,
		c0.previous_numbers[4] AS previous_peak_bytes,
		c0.previous_numbers[5] AS previous_peak_bytes_p20,
		c0.previous_numbers[6] AS previous_peak_bytes_p80,
		c0.previous_numbers[7] AS previous_value,
		c0.previous_numbers[8] AS previous_value_p20,
		c0.previous_numbers[9] AS previous_value_p80,
		c0.previous_numbers[10] AS previous_value_mean,
		c0.previous_numbers[11] AS previous_value_stddev,
		c0.previous_numbers[12] AS previous_value_samples
	FROM (
		SELECT s.*,
			pg_catalog.lag(s.release) OVER w AS previous_release,
			pg_catalog.lag(s.release_rank) OVER w AS previous_release_rank,
			pg_catalog.lag(s.digest) OVER w AS previous_digest,
			pg_catalog.lag(s.primary_statistic) OVER w AS previous_statistic,
			pg_catalog.lag(ARRAY[s.latency_ns, s.latency_ns_p20, s.latency_ns_p80, s.peak_bytes, s.peak_bytes_p20, s.peak_bytes_p80, s.value, s.value_p20, s.value_p80, s.value_mean, s.value_stddev, s.value_samples]) OVER w AS previous_numbers
		FROM (%2$s) s
		WINDOW w AS (PARTITION BY %1$s, s.implementation_id ORDER BY s.release_rank)
	) c0
) c
WHERE c.previous_release IS NOT NULL
) d$q$, by_key, release_rows), facts_joins));

	/* Since which release a series beats the reference. */
	EXECUTE pg_catalog.format($v$
CREATE VIEW kernelindex.speedup_since AS
SELECT f.kernel, f.kernel_title, f.pass, f.metric, f.gpu, f.gpu_form_factor, f.workload_label,
	f.provider, f.provider_title,
	f.since_release,
	f.since_release_rank,
	f.since_speedup,
	f.release AS latest_release,
	f.latest_release_rank,
	f.latest_speedup,
	f.still_faster,
	f.comparability_key, f.implementation_digest
FROM (%s) f$v$,
		pg_catalog.format(facts_of, facts, ',
	CASE WHEN s.beat THEN s.beat_release END AS since_release,
	CASE WHEN s.beat THEN s.beat_release_rank END AS since_release_rank,
	CASE WHEN s.beat THEN s.beat_ratio END AS since_speedup,
	s.release_rank AS latest_release_rank,
	s.ratio AS latest_speedup,
	COALESCE(s.ratio OPERATOR(pg_catalog.>) 1 AND s.outside_noise, false) AS still_faster',
		pg_catalog.format($q$
SELECT c.* FROM (
	SELECT s.*,
		-- the first release that beat the reference outside the noise
		pg_catalog.first_value(s.release) OVER beat AS beat_release,
		pg_catalog.first_value(s.release_rank) OVER beat AS beat_release_rank,
		pg_catalog.first_value(s.ratio) OVER beat AS beat_ratio,
		pg_catalog.first_value(s.ratio OPERATOR(pg_catalog.>) 1 AND s.outside_noise) OVER beat AS beat,
		pg_catalog.row_number() OVER latest AS latest_number
	FROM (%2$s) s
	WHERE NOT s.is_reference AND s.has_reference
	WINDOW beat AS (PARTITION BY %1$s, s.implementation_id
			ORDER BY COALESCE(s.ratio OPERATOR(pg_catalog.>) 1 AND s.outside_noise, false) DESC, s.release_rank),
		latest AS (PARTITION BY %1$s, s.implementation_id ORDER BY s.release_rank DESC)
) c
WHERE c.latest_number OPERATOR(pg_catalog.=) 1$q$, by_key, release_rows), facts_joins));
END
$views$;

/* --- Comments --------------------------------------------------------- */

COMMENT ON VIEW kernelindex.run_facts IS
'one row per stored run, flat: digests as text, latency in ns and ms, peak memory in bytes and MiB (median, p20, p80), kernel, provider, pass, GPU, workload label, release';
COMMENT ON COLUMN kernelindex.run_facts.run_digest IS 'the run''s resource digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.comparability_key IS 'comparability key, sha256:<hex>: runs with equal keys may be compared';
COMMENT ON COLUMN kernelindex.run_facts.protocol_digest IS 'protocol digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.workload_digest IS 'workload digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.environment_digest IS 'environment digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.observed_at IS 'when the run was measured';
COMMENT ON COLUMN kernelindex.run_facts.metric IS 'latency or peak_memory';
COMMENT ON COLUMN kernelindex.run_facts.kernel IS 'kernel name (the workload''s spec.kernel; NULL while the workload is known by digest only)';
COMMENT ON COLUMN kernelindex.run_facts.kernel_title IS 'kernel title from kernelindex.kernels';
COMMENT ON COLUMN kernelindex.run_facts.provider IS 'implementation provider, e.g. torch, liger';
COMMENT ON COLUMN kernelindex.run_facts.provider_title IS 'provider title from kernelindex.providers, e.g. PyTorch';
COMMENT ON COLUMN kernelindex.run_facts.is_reference IS 'true for the reference implementation of the run''s harness (kernelindex.harnesses.reference_implementation; torch by default)';
COMMENT ON COLUMN kernelindex.run_facts.pass IS 'timed pass: forward, backward, full, or the harness''s word (the protocol''s pass, else the benchmark name''s second part)';
COMMENT ON COLUMN kernelindex.run_facts.workload_label IS 'workload label, e.g. features16384-tokens2048-fp32';
COMMENT ON COLUMN kernelindex.run_facts.workload_title IS 'workload title (kernel title and label)';
COMMENT ON COLUMN kernelindex.run_facts.release IS 'release label of the run (liger_version)';
COMMENT ON COLUMN kernelindex.run_facts.run_title IS 'run title: kernel title · provider · pass';
COMMENT ON COLUMN kernelindex.run_facts.status IS 'run status, e.g. passed';
COMMENT ON COLUMN kernelindex.run_facts.gpu IS 'GPU product, e.g. NVIDIA A100';
COMMENT ON COLUMN kernelindex.run_facts.gpu_vendor IS 'GPU vendor: nvidia, amd, intel';
COMMENT ON COLUMN kernelindex.run_facts.gpu_form_factor IS 'GPU board variant, e.g. SXM4-80GB';
COMMENT ON COLUMN kernelindex.run_facts.gpu_architecture IS 'GPU architecture, e.g. sm_80';
COMMENT ON COLUMN kernelindex.run_facts.environment_title IS 'environment title, e.g. Liger benchmark host · A100-SXM4-80GB';
COMMENT ON COLUMN kernelindex.run_facts.protocol_title IS 'protocol title, e.g. Liger benchmark harness · forward pass';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns IS 'median latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_p20 IS 'p20 latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_p80 IS 'p80 latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms IS 'median latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_p20 IS 'p20 latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_p80 IS 'p80 latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes IS 'median peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_p20 IS 'p20 peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_p80 IS 'p80 peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib IS 'median peak memory, MiB (exact)';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib_p20 IS 'p20 peak memory, MiB (exact)';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib_p80 IS 'p80 peak memory, MiB (exact)';
COMMENT ON COLUMN kernelindex.run_facts.source IS 'source of the run (sourceNative.source), e.g. liger-kernel-bench';
COMMENT ON COLUMN kernelindex.run_facts.external_id IS 'the source''s own id of the run (sourceNative.externalId)';
COMMENT ON COLUMN kernelindex.run_facts.benchmark IS 'the source''s benchmark name (sourceNative.benchmark), e.g. sparsemax/backward';
COMMENT ON COLUMN kernelindex.run_facts.harness IS 'the harness that measured the run (its protocol''s spec.harness.name), e.g. kernelbench';
COMMENT ON COLUMN kernelindex.run_facts.primary_statistic IS 'the statistic the run is compared on: median, mean or min (its primaryStatistic; median when it names none)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_mean IS 'mean latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_stddev IS 'standard deviation of the latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_min IS 'minimum latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_max IS 'maximum latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_samples IS 'number of trials behind the latency statistics';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_primary IS 'the latency the run is compared on (its primary statistic), nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_mean IS 'mean latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_stddev IS 'standard deviation of the latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_min IS 'minimum latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_max IS 'maximum latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_primary IS 'the latency the run is compared on, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_mean IS 'mean peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_stddev IS 'standard deviation of the peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_min IS 'minimum peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_max IS 'maximum peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_samples IS 'number of trials behind the peak memory statistics';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_primary IS 'the peak memory the run is compared on (its primary statistic), bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib_primary IS 'the peak memory the run is compared on, MiB (exact)';


COMMENT ON VIEW kernelindex.latest_runs IS
'the latest run (by observed_at) per comparability key and implementation: what each implementation measures now on each workload and GPU, with the columns of run_facts';

/*
 * A view that shows the rows of run_facts has its columns' comments: copied
 * here from run_facts, so that they are written once.
 */
DO $$
DECLARE
	c record;
BEGIN
	FOR c IN SELECT a.attname, pg_catalog.col_description(a.attrelid, a.attnum) AS note
			 FROM pg_catalog.pg_attribute a
			 WHERE a.attrelid OPERATOR(pg_catalog.=) 'kernelindex.run_facts'::pg_catalog.regclass
			   AND a.attnum OPERATOR(pg_catalog.>) 0
	LOOP
		EXECUTE pg_catalog.format('COMMENT ON COLUMN kernelindex.latest_runs.%I IS %L', c.attname, c.note);
	END LOOP;
END
$$;

COMMENT ON VIEW kernelindex.speedups IS
'each run of a non-reference implementation against the reference implementation (the harness''s reference implementation, kernelindex.harnesses; torch by default) under the same comparability key (same protocol, workload and GPU): the reference''s latest run of the same release, else of any release (see same_release); speedup = reference latency / latency for latency rows, memory_ratio = reference peak memory / peak memory for memory rows; outside_noise when the two p20-p80 bands do not overlap';
COMMENT ON COLUMN kernelindex.speedups.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.speedups.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.speedups.pass IS 'timed pass: forward, backward, full';
COMMENT ON COLUMN kernelindex.speedups.metric IS 'latency (speedup is set) or peak_memory (memory_ratio is set)';
COMMENT ON COLUMN kernelindex.speedups.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.speedups.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.speedups.workload_label IS 'workload label';
COMMENT ON COLUMN kernelindex.speedups.provider IS 'provider of the run';
COMMENT ON COLUMN kernelindex.speedups.provider_title IS 'provider title of the run';
COMMENT ON COLUMN kernelindex.speedups.release IS 'release label of the run';
COMMENT ON COLUMN kernelindex.speedups.observed_at IS 'when the run was measured';
COMMENT ON COLUMN kernelindex.speedups.reference_provider IS 'provider of the reference run (torch)';
COMMENT ON COLUMN kernelindex.speedups.reference_provider_title IS 'title of the reference provider (PyTorch)';
COMMENT ON COLUMN kernelindex.speedups.reference_release IS 'release label of the reference run';
COMMENT ON COLUMN kernelindex.speedups.reference_observed_at IS 'when the reference run was measured';
COMMENT ON COLUMN kernelindex.speedups.same_release IS 'whether the reference run is of the same release (else the reference has no run in it)';
COMMENT ON COLUMN kernelindex.speedups.latency_ns IS 'median latency of the run, ns';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_p20 IS 'p20 latency of the run, ns';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_p80 IS 'p80 latency of the run, ns';
COMMENT ON COLUMN kernelindex.speedups.latency_ms IS 'median latency of the run, ms';
COMMENT ON COLUMN kernelindex.speedups.latency_ms_p20 IS 'p20 latency of the run, ms';
COMMENT ON COLUMN kernelindex.speedups.latency_ms_p80 IS 'p80 latency of the run, ms';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns IS 'median latency of the reference run, ns';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns_p20 IS 'p20 latency of the reference run, ns';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns_p80 IS 'p80 latency of the reference run, ns';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ms IS 'median latency of the reference run, ms';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ms_p20 IS 'p20 latency of the reference run, ms';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ms_p80 IS 'p80 latency of the reference run, ms';
COMMENT ON COLUMN kernelindex.speedups.speedup IS 'reference latency / latency, on the primary statistic both runs share (above 1: faster than the reference); NULL for memory rows, or when the two runs are compared on different statistics';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes IS 'median peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_p20 IS 'p20 peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_p80 IS 'p80 peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_mib IS 'median peak memory of the run, MiB';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes IS 'median peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_p20 IS 'p20 peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_p80 IS 'p80 peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_mib IS 'median peak memory of the reference run, MiB';
COMMENT ON COLUMN kernelindex.speedups.memory_ratio IS 'reference peak memory / peak memory, on the primary statistic both share (above 1: uses less memory); NULL for latency rows';
COMMENT ON COLUMN kernelindex.speedups.outside_noise IS 'whether the difference is outside the measurement noise: where both runs have p20-p80 bands, the bands do not overlap; else, where both have mean, standard deviation and samples, p_value < 0.01; else NULL';
COMMENT ON COLUMN kernelindex.speedups.comparability_key IS 'the shared comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.implementation_digest IS 'implementation digest of the run, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.run_digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.reference_run_digest IS 'the reference run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.harness IS 'the harness that measured both runs';
COMMENT ON COLUMN kernelindex.speedups.primary_statistic IS 'the statistic the run is compared on: median, mean or min';
COMMENT ON COLUMN kernelindex.speedups.reference_primary_statistic IS 'the statistic the reference run is compared on';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_primary IS 'the run''s latency on its primary statistic, ns';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns_primary IS 'the reference run''s latency on its primary statistic, ns';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_primary IS 'the run''s peak memory on its primary statistic, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_primary IS 'the reference run''s peak memory on its primary statistic, bytes';
COMMENT ON COLUMN kernelindex.speedups.p_value IS 'two-sided p-value of Welch''s t-test between the two runs'' means (from their means, standard deviations and samples); NULL unless both report all three with at least 2 samples';


CREATE VIEW kernelindex.release_speedups AS
SELECT r.release, r.release_rank, r.kernel, r.kernel_title, r.pass, r.metric, r.gpu, r.gpu_form_factor,
	r.provider, r.provider_title, pg_catalog.max(r.reference_provider) AS reference_provider,
	-- the mean of the logarithms summed exactly (as numeric), so that the
	-- result is the same whatever the order the rows come in
	pg_catalog.exp((pg_catalog.sum(pg_catalog.ln(r.ratio)::numeric)
		OPERATOR(pg_catalog./) pg_catalog.count(*))::double precision) AS geomean_speedup,
	pg_catalog.count(*) AS workloads,
	pg_catalog.count(*) FILTER (WHERE r.outside_noise) AS workloads_outside_noise,
	pg_catalog.count(*) FILTER (WHERE r.outside_noise AND r.ratio OPERATOR(pg_catalog.>) 1) AS faster_outside_noise,
	pg_catalog.count(*) FILTER (WHERE r.outside_noise AND r.ratio OPERATOR(pg_catalog.<) 1) AS slower_outside_noise
FROM kernelindex.release_runs r
WHERE NOT r.is_reference AND r.ratio OPERATOR(pg_catalog.>) 0
GROUP BY r.release, r.release_rank, r.kernel, r.kernel_title, r.pass, r.metric, r.gpu, r.gpu_form_factor,
	r.provider, r.provider_title;
COMMENT ON VIEW kernelindex.release_runs IS
'per comparability key, implementation and release: its latest run in that release, with the reference implementation''s latest run of the same key and release where there is one (ratio = reference / run: a speedup for latency, a memory saving for peak memory)';
COMMENT ON COLUMN kernelindex.release_runs.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.release_runs.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.release_runs.pass IS 'timed pass';
COMMENT ON COLUMN kernelindex.release_runs.metric IS 'latency or peak_memory';
COMMENT ON COLUMN kernelindex.release_runs.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.release_runs.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.release_runs.workload_label IS 'workload label';
COMMENT ON COLUMN kernelindex.release_runs.provider IS 'implementation provider';
COMMENT ON COLUMN kernelindex.release_runs.provider_title IS 'provider title';
COMMENT ON COLUMN kernelindex.release_runs.is_reference IS 'whether this is the reference implementation (then the reference_ columns are NULL)';
COMMENT ON COLUMN kernelindex.release_runs.release IS 'release label';
COMMENT ON COLUMN kernelindex.release_runs.release_rank IS 'position of the release in release order (kernelindex.releases)';
COMMENT ON COLUMN kernelindex.release_runs.observed_at IS 'when the run was measured';
COMMENT ON COLUMN kernelindex.release_runs.latency_ns IS 'median latency, ns';
COMMENT ON COLUMN kernelindex.release_runs.latency_ns_p20 IS 'p20 latency, ns';
COMMENT ON COLUMN kernelindex.release_runs.latency_ns_p80 IS 'p80 latency, ns';
COMMENT ON COLUMN kernelindex.release_runs.latency_ms IS 'median latency, ms';
COMMENT ON COLUMN kernelindex.release_runs.peak_bytes IS 'median peak memory, bytes';
COMMENT ON COLUMN kernelindex.release_runs.peak_bytes_p20 IS 'p20 peak memory, bytes';
COMMENT ON COLUMN kernelindex.release_runs.peak_bytes_p80 IS 'p80 peak memory, bytes';
COMMENT ON COLUMN kernelindex.release_runs.peak_mib IS 'median peak memory, MiB';
COMMENT ON COLUMN kernelindex.release_runs.reference_provider IS 'provider of the reference run of the same key and release (NULL: none)';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ns IS 'median latency of that reference run, ns';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ms IS 'median latency of that reference run, ms';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ns_p20 IS 'p20 latency of that reference run, ns';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ns_p80 IS 'p80 latency of that reference run, ns';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_bytes IS 'median peak memory of that reference run, bytes';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_mib IS 'median peak memory of that reference run, MiB';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_bytes_p20 IS 'p20 peak memory of that reference run, bytes';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_bytes_p80 IS 'p80 peak memory of that reference run, bytes';
COMMENT ON COLUMN kernelindex.release_runs.ratio IS 'reference / run: the speedup (latency) or memory saving (peak memory) over the reference in this release; NULL without a reference run';
COMMENT ON COLUMN kernelindex.release_runs.outside_noise IS 'whether the run and the reference differ outside the noise: bands apart where both have p20-p80 bands, else Welch''s p < 0.01 where both have mean, standard deviation and samples';
COMMENT ON COLUMN kernelindex.release_runs.comparability_key IS 'comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.run_digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.reference_run_digest IS 'the reference run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.harness IS 'the harness that measured the run';
COMMENT ON COLUMN kernelindex.release_runs.primary_statistic IS 'the statistic the run is compared on: median, mean or min';
COMMENT ON COLUMN kernelindex.release_runs.p_value IS 'Welch''s p-value against the reference run, where both report mean, standard deviation and samples';
COMMENT ON VIEW kernelindex.release_speedups IS
'per release, kernel, pass, metric, GPU and implementation: the geometric-mean speedup over the reference (torch) across the workloads both ran in that release, how many, and how many differ outside the noise';
COMMENT ON COLUMN kernelindex.release_speedups.release IS 'release label';
COMMENT ON COLUMN kernelindex.release_speedups.release_rank IS 'position of the release in release order';
COMMENT ON COLUMN kernelindex.release_speedups.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.release_speedups.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.release_speedups.pass IS 'timed pass';
COMMENT ON COLUMN kernelindex.release_speedups.metric IS 'latency (a speedup) or peak_memory (a memory saving)';
COMMENT ON COLUMN kernelindex.release_speedups.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.release_speedups.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.release_speedups.provider IS 'implementation provider';
COMMENT ON COLUMN kernelindex.release_speedups.provider_title IS 'provider title';
COMMENT ON COLUMN kernelindex.release_speedups.reference_provider IS 'the reference implementation (torch)';
COMMENT ON COLUMN kernelindex.release_speedups.geomean_speedup IS 'geometric mean over the workloads of reference / run (above 1: faster, or less memory)';
COMMENT ON COLUMN kernelindex.release_speedups.workloads IS 'workloads both the implementation and the reference ran in the release';
COMMENT ON COLUMN kernelindex.release_speedups.workloads_outside_noise IS 'of those, how many differ outside the noise (p20-p80 bands apart)';
COMMENT ON COLUMN kernelindex.release_speedups.faster_outside_noise IS 'workloads better than the reference outside the noise';
COMMENT ON COLUMN kernelindex.release_speedups.slower_outside_noise IS 'workloads worse than the reference outside the noise';

COMMENT ON VIEW kernelindex.release_changes IS
'per comparability key and implementation, each pair of consecutive releases (in release order) it ran in: both medians, ratio = new / old (above 1: slower, or more memory), outside_noise, and regression_rank, 1 for the worst regression outside the noise';
COMMENT ON COLUMN kernelindex.release_changes.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.release_changes.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.release_changes.pass IS 'timed pass';
COMMENT ON COLUMN kernelindex.release_changes.metric IS 'latency or peak_memory';
COMMENT ON COLUMN kernelindex.release_changes.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.release_changes.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.release_changes.workload_label IS 'workload label';
COMMENT ON COLUMN kernelindex.release_changes.provider IS 'implementation provider';
COMMENT ON COLUMN kernelindex.release_changes.provider_title IS 'provider title';
COMMENT ON COLUMN kernelindex.release_changes.old_release IS 'the earlier release of the pair';
COMMENT ON COLUMN kernelindex.release_changes.new_release IS 'the next release the implementation ran in';
COMMENT ON COLUMN kernelindex.release_changes.old_release_rank IS 'position of old_release in release order';
COMMENT ON COLUMN kernelindex.release_changes.new_release_rank IS 'position of new_release in release order';
COMMENT ON COLUMN kernelindex.release_changes.old_latency_ns IS 'median latency in the old release, ns';
COMMENT ON COLUMN kernelindex.release_changes.new_latency_ns IS 'median latency in the new release, ns';
COMMENT ON COLUMN kernelindex.release_changes.old_latency_ms IS 'median latency in the old release, ms';
COMMENT ON COLUMN kernelindex.release_changes.new_latency_ms IS 'median latency in the new release, ms';
COMMENT ON COLUMN kernelindex.release_changes.old_peak_bytes IS 'median peak memory in the old release, bytes';
COMMENT ON COLUMN kernelindex.release_changes.new_peak_bytes IS 'median peak memory in the new release, bytes';
COMMENT ON COLUMN kernelindex.release_changes.ratio IS 'new / old on the primary statistic (above 1: slower, or more memory: a regression)';
COMMENT ON COLUMN kernelindex.release_changes.outside_noise IS 'whether the two releases'' runs differ outside the noise: p20-p80 bands apart where both have them, else Welch''s p < 0.01';
COMMENT ON COLUMN kernelindex.release_changes.regression_rank IS '1 for the worst regression: regressions outside the noise first, by ratio, then every other change by ratio';
COMMENT ON COLUMN kernelindex.release_changes.comparability_key IS 'comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.old_run_digest IS 'the old release''s run, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.new_run_digest IS 'the new release''s run, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.harness IS 'the harness that measured the runs';
COMMENT ON COLUMN kernelindex.release_changes.primary_statistic IS 'the statistic the runs are compared on: median, mean or min';
COMMENT ON COLUMN kernelindex.release_changes.old_value IS 'the old release''s primary statistic (ns for latency, bytes for peak memory)';
COMMENT ON COLUMN kernelindex.release_changes.new_value IS 'the new release''s primary statistic (ns for latency, bytes for peak memory)';
COMMENT ON COLUMN kernelindex.release_changes.p_value IS 'Welch''s p-value between the two runs, where both report mean, standard deviation and samples';

COMMENT ON VIEW kernelindex.speedup_since IS
'per comparability key and implementation: the first release in which it beat the reference (torch) outside the noise, and whether its latest release with a reference run still does';
COMMENT ON COLUMN kernelindex.speedup_since.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.speedup_since.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.speedup_since.pass IS 'timed pass';
COMMENT ON COLUMN kernelindex.speedup_since.metric IS 'latency (speedups) or peak_memory (memory savings)';
COMMENT ON COLUMN kernelindex.speedup_since.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.speedup_since.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.speedup_since.workload_label IS 'workload label';
COMMENT ON COLUMN kernelindex.speedup_since.provider IS 'implementation provider';
COMMENT ON COLUMN kernelindex.speedup_since.provider_title IS 'provider title';
COMMENT ON COLUMN kernelindex.speedup_since.since_release IS 'the first release (in release order) in which it beat the reference outside the noise; NULL: never';
COMMENT ON COLUMN kernelindex.speedup_since.since_release_rank IS 'position of since_release in release order (kernelindex.releases): sort by it, not by the label';
COMMENT ON COLUMN kernelindex.speedup_since.latest_release_rank IS 'position of latest_release in release order';
COMMENT ON COLUMN kernelindex.speedup_since.since_speedup IS 'its speedup over the reference in that release';
COMMENT ON COLUMN kernelindex.speedup_since.latest_release IS 'its latest release in which the reference ran too';
COMMENT ON COLUMN kernelindex.speedup_since.latest_speedup IS 'its speedup over the reference in that release';
COMMENT ON COLUMN kernelindex.speedup_since.still_faster IS 'whether it still beats the reference outside the noise in its latest release';
COMMENT ON COLUMN kernelindex.speedup_since.comparability_key IS 'comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedup_since.implementation_digest IS 'implementation digest, sha256:<hex>';

CREATE VIEW kernelindex.run_bundles_citus AS
WITH r AS MATERIALIZED (SELECT r.* FROM kernelindex.runs r)
SELECT r.digest,
	kernelindex.run_bundle_of(r::kernelindex.runs, p.digest, w.digest, e.digest, i.digest, w.label, n.value, x.value, false) AS document,
	kernelindex.run_bundle_of(r::kernelindex.runs, p.digest, w.digest, e.digest, i.digest, w.label, n.value, x.value, true) AS bundle
FROM r
JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) r.comparability_key
JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) k.protocol_id
JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id
JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) r.implementation_id
LEFT JOIN kernelindex.run_strings n ON n.id OPERATOR(pg_catalog.=) r.name_id
LEFT JOIN kernelindex.run_strings x ON x.id OPERATOR(pg_catalog.=) r.external_id_id;
COMMENT ON VIEW kernelindex.run_bundles_citus IS
'the form kernelindex.distribute() gives kernelindex.run_bundles on Citus (the same columns and rows): the runs'' rows are brought to the coordinator (a materialized CTE), which rebuilds the documents from its copies of the reference tables';
COMMENT ON COLUMN kernelindex.run_bundles_citus.digest IS 'the run''s digest';
COMMENT ON COLUMN kernelindex.run_bundles_citus.document IS 'the bundle {run, protocol, environment}, in the form of the reference records';
COMMENT ON COLUMN kernelindex.run_bundles_citus.bundle IS 'the same with the workload and implementation documents where they are known';

/* === end of 0.2.0: harnesses, run_rows and the views === */

/* ---------------------------------------------------------------------
 * Change points (issue 26): the window functions change_point and
 * change_point_levels (src/change_points.c), run_noise, and the views
 * change_points and series_change_points over every series, as
 * src/sql/65-change-points.sql makes them.
 * --------------------------------------------------------------------- */

CREATE FUNCTION kernelindex.change_point(value double precision, noise double precision)
RETURNS double precision
AS 'MODULE_PATHNAME', 'kidx_change_point'
LANGUAGE C WINDOW STABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.change_point(double precision, double precision) IS
'window function: change_point(value, noise) OVER (PARTITION BY series ORDER BY position) reads the whole partition (whatever the frame) as a series of points (rows whose value is NULL are not points; noise is the point''s own standard deviation estimate, or NULL) and returns, on the first row after each change of level it finds, the change''s p-value, NULL on every other row. Binary segmentation with a tie-corrected rank-sum statistic (doc/change-points.md), under the settings kernelindex.change_max_p, change_min_shift, change_min_points and change_noise_floor; an error (22023) for a NaN or infinite value, or a NaN, infinite or negative noise';

CREATE FUNCTION kernelindex.change_point_levels(value double precision, noise double precision)
RETURNS double precision[]
AS 'MODULE_PATHNAME', 'kidx_change_point_levels'
LANGUAGE C WINDOW STABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.change_point_levels(double precision, double precision) IS
'window function: the changes kernelindex.change_point finds, with their levels: on the first row after each change, {p-value, level before, level after, points before, points after} (the medians and lengths of the final segments on either side of the change), NULL on every other row';

CREATE FUNCTION kernelindex.run_noise(p20 bigint, p80 bigint, stddev bigint, samples bigint)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN p20 IS NOT NULL AND p80 IS NOT NULL
		THEN pg_catalog.abs(p80::double precision OPERATOR(pg_catalog.-) p20::double precision)
			OPERATOR(pg_catalog./) 1.6832::double precision
	WHEN stddev OPERATOR(pg_catalog.>=) 0 AND samples OPERATOR(pg_catalog.>) 0
		THEN stddev::double precision OPERATOR(pg_catalog./) pg_catalog.sqrt(samples::double precision) END;
COMMENT ON FUNCTION kernelindex.run_noise(bigint, bigint, bigint, bigint) IS
'a run''s own noise, as a standard deviation of its figure: (p80 - p20) / 1.6832 where it has a p20-p80 band (the width of the band of a normal distribution is 1.6832 standard deviations), else stddev / sqrt(samples) where it has a standard deviation and samples (the standard error of its mean), else NULL';

/*
 * The views.  change_points: one pass over narrow rows of runs (the run's
 * key, implementation, order, primary value and noise), the window over
 * each series (partitioned by the key first: on Citus the key is the
 * distribution column of runs, so the window runs inside the shards),
 * then the BI columns for the change rows only, and the rank over every
 * change.  series_change_points: the same rows without the rank, its
 * narrow rows carrying the kernel, workload label, GPU and provider that
 * the key and implementation determine, and its window partitioned by
 * them too, so that a filter on those columns (a dashboard's) is applied
 * before the window and reads only its series' runs.  Both are written
 * by the DO block below from one text.
 */
DO $views$
DECLARE
	-- %1$s: more narrow columns, %2$s: the joins they read, %3$s: the
	-- partition of a series, %4$s and %5$s: the change rows with their
	-- protocol, kernel, workload label, GPU and provider (a select list
	-- and the joins it reads) from the window's rows c.
	changes CONSTANT text := $q$
SELECT p.harness,
	x.kernel,
	COALESCE(kc.title, x.kernel) AS kernel_title,
	COALESCE(p.pass, b.pass) AS pass,
	x.metric,
	x.gpu,
	x.gpu_form_factor,
	x.workload_label,
	x.provider,
	COALESCE(pv.title, x.provider) AS provider_title,
	x.comparability_key::text AS comparability_key,
	x.release_before,
	x.release AS release_after,
	x.observed_before,
	x.observed_at AS observed_after,
	x.cp[2] AS level_before,
	x.cp[3] AS level_after,
	CASE WHEN x.cp[2] OPERATOR(pg_catalog.<>) 0
		THEN x.cp[3] OPERATOR(pg_catalog./) x.cp[2] END AS ratio,
	CASE WHEN x.cp[3] OPERATOR(pg_catalog.>) x.cp[2] THEN 'regression' ELSE 'improvement' END AS direction,
	x.cp[1] AS p_value,
	'rank-sum binary segmentation'::text AS test,
	x.cp[4]::bigint AS points_before,
	x.cp[5]::bigint AS points_after
FROM (%4$s
	FROM (
		SELECT s.*,
			kernelindex.change_point_levels(s.value::double precision, s.noise) OVER series AS cp,
			pg_catalog.lag(s.release) OVER series AS release_before,
			pg_catalog.lag(s.observed_at) OVER series AS observed_before
		FROM (
			SELECT q.*, o.release_rank,
				CASE WHEN q.latency IS NOT NULL THEN 'latency' ELSE 'peak_memory' END AS metric,
				COALESCE(q.latency, q.memory) AS value,
				CASE WHEN q.latency IS NOT NULL
					THEN kernelindex.run_noise(q.latency_ns_p20, q.latency_ns_p80, q.latency_ns_stddev, q.latency_samples)
					ELSE kernelindex.run_noise(q.peak_bytes_p20, q.peak_bytes_p80, q.peak_bytes_stddev, q.peak_samples)
				END AS noise
			FROM (
				SELECT r.comparability_key, r.implementation_id, r.digest, r.observed_at, r.benchmark_id,
					r.latency_ns_p20, r.latency_ns_p80, r.latency_ns_stddev, r.latency_samples,
					r.peak_bytes_p20, r.peak_bytes_p80, r.peak_bytes_stddev, r.peak_samples,
					l.release,
					kernelindex.primary_value(tp.latency_statistic, r.latency_ns, r.latency_ns_mean, r.latency_ns_min) AS latency,
					kernelindex.primary_value(tp.memory_statistic, r.peak_bytes, r.peak_bytes_mean, r.peak_bytes_min) AS memory%1$s
				FROM kernelindex.runs r
				JOIN kernelindex.run_templates tp ON tp.id OPERATOR(pg_catalog.=) r.template_id
				LEFT JOIN kernelindex.run_labels l ON l.id OPERATOR(pg_catalog.=) r.labels_id%2$s
			) q
			LEFT JOIN kernelindex.release_ranks o ON o.release OPERATOR(pg_catalog.=) q.release
			WHERE q.latency IS NOT NULL OR q.memory IS NOT NULL
		) s
		WINDOW series AS (PARTITION BY %3$s ORDER BY s.release_rank, s.observed_at, s.digest)
	) c%5$s
	WHERE c.cp IS NOT NULL
) x
LEFT JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) x.protocol_id
LEFT JOIN kernelindex.run_benchmarks b ON b.id OPERATOR(pg_catalog.=) x.benchmark_id
LEFT JOIN kernelindex.kernels kc ON kc.name OPERATOR(pg_catalog.=) x.kernel
LEFT JOIN kernelindex.providers pv ON pv.name OPERATOR(pg_catalog.=) x.provider$q$;
BEGIN
	EXECUTE 'CREATE VIEW kernelindex.change_points AS SELECT f.*,'
		' pg_catalog.rank() OVER (ORDER BY f.direction OPERATOR(pg_catalog.=) ''regression'' DESC,'
		' CASE WHEN f.direction OPERATOR(pg_catalog.=) ''regression'' THEN f.ratio END DESC NULLS LAST,'
		' CASE WHEN f.direction OPERATOR(pg_catalog.=) ''improvement'' THEN f.ratio END ASC NULLS LAST) AS rank'
		' FROM (' || pg_catalog.format(changes, '', '',
			's.comparability_key, s.implementation_id, s.metric', $q$
	SELECT c.*, k.protocol_id, w.kernel, w.label AS workload_label, e.product AS gpu,
		e.form_factor AS gpu_form_factor, i.provider$q$, $q$
	LEFT JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) c.comparability_key
	LEFT JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
	LEFT JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id
	LEFT JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) c.implementation_id$q$) || ') f';
	EXECUTE 'CREATE VIEW kernelindex.series_change_points AS ' || pg_catalog.format(changes, $q$,
					k.protocol_id, w.kernel, w.label AS workload_label, e.product AS gpu,
					e.form_factor AS gpu_form_factor, i.provider$q$, $q$
				JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) r.comparability_key
				JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
				JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id
				JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) r.implementation_id$q$,
			's.comparability_key, s.kernel, s.workload_label, s.gpu, s.gpu_form_factor, s.provider, s.implementation_id, s.metric',
			'SELECT c.*', '');
END
$views$;
COMMENT ON VIEW kernelindex.change_points IS
'one row per change of level in a series (one implementation''s runs under one comparability key and metric, in release order where its runs carry releases, else in time order): the releases and times either side, the levels (medians of the primary statistic) before and after, their ratio, the direction, the p-value of the rank-sum binary segmentation that found it (kernelindex.change_point; settings kernelindex.change_*), and a rank: 1 for the largest regression';
COMMENT ON VIEW kernelindex.series_change_points IS
'the rows of kernelindex.change_points without the rank over the store: each series computed on its own, so that a filter on kernel, workload_label, gpu, gpu_form_factor, provider or comparability_key (a dashboard''s) reads only the runs of those series';
COMMENT ON COLUMN kernelindex.change_points.rank IS '1 for the largest regression: regressions first, by ratio descending, then improvements, by ratio ascending';
DO $comments$
DECLARE
	c record;
BEGIN
	-- the columns both views have, commented once
	FOR c IN SELECT * FROM (VALUES
		('harness', 'the harness that measured the series (its protocol''s spec.harness.name)'),
		('kernel', 'kernel name'),
		('kernel_title', 'kernel title from kernelindex.kernels'),
		('pass', 'timed pass: forward, backward, full, or the harness''s word'),
		('metric', 'latency or peak_memory: what the series measures'),
		('gpu', 'GPU product, e.g. NVIDIA A100'),
		('gpu_form_factor', 'GPU board variant, e.g. SXM4-80GB'),
		('workload_label', 'workload label, e.g. features16384-tokens2048-fp32'),
		('provider', 'implementation provider, e.g. liger'),
		('provider_title', 'provider title from kernelindex.providers'),
		('comparability_key', 'the series'' comparability key, sha256:<hex>'),
		('release_before', 'the release of the last run before the change (NULL when the series'' runs carry no release)'),
		('release_after', 'the release of the first run after the change: the release that made it (NULL when the series'' runs carry no release)'),
		('observed_before', 'when the last run before the change was measured'),
		('observed_after', 'when the first run after the change was measured'),
		('level_before', 'the level before: the median of the primary statistic over the runs from the previous change (or the first run) to this one, ns for latency, bytes for peak memory'),
		('level_after', 'the level after: the median of the primary statistic over the runs from this change to the next (or the last run), ns for latency, bytes for peak memory'),
		('ratio', 'level_after / level_before (above 1: slower, or more memory); NULL when level_before is 0'),
		('direction', 'regression when the level rose (lower is better for latency and memory), else improvement'),
		('p_value', 'the p-value of the change: the chance of a split this clear anywhere in its segment of the history were the level constant (maximum of the standardized rank-sum statistic over every allowed split)'),
		('test', 'the test that found the change: rank-sum binary segmentation (doc/change-points.md)'),
		('points_before', 'the number of runs behind level_before'),
		('points_after', 'the number of runs behind level_after')
	) AS x(col, remark) LOOP
		EXECUTE pg_catalog.format('COMMENT ON COLUMN kernelindex.change_points.%I IS %L', c.col, c.remark);
		EXECUTE pg_catalog.format('COMMENT ON COLUMN kernelindex.series_change_points.%I IS %L', c.col, c.remark);
	END LOOP;
END
$comments$;

/* ---------------------------------------------------------------------
 * What comparability keys refer to (their protocol, workload and
 * environment) is checked per statement, as what runs refer to is (issue
 * 27): the batch writer checks and locks the resources of a statement's
 * new keys at once, and the guards of deletes and truncates of protocols,
 * workloads and environments (runs_references_guard) refuse to take away
 * a row a key names; the three row-level foreign keys go.  On Citus (a
 * comparability_keys that is a reference table) nothing changes here: the
 * foreign keys are declared there (<name>_citus, distribute()).
 * --------------------------------------------------------------------- */
DO $$
DECLARE
	t text;
	distributed boolean;
BEGIN
	IF pg_catalog.to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN
		EXECUTE 'SELECT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p WHERE p.logicalrelid'
			' OPERATOR(pg_catalog.=) ''kernelindex.comparability_keys''::pg_catalog.regclass)' INTO distributed;
		IF distributed THEN
			RETURN;
		END IF;
	END IF;
	ALTER TABLE kernelindex.comparability_keys
		DROP CONSTRAINT IF EXISTS comparability_keys_protocol_id_fkey,
		DROP CONSTRAINT IF EXISTS comparability_keys_workload_id_fkey,
		DROP CONSTRAINT IF EXISTS comparability_keys_environment_id_fkey;
	/* the resources comparability keys name (the batch writer checks new keys) */
	FOREACH t IN ARRAY ARRAY['protocols', 'workloads', 'environments'] LOOP
		EXECUTE pg_catalog.format('CREATE TRIGGER %I AFTER DELETE ON kernelindex.%I REFERENCING OLD TABLE AS old_rows'
			' FOR EACH STATEMENT EXECUTE FUNCTION kernelindex.runs_references_guard()', t || '_delete', t);
		EXECUTE pg_catalog.format('COMMENT ON TRIGGER %I ON kernelindex.%I IS %L', t || '_delete', t,
			'refuses to delete a row a comparability key names (23503)');
		EXECUTE pg_catalog.format('CREATE TRIGGER %I AFTER TRUNCATE ON kernelindex.%I'
			' FOR EACH STATEMENT EXECUTE FUNCTION kernelindex.runs_references_guard()', t || '_truncate', t);
		EXECUTE pg_catalog.format('COMMENT ON TRIGGER %I ON kernelindex.%I IS %L', t || '_truncate', t,
			'refuses to truncate while comparability keys name its rows (23503; truncate kernelindex.comparability_keys in the same command)');
	END LOOP;
END
$$;
COMMENT ON COLUMN kernelindex.comparability_keys.protocol_id IS 'the protocol (kernelindex.protocols.id; checked per statement, as a foreign key)';
COMMENT ON COLUMN kernelindex.comparability_keys.workload_id IS 'the workload (kernelindex.workloads.id; checked per statement, as a foreign key)';
COMMENT ON COLUMN kernelindex.comparability_keys.environment_id IS 'the environment (kernelindex.environments.id; checked per statement, as a foreign key)';
COMMENT ON FUNCTION kernelindex.runs_references_guard() IS
'triggers of the tables runs or comparability keys refer to: a row a run (a key) names is not deleted or truncated away (23503, checked with the latest snapshot, as a foreign key is), and a dictionary value is never changed (0A000)';

/*
 * distribute() declares what comparability keys refer to as foreign keys,
 * and makes kernelindex.harnesses (new in 0.2.0) a reference table.
 */
CREATE OR REPLACE FUNCTION kernelindex.distribute()
RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
SET client_min_messages = warning
AS $distribute$
DECLARE
	reference_tables CONSTANT text[] := ARRAY[
		'protocols', 'environments', 'workloads', 'implementations', 'comparability_keys',
		'run_titles', 'run_statuses', 'run_sources', 'run_benchmarks', 'run_strings',
		'run_labels', 'run_templates',
		'gpus', 'kernels', 'providers', 'liger_passes', 'harnesses', 'rejected_rows'];
	-- the tables runs refer to, by which column (as the C code holds them)
	referenced CONSTANT text[] := ARRAY(
		SELECT x.column_name OPERATOR(pg_catalog.||) ':' OPERATOR(pg_catalog.||) x.table_name
			OPERATOR(pg_catalog.||) ':' OPERATOR(pg_catalog.||) x.key_column
		FROM kernelindex.run_references() x);
	-- what comparability keys refer to (on one server the batch writer checks it)
	key_references CONSTANT text[] := ARRAY[
		'protocol_id:protocols:id', 'workload_id:workloads:id', 'environment_id:environments:id'];
	r text;
	t text;
	fk record;
	fks text[] := '{}';
	unsafe_triggers text;
	strangers text;
BEGIN
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'citus') THEN
		RAISE EXCEPTION 'kernelindex.distribute() needs the Citus extension, which is not installed in database "%"',
			pg_catalog.current_database()
			USING ERRCODE = 'object_not_in_prerequisite_state',
			DETAIL = 'Without Citus every kernelindex table stays on this server; nothing was changed.',
			HINT = 'Install Citus from its own packages (https://docs.citusdata.com, "Installing Citus"), '
				'set shared_preload_libraries = ''citus'' on the coordinator and every worker and restart them, '
				'run CREATE EXTENSION citus on each, add the workers with citus_add_node() on the coordinator, '
				'then call kernelindex.distribute() there.';
	END IF;
	IF NOT pg_catalog.citus_is_coordinator() THEN
		RAISE EXCEPTION 'kernelindex.distribute() must run on the Citus coordinator'
			USING ERRCODE = 'object_not_in_prerequisite_state',
			HINT = 'Connect to the coordinator and call it there.';
	END IF;

	FOREACH t IN ARRAY reference_tables || '{runs}'::text[] LOOP
		IF EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
				   WHERE p.logicalrelid OPERATOR(pg_catalog.=) pg_catalog.format('kernelindex.%I', t)::regclass
					 AND NOT (CASE WHEN t OPERATOR(pg_catalog.=) 'runs'
						 THEN p.partmethod OPERATOR(pg_catalog.=) 'h'
							AND pg_catalog.column_to_column_name(p.logicalrelid, p.partkey) OPERATOR(pg_catalog.=) 'comparability_key'
						 ELSE p.partmethod OPERATOR(pg_catalog.=) 'n' AND p.repmodel OPERATOR(pg_catalog.=) 't' END)) THEN
			RAISE EXCEPTION 'kernelindex.% is already a Citus table, of another kind than kernelindex.distribute() makes', t
				USING ERRCODE = 'object_not_in_prerequisite_state',
				HINT = CASE WHEN t OPERATOR(pg_catalog.=) 'runs'
					THEN 'kernelindex.runs must be distributed by comparability_key; undistribute it with undistribute_table() first.'
					ELSE 'It must be a reference table; undistribute it with undistribute_table() first.' END;
		END IF;
	END LOOP;

	/*
	 * Step 5 replaces views and functions with the Citus forms: the
	 * extension's own only, both (so that they stay members of it, and
	 * nothing else of those names is taken over or copied).
	 */
	SELECT pg_catalog.string_agg(o.name, ', ') INTO strangers
	FROM pg_catalog.unnest(ARRAY[
		'pg_class:kernelindex.run_bundles', 'pg_class:kernelindex.documents',
		'pg_proc:kernelindex.run_document(@extschema@.kidx_digest)',
		'pg_proc:kernelindex.run_bundle(@extschema@.kidx_digest)',
		'pg_class:kernelindex.run_bundles_citus',
		'pg_proc:kernelindex.run_bundle_citus(@extschema@.kidx_digest,boolean)']) AS x,
		LATERAL (SELECT pg_catalog.split_part(x, ':', 1) AS catalog,
			pg_catalog.substr(x, pg_catalog.strpos(x, ':') OPERATOR(pg_catalog.+) 1) AS name) AS o
	WHERE NOT EXISTS (
		SELECT FROM pg_catalog.pg_depend d
		JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
		WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
		  AND d.deptype OPERATOR(pg_catalog.=) 'e'
		  AND e.extname OPERATOR(pg_catalog.=) 'kernelindex'
		  AND d.classid OPERATOR(pg_catalog.=) pg_catalog.format('pg_catalog.%s', o.catalog)::pg_catalog.regclass
		  AND d.objid OPERATOR(pg_catalog.=) CASE o.catalog WHEN 'pg_class'
			THEN pg_catalog.to_regclass(o.name)::pg_catalog.oid
			ELSE pg_catalog.to_regprocedure(o.name)::pg_catalog.oid END);
	IF strangers IS NOT NULL THEN
		RAISE EXCEPTION 'kernelindex.distribute() redefines only objects of the kernelindex extension, with forms of its own; not of it: %', strangers
			USING ERRCODE = 'object_not_in_prerequisite_state',
			HINT = 'Each must be the extension''s own view or function of that name (DROP EXTENSION kernelindex and CREATE EXTENSION kernelindex restore them).';
	END IF;

	/* The guards of updates stay on the reference tables (they only raise). */
	unsafe_triggers := pg_catalog.current_setting('citus.enable_unsafe_triggers');
	PERFORM pg_catalog.set_config('citus.enable_unsafe_triggers', 'on', true);

	/* 1. Foreign keys between tables not yet distributed come off... */
	FOR fk IN
		SELECT c.conrelid::regclass AS rel, c.conname, pg_catalog.pg_get_constraintdef(c.oid) AS def
		FROM pg_catalog.pg_constraint c
		WHERE c.contype OPERATOR(pg_catalog.=) 'f'
		  AND c.conrelid IN (SELECT pg_catalog.format('kernelindex.%I', x)::regclass FROM pg_catalog.unnest(reference_tables) x)
		  AND c.confrelid IN (SELECT pg_catalog.format('kernelindex.%I', x)::regclass FROM pg_catalog.unnest(reference_tables) x)
		  AND (c.conrelid NOT IN (SELECT p.logicalrelid FROM pg_catalog.pg_dist_partition p)
			   OR c.confrelid NOT IN (SELECT p.logicalrelid FROM pg_catalog.pg_dist_partition p))
		ORDER BY c.conrelid::regclass::text, c.conname
	LOOP
		EXECUTE pg_catalog.format('ALTER TABLE %s DROP CONSTRAINT %I', fk.rel, fk.conname);
		fks := fks || pg_catalog.format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.rel,
			CASE WHEN fk.conname LIKE '%\_citus' THEN fk.conname ELSE fk.conname || '_citus' END, fk.def);
	END LOOP;

	/* ... with the triggers whose checks a declared foreign key takes over. */
	FOREACH r IN ARRAY referenced OPERATOR(pg_catalog.||) key_references LOOP
		t := pg_catalog.split_part(r, ':', 2);
		IF NOT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
					   WHERE p.logicalrelid OPERATOR(pg_catalog.=) pg_catalog.format('kernelindex.%I', t)::regclass) THEN
			EXECUTE pg_catalog.format('DROP TRIGGER IF EXISTS %I ON kernelindex.%I', t || '_delete', t);
			EXECUTE pg_catalog.format('DROP TRIGGER IF EXISTS %I ON kernelindex.%I', t || '_truncate', t);
		END IF;
	END LOOP;

	/* 2. The resources, the keys, the dictionaries, the catalogs: reference tables. */
	FOREACH t IN ARRAY reference_tables LOOP
		IF NOT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
					   WHERE p.logicalrelid OPERATOR(pg_catalog.=) pg_catalog.format('kernelindex.%I', t)::regclass) THEN
			PERFORM pg_catalog.create_reference_table(pg_catalog.format('kernelindex.%I', t)::regclass);
			PERFORM pg_catalog.truncate_local_data_after_distributing_table(pg_catalog.format('kernelindex.%I', t)::regclass);
		END IF;
	END LOOP;

	/* 3. ... and their foreign keys again, now between reference tables. */
	FOREACH t IN ARRAY fks LOOP
		EXECUTE t;
	END LOOP;
	/* What comparability keys refer to: foreign keys between reference tables. */
	FOREACH r IN ARRAY key_references LOOP
		t := 'comparability_keys_' OPERATOR(pg_catalog.||) pg_catalog.split_part(r, ':', 1) OPERATOR(pg_catalog.||) '_fkey_citus';
		IF NOT EXISTS (SELECT FROM pg_catalog.pg_constraint c
					   WHERE c.conrelid OPERATOR(pg_catalog.=) 'kernelindex.comparability_keys'::regclass
						 AND c.conname OPERATOR(pg_catalog.=) t) THEN
			EXECUTE pg_catalog.format('ALTER TABLE kernelindex.comparability_keys ADD CONSTRAINT %I FOREIGN KEY (%I) REFERENCES kernelindex.%I (%I)',
				t, pg_catalog.split_part(r, ':', 1), pg_catalog.split_part(r, ':', 2), pg_catalog.split_part(r, ':', 3));
		END IF;
	END LOOP;
	/* 4. Runs, by comparability key; what they name is a foreign key. */
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
				   WHERE p.logicalrelid OPERATOR(pg_catalog.=) 'kernelindex.runs'::regclass) THEN
		DROP TRIGGER IF EXISTS runs_references_insert ON kernelindex.runs;
		DROP TRIGGER IF EXISTS runs_references_update ON kernelindex.runs;
		PERFORM pg_catalog.create_distributed_table('kernelindex.runs'::regclass, 'comparability_key');
		PERFORM pg_catalog.truncate_local_data_after_distributing_table('kernelindex.runs'::regclass);
	END IF;
	FOREACH r IN ARRAY referenced LOOP
		IF NOT EXISTS (SELECT FROM pg_catalog.pg_constraint c
					   WHERE c.conrelid OPERATOR(pg_catalog.=) 'kernelindex.runs'::regclass
						 AND c.conname OPERATOR(pg_catalog.=) ('runs_' || pg_catalog.split_part(r, ':', 1) || '_fkey')) THEN
			EXECUTE pg_catalog.format('ALTER TABLE kernelindex.runs ADD CONSTRAINT %I FOREIGN KEY (%I) REFERENCES kernelindex.%I (%I)',
				'runs_' || pg_catalog.split_part(r, ':', 1) || '_fkey', pg_catalog.split_part(r, ':', 1),
				pg_catalog.split_part(r, ':', 2), pg_catalog.split_part(r, ':', 3));
			EXECUTE pg_catalog.format('COMMENT ON CONSTRAINT %I ON kernelindex.runs IS %L',
				'runs_' || pg_catalog.split_part(r, ':', 1) || '_fkey',
				'on Citus: what runs_references_check() checks on one server');
		END IF;
	END LOOP;

	PERFORM pg_catalog.set_config('citus.enable_unsafe_triggers', unsafe_triggers, true);

	/*
	 * 5. Documents out: run_bundles (and documents, which reads it),
	 * run_document() and run_bundle() take their Citus forms (above).
	 */
	EXECUTE pg_catalog.format('CREATE OR REPLACE VIEW kernelindex.run_bundles AS %s',
		pg_catalog.pg_get_viewdef('kernelindex.run_bundles_citus'::pg_catalog.regclass));
	FOREACH t IN ARRAY ARRAY['run_document', 'run_bundle'] LOOP
		EXECUTE pg_catalog.format($fn$
	CREATE OR REPLACE FUNCTION kernelindex.%1$I(run @extschema@.kidx_digest)
	RETURNS jsonb
	LANGUAGE sql STABLE STRICT PARALLEL SAFE
	RETURN kernelindex.run_bundle_citus(run, %2$L::pg_catalog.bool)$fn$, t, t OPERATOR(pg_catalog.=) 'run_bundle');
	END LOOP;
END
$distribute$;

/* The documentation a comment points to is in doc/ now. */
COMMENT ON COLUMN kernelindex.run_templates.value IS 'the run document without what runs hold (see doc/reference.md, "The run layout")';

/* ---------------------------------------------------------------------
 * The user's schema is the interface; the BI views are literal views
 * (issue 28): what users do not call (trigger functions, helpers, the Citus
 * forms) moves to kernelindex_internal; run_bundles shows its digest as
 * text; the BI and change-point views are made again as literal views over
 * kernelindex_internal's pass (src/sql/60-views.sql,
 * src/sql/65-change-points.sql), with the same columns and rows.  No
 * stored data moves.
 * --------------------------------------------------------------------- */

CREATE SCHEMA kernelindex_internal;
COMMENT ON SCHEMA kernelindex_internal IS
'kernelindex internals: trigger functions, the passes under the BI views, the Citus forms, helpers; not an interface';
-- Every role may name what is in it (USAGE, not CREATE): the Citus forms
-- of run_document() and run_bundle() read kernelindex_internal.run_refs
-- as their caller.  Its views grant SELECT only where they check the
-- caller's privileges on the tables they read (security_invoker), so
-- USAGE gives no role a row it could not read from kernelindex itself.
GRANT USAGE ON SCHEMA kernelindex_internal TO PUBLIC;

DROP VIEW kernelindex.change_points, kernelindex.series_change_points,
	kernelindex.release_speedups, kernelindex.speedup_since, kernelindex.release_changes,
	kernelindex.release_runs, kernelindex.speedups, kernelindex.latest_runs, kernelindex.run_facts,
	kernelindex.documents, kernelindex.run_bundles, kernelindex.run_bundles_citus;

ALTER FUNCTION kernelindex.dictionary_hash(text) SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.dictionary_hash(jsonb) SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.template_hash(jsonb, text, text, integer, text, text) SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.workloads_label_guard() SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.runs_references_check() SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.runs_references_guard() SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.identity_guard() SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.run_bundle_of(kernelindex.runs, @extschema@.kidx_digest, @extschema@.kidx_digest, @extschema@.kidx_digest, @extschema@.kidx_digest, text, text, text, boolean) SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.documents_begin() SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.documents_row() SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.documents_end() SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.liger_begin() SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.liger_row() SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.liger_end() SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.run_rows_begin() SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.run_rows_row() SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.run_rows_end() SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.run_references() SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.run_bundle_citus(@extschema@.kidx_digest, boolean) SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.external_id_of(text, text, text, text, timestamptz) SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.primary_value(text, bigint, bigint, bigint) SET SCHEMA kernelindex_internal;
ALTER FUNCTION kernelindex.runs_p_value(bigint, bigint, bigint, bigint, bigint, bigint) SET SCHEMA kernelindex_internal;

/*
 * What a run's bundle needs of its comparability key: the digests of its
 * protocol, workload and environment, and the workload's label; read by
 * run_refs below.  (The C of run_json(), run_document() and run_bundle()
 * reads a key's from the tables themselves: src/documents.c, row_refs.)
 */
CREATE VIEW kernelindex_internal.key_resources WITH (security_invoker = true) AS
SELECT k.key, p.digest AS protocol, w.digest AS workload, e.digest AS environment,
	w.label AS workload_label
FROM kernelindex.comparability_keys k
JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) k.protocol_id
JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id;
COMMENT ON VIEW kernelindex_internal.key_resources IS
'internal: per comparability key, the digests of its protocol, workload and environment and the workload''s label';
GRANT SELECT ON kernelindex_internal.key_resources TO PUBLIC;

/*
 * Every run's row with what run_bundle_of() needs of the rows it refers
 * to: the one definition of the joins from a run to its resources and
 * strings, read by run_bundles here and by its Citus forms
 * (src/sql/70-citus.sql).
 */
CREATE VIEW kernelindex_internal.run_refs WITH (security_invoker = true) AS
SELECT r.digest, r, kr.protocol, kr.workload, kr.environment, i.digest AS implementation,
	kr.workload_label, n.value AS name, x.value AS external_id
FROM kernelindex.runs r
JOIN kernelindex_internal.key_resources kr ON kr.key OPERATOR(@extschema@.=) r.comparability_key
JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) r.implementation_id
LEFT JOIN kernelindex.run_strings n ON n.id OPERATOR(pg_catalog.=) r.name_id
LEFT JOIN kernelindex.run_strings x ON x.id OPERATOR(pg_catalog.=) r.external_id_id;
COMMENT ON VIEW kernelindex_internal.run_refs IS
'internal: every run''s row (r) with the digests of its resources, its workload''s label and its name and externalId strings, the arguments of run_bundle_of()';
GRANT SELECT ON kernelindex_internal.run_refs TO PUBLIC;

CREATE VIEW kernelindex.run_bundles AS
SELECT b.digest::text AS digest,
	kernelindex_internal.run_bundle_of(b.r, b.protocol, b.workload, b.environment, b.implementation,
		b.workload_label, b.name, b.external_id, false) AS document,
	kernelindex_internal.run_bundle_of(b.r, b.protocol, b.workload, b.environment, b.implementation,
		b.workload_label, b.name, b.external_id, true) AS bundle
FROM kernelindex_internal.run_refs b;
COMMENT ON VIEW kernelindex.run_bundles IS
'every stored run with its documents, rebuilt by the run layout: the bundle {run, protocol, environment}, and with workload and implementation where known';
COMMENT ON COLUMN kernelindex.run_bundles.digest IS 'the run''s digest, sha256:<hex> (look one run up by kernelindex.run_document or run_bundle, which use the index)';
COMMENT ON COLUMN kernelindex.run_bundles.document IS 'the bundle {run, protocol, environment}, in the form of the reference records';
COMMENT ON COLUMN kernelindex.run_bundles.bundle IS 'the same with the workload and implementation documents where they are known';

CREATE VIEW kernelindex.documents AS
SELECT b.document FROM kernelindex.run_bundles b;
COMMENT ON VIEW kernelindex.documents IS
'every run as its bundle {run, protocol, environment}, one per row; INSERT or COPY into it ingests documents, one per line';
COMMENT ON COLUMN kernelindex.documents.document IS 'a bundle (or, written to it, any bundle or single resource)';

CREATE TRIGGER documents_begin
BEFORE INSERT ON kernelindex.documents
FOR EACH STATEMENT EXECUTE FUNCTION kernelindex_internal.documents_begin();
COMMENT ON TRIGGER documents_begin ON kernelindex.documents IS
'begins ingesting an INSERT or COPY into the view';

CREATE TRIGGER documents_row
INSTEAD OF INSERT ON kernelindex.documents
FOR EACH ROW EXECUTE FUNCTION kernelindex_internal.documents_row();
COMMENT ON TRIGGER documents_row ON kernelindex.documents IS
'each document written to the view is checked and split (nothing is stored before the statement ends)';

CREATE TRIGGER documents_end
AFTER INSERT ON kernelindex.documents
FOR EACH STATEMENT EXECUTE FUNCTION kernelindex_internal.documents_end();
COMMENT ON TRIGGER documents_end ON kernelindex.documents IS
'stores what the statement brought: resources, keys, dictionary values and runs, in one set-based step';

CREATE VIEW kernelindex_internal.run_bundles_citus AS
WITH b AS MATERIALIZED (SELECT * FROM kernelindex_internal.run_refs)
SELECT b.digest::text AS digest,
	kernelindex_internal.run_bundle_of(b.r, b.protocol, b.workload, b.environment, b.implementation,
		b.workload_label, b.name, b.external_id, false) AS document,
	kernelindex_internal.run_bundle_of(b.r, b.protocol, b.workload, b.environment, b.implementation,
		b.workload_label, b.name, b.external_id, true) AS bundle
FROM b;
COMMENT ON VIEW kernelindex_internal.run_bundles_citus IS
'the form kernelindex.distribute() gives kernelindex.run_bundles on Citus (the same columns and rows): the runs'' rows with what they refer to (kernelindex_internal.run_refs, joined on the shards) are brought to the coordinator (a materialized CTE), which rebuilds the documents';
COMMENT ON COLUMN kernelindex_internal.run_bundles_citus.digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex_internal.run_bundles_citus.document IS 'the bundle {run, protocol, environment}, in the form of the reference records';
COMMENT ON COLUMN kernelindex_internal.run_bundles_citus.bundle IS 'the same with the workload and implementation documents where they are known';

CREATE OR REPLACE FUNCTION kernelindex_internal.run_bundle_citus(run @extschema@.kidx_digest, whole boolean)
RETURNS jsonb
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
BEGIN
	RETURN (WITH b AS MATERIALIZED (
		SELECT * FROM kernelindex_internal.run_refs b
		WHERE b.digest OPERATOR(@extschema@.=) run_bundle_citus.run)
	SELECT kernelindex_internal.run_bundle_of(b.r, b.protocol, b.workload, b.environment,
		b.implementation, b.workload_label, b.name, b.external_id, run_bundle_citus.whole)
	FROM b);
END
$body$;
COMMENT ON FUNCTION kernelindex_internal.run_bundle_citus(@extschema@.kidx_digest, boolean) IS
'the form kernelindex.distribute() gives run_document(run) (whole false) and run_bundle(run) (whole true) on Citus: the same documents, the run''s row with what it refers to (run_refs) brought to the coordinator, which rebuilds them; NULL if no such run';

CREATE OR REPLACE FUNCTION kernelindex.distribute()
RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
SET client_min_messages = warning
AS $distribute$
DECLARE
	runs_shards integer;
	reference_tables CONSTANT text[] := ARRAY[
		'protocols', 'environments', 'workloads', 'implementations', 'comparability_keys',
		'run_titles', 'run_statuses', 'run_sources', 'run_benchmarks', 'run_strings',
		'run_labels', 'run_templates',
		'gpus', 'kernels', 'providers', 'liger_passes', 'harnesses', 'rejected_rows'];
	-- the tables runs refer to, by which column (as the C code holds them)
	referenced CONSTANT text[] := ARRAY(
		SELECT x.column_name OPERATOR(pg_catalog.||) ':' OPERATOR(pg_catalog.||) x.table_name
			OPERATOR(pg_catalog.||) ':' OPERATOR(pg_catalog.||) x.key_column
		FROM kernelindex_internal.run_references() x);
	-- what comparability keys refer to (on one server the batch writer checks it)
	key_references CONSTANT text[] := ARRAY[
		'protocol_id:protocols:id', 'workload_id:workloads:id', 'environment_id:environments:id'];
	r text;
	t text;
	fk record;
	fks text[] := '{}';
	unsafe_triggers text;
	strangers text;
BEGIN
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'citus') THEN
		RAISE EXCEPTION 'kernelindex.distribute() needs the Citus extension, which is not installed in database "%"',
			pg_catalog.current_database()
			USING ERRCODE = 'object_not_in_prerequisite_state',
			DETAIL = 'Without Citus every kernelindex table stays on this server; nothing was changed.',
			HINT = 'Install Citus from its own packages (https://docs.citusdata.com, "Installing Citus"), '
				'set shared_preload_libraries = ''citus'' on the coordinator and every worker and restart them, '
				'run CREATE EXTENSION citus on each, add the workers with citus_add_node() on the coordinator, '
				'then call kernelindex.distribute() there.';
	END IF;
	IF NOT pg_catalog.citus_is_coordinator() THEN
		RAISE EXCEPTION 'kernelindex.distribute() must run on the Citus coordinator'
			USING ERRCODE = 'object_not_in_prerequisite_state',
			HINT = 'Connect to the coordinator and call it there.';
	END IF;

	FOREACH t IN ARRAY reference_tables || '{runs}'::text[] LOOP
		IF EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
				   WHERE p.logicalrelid OPERATOR(pg_catalog.=) pg_catalog.format('kernelindex.%I', t)::regclass
					 AND NOT (CASE WHEN t OPERATOR(pg_catalog.=) 'runs'
						 THEN p.partmethod OPERATOR(pg_catalog.=) 'h'
							AND pg_catalog.column_to_column_name(p.logicalrelid, p.partkey) OPERATOR(pg_catalog.=) 'comparability_key'
						 ELSE p.partmethod OPERATOR(pg_catalog.=) 'n' AND p.repmodel OPERATOR(pg_catalog.=) 't' END)) THEN
			RAISE EXCEPTION 'kernelindex.% is already a Citus table, of another kind than kernelindex.distribute() makes', t
				USING ERRCODE = 'object_not_in_prerequisite_state',
				HINT = CASE WHEN t OPERATOR(pg_catalog.=) 'runs'
					THEN 'kernelindex.runs must be distributed by comparability_key; undistribute it with undistribute_table() first.'
					ELSE 'It must be a reference table; undistribute it with undistribute_table() first.' END;
		END IF;
	END LOOP;

	/*
	 * Step 5 replaces views and functions with the Citus forms: the
	 * extension's own only, both (so that they stay members of it, and
	 * nothing else of those names is taken over or copied).
	 */
	SELECT pg_catalog.string_agg(o.name, ', ') INTO strangers
	FROM pg_catalog.unnest(ARRAY[
		'pg_class:kernelindex.run_bundles', 'pg_class:kernelindex.documents',
		'pg_proc:kernelindex.run_document(@extschema@.kidx_digest)',
		'pg_proc:kernelindex.run_bundle(@extschema@.kidx_digest)',
		'pg_class:kernelindex_internal.run_bundles_citus',
		'pg_proc:kernelindex_internal.run_bundle_citus(@extschema@.kidx_digest,boolean)']) AS x,
		LATERAL (SELECT pg_catalog.split_part(x, ':', 1) AS catalog,
			pg_catalog.substr(x, pg_catalog.strpos(x, ':') OPERATOR(pg_catalog.+) 1) AS name) AS o
	WHERE NOT EXISTS (
		SELECT FROM pg_catalog.pg_depend d
		JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
		WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
		  AND d.deptype OPERATOR(pg_catalog.=) 'e'
		  AND e.extname OPERATOR(pg_catalog.=) 'kernelindex'
		  AND d.classid OPERATOR(pg_catalog.=) pg_catalog.format('pg_catalog.%s', o.catalog)::pg_catalog.regclass
		  AND d.objid OPERATOR(pg_catalog.=) CASE o.catalog WHEN 'pg_class'
			THEN pg_catalog.to_regclass(o.name)::pg_catalog.oid
			ELSE pg_catalog.to_regprocedure(o.name)::pg_catalog.oid END);
	IF strangers IS NOT NULL THEN
		RAISE EXCEPTION 'kernelindex.distribute() redefines only objects of the kernelindex extension, with forms of its own; not of it: %', strangers
			USING ERRCODE = 'object_not_in_prerequisite_state',
			HINT = 'Each must be the extension''s own view or function of that name (DROP EXTENSION kernelindex and CREATE EXTENSION kernelindex restore them).';
	END IF;

	/* The guards of updates stay on the reference tables (they only raise). */
	unsafe_triggers := pg_catalog.current_setting('citus.enable_unsafe_triggers');
	PERFORM pg_catalog.set_config('citus.enable_unsafe_triggers', 'on', true);

	/* 1. Foreign keys between tables not yet distributed come off... */
	FOR fk IN
		SELECT c.conrelid::regclass AS rel, c.conname, pg_catalog.pg_get_constraintdef(c.oid) AS def
		FROM pg_catalog.pg_constraint c
		WHERE c.contype OPERATOR(pg_catalog.=) 'f'
		  AND c.conrelid IN (SELECT pg_catalog.format('kernelindex.%I', x)::regclass FROM pg_catalog.unnest(reference_tables) x)
		  AND c.confrelid IN (SELECT pg_catalog.format('kernelindex.%I', x)::regclass FROM pg_catalog.unnest(reference_tables) x)
		  AND (c.conrelid NOT IN (SELECT p.logicalrelid FROM pg_catalog.pg_dist_partition p)
			   OR c.confrelid NOT IN (SELECT p.logicalrelid FROM pg_catalog.pg_dist_partition p))
		ORDER BY c.conrelid::regclass::text, c.conname
	LOOP
		EXECUTE pg_catalog.format('ALTER TABLE %s DROP CONSTRAINT %I', fk.rel, fk.conname);
		fks := fks || pg_catalog.format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.rel,
			CASE WHEN fk.conname LIKE '%\_citus' THEN fk.conname ELSE fk.conname || '_citus' END, fk.def);
	END LOOP;

	/* ... with the guards whose checks a declared foreign key takes over. */
	FOREACH r IN ARRAY key_references LOOP
		t := pg_catalog.split_part(r, ':', 2);
		IF NOT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
					   WHERE p.logicalrelid OPERATOR(pg_catalog.=) pg_catalog.format('kernelindex.%I', t)::regclass) THEN
			EXECUTE pg_catalog.format('DROP TRIGGER IF EXISTS %I ON kernelindex.%I', t || '_delete', t);
			EXECUTE pg_catalog.format('DROP TRIGGER IF EXISTS %I ON kernelindex.%I', t || '_truncate', t);
		END IF;
	END LOOP;

	/* 2. The resources, the keys, the dictionaries, the catalogs: reference tables. */
	FOREACH t IN ARRAY reference_tables LOOP
		IF NOT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
					   WHERE p.logicalrelid OPERATOR(pg_catalog.=) pg_catalog.format('kernelindex.%I', t)::regclass) THEN
			PERFORM pg_catalog.create_reference_table(pg_catalog.format('kernelindex.%I', t)::regclass);
			PERFORM pg_catalog.truncate_local_data_after_distributing_table(pg_catalog.format('kernelindex.%I', t)::regclass);
		END IF;
	END LOOP;

	/* 3. ... and their foreign keys again, now between reference tables. */
	FOREACH t IN ARRAY fks LOOP
		EXECUTE t;
	END LOOP;
	/* What comparability keys refer to: foreign keys between reference tables. */
	FOREACH r IN ARRAY key_references LOOP
		t := 'comparability_keys_' OPERATOR(pg_catalog.||) pg_catalog.split_part(r, ':', 1) OPERATOR(pg_catalog.||) '_fkey_citus';
		IF NOT EXISTS (SELECT FROM pg_catalog.pg_constraint c
					   WHERE c.conrelid OPERATOR(pg_catalog.=) 'kernelindex.comparability_keys'::regclass
						 AND c.conname OPERATOR(pg_catalog.=) t) THEN
			EXECUTE pg_catalog.format('ALTER TABLE kernelindex.comparability_keys ADD CONSTRAINT %I FOREIGN KEY (%I) REFERENCES kernelindex.%I (%I)',
				t, pg_catalog.split_part(r, ':', 1), pg_catalog.split_part(r, ':', 2), pg_catalog.split_part(r, ':', 3));
		END IF;
	END LOOP;
	/*
	 * 4. Runs, by comparability key, their triggers on every shard.  The
	 * shards: citus.shard_count where the DBA has set it, else two per
	 * worker (see the header above).
	 */
	runs_shards := CASE
		WHEN (SELECT s.source FROM pg_catalog.pg_settings s
			  WHERE s.name OPERATOR(pg_catalog.=) 'citus.shard_count') OPERATOR(pg_catalog.<>) 'default'
		THEN pg_catalog.current_setting('citus.shard_count')::integer
		ELSE GREATEST(2, 2 OPERATOR(pg_catalog.*)
			(SELECT pg_catalog.count(*) FROM pg_catalog.pg_dist_node n
			 WHERE n.isactive AND n.shouldhaveshards
			   AND n.noderole OPERATOR(pg_catalog.=) 'primary'::pg_catalog.noderole)::integer) END;
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
				   WHERE p.logicalrelid OPERATOR(pg_catalog.=) 'kernelindex.runs'::regclass) THEN
		DROP TRIGGER IF EXISTS runs_references_update ON kernelindex.runs;
		PERFORM pg_catalog.create_distributed_table('kernelindex.runs'::regclass, 'comparability_key',
			shard_count => runs_shards);
		PERFORM pg_catalog.truncate_local_data_after_distributing_table('kernelindex.runs'::regclass);
	END IF;

	PERFORM pg_catalog.set_config('citus.enable_unsafe_triggers', unsafe_triggers, true);

	/*
	 * 5. Documents out: run_bundles (and documents, which reads it),
	 * run_document() and run_bundle() take their Citus forms (above).
	 */
	EXECUTE pg_catalog.format('CREATE OR REPLACE VIEW kernelindex.run_bundles AS %s',
		pg_catalog.pg_get_viewdef('kernelindex_internal.run_bundles_citus'::pg_catalog.regclass));
	FOREACH t IN ARRAY ARRAY['run_document', 'run_bundle'] LOOP
		EXECUTE pg_catalog.format($fn$
	CREATE OR REPLACE FUNCTION kernelindex.%1$I(run @extschema@.kidx_digest)
	RETURNS jsonb
	LANGUAGE sql STABLE STRICT PARALLEL SAFE
	RETURN kernelindex_internal.run_bundle_citus(run, %2$L::pg_catalog.bool)$fn$, t, t OPERATOR(pg_catalog.=) 'run_bundle');
	END LOOP;
END
$distribute$;
COMMENT ON FUNCTION kernelindex.distribute() IS
'on a Citus coordinator: distributes kernelindex.runs by comparability_key (two shards per worker, or citus.shard_count where set), makes the resource, key, dictionary and catalog tables and rejected_rows reference tables, keeps the per-statement checks of what runs refer to on every shard and placement (as triggers), and gives run_bundles, run_document and run_bundle their Citus forms (run_bundles_citus, run_bundle_citus), which rebuild documents on the coordinator; idempotent; 55000 where Citus is not installed';

/* --- The pass over runs (kernelindex_internal) ----------------------------
 *
 * A view a BI tool reads is one sorted pass over narrow rows of runs
 * (window functions partitioned by the comparability key), then the columns
 * it shows, made once per row returned.  Each step is a view of its own, in
 * kernelindex_internal:
 *
 *   narrow_runs    a run, its key's resources, what the windows partition
 *                  and order by (the one place runs are joined to keys,
 *                  resources and templates here)
 *   run_pass       one window over narrow_runs (base) and what the BI
 *                  views read of it: the latest run of a series, the
 *                  latest run of a series in a release, and the base of a
 *                  comparison (the reference implementation's latest run
 *                  under the key, of the same release where there is one)
 *   facts          the columns BI tools see, over run_pass
 *   release_facts  facts of each series' latest run in each release, with
 *                  the release's rank
 *   change_facts   release_facts with the same series' run in the
 *                  previous release
 *
 * A query computes the window only when it reads one of its columns, so
 * run_facts sorts nothing, and every other view sorts the runs once.  The
 * window is partitioned by the key and by the key's kernel, workload
 * label, GPU and form factor (which the key determines, so the partitions
 * are the same): a filter on those columns (a dashboard's) is applied
 * before it, through the indexes on workloads (kernel) and
 * comparability_keys, and reads only its runs.  On Citus the key is the
 * distribution column of runs, so the pass runs inside the shards.
 *
 * The window is ordered by is_reference DESC first, then latest first, and
 * its functions (src/reference_window.c) answer each row from what they
 * kept of the rows before it, reading no other row: reference_value and
 * reference_in_release keep, per partition, the first reference row's value
 * of each release (the base of a comparison); first_of_series and
 * first_of_release the implementations (and releases) met so far, whose
 * first row is their latest.  They replace first_value over two windows,
 * one of them by release, which read the base's row again for every row
 * and every column, and row_number() over two more, each a sort of its own
 * (doc/performance.md, "One window for the pass").  The base's numbers
 * travel as one array; facts takes them apart, in the order of
 * narrow_runs.numbers.
 * --------------------------------------------------------------------- */

CREATE VIEW kernelindex_internal.narrow_runs AS
SELECT q.*,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN 'latency'
		WHEN q.peak_bytes_primary IS NOT NULL THEN 'peak_memory' END AS metric,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_statistic
		WHEN q.peak_bytes_primary IS NOT NULL THEN q.memory_statistic END AS primary_statistic,
	COALESCE(q.latency_ns_primary, q.peak_bytes_primary) AS value,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_p20 ELSE q.peak_bytes_p20 END AS value_p20,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_p80 ELSE q.peak_bytes_p80 END AS value_p80,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_mean ELSE q.peak_bytes_mean END AS value_mean,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_stddev ELSE q.peak_bytes_stddev END AS value_stddev,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_samples ELSE q.peak_samples END AS value_samples,
	-- the numbers a comparison carries of the run it compares with
	-- (base_numbers), in this order
	ARRAY[q.latency_ns, q.latency_ns_p20, q.latency_ns_p80, q.peak_bytes, q.peak_bytes_p20, q.peak_bytes_p80,
		COALESCE(q.latency_ns_primary, q.peak_bytes_primary),
		CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_p20 ELSE q.peak_bytes_p20 END,
		CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_p80 ELSE q.peak_bytes_p80 END,
		CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_mean ELSE q.peak_bytes_mean END,
		CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_stddev ELSE q.peak_bytes_stddev END,
		CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_samples ELSE q.peak_samples END] AS numbers,
	ARRAY[q.provider, q.release,
		CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_statistic
			WHEN q.peak_bytes_primary IS NOT NULL THEN q.memory_statistic END] AS texts
FROM (
-- what the windows partition and order by first: a sort compares these
-- columns of its rows, and PostgreSQL reaches a column of a sorted row by
-- stepping over the columns before it (the rest of the run's columns
-- follow, in runs' order)
SELECT r.comparability_key, r.digest, r.observed_at,
	COALESCE(i.provider OPERATOR(pg_catalog.=) hn.reference_implementation, pv.is_reference, false) AS is_reference,
	r.implementation_id, w.kernel, w.label AS workload_label, e.product AS gpu, e.form_factor AS gpu_form_factor,
	l.release,
	r.template_id, r.labels_id, r.title_id, r.status_id, r.source_id, r.benchmark_id, r.name_id, r.external_id_id,
	r.latency_ns, r.latency_ns_p20, r.latency_ns_p80, r.peak_bytes, r.peak_bytes_p20, r.peak_bytes_p80,
	r.native_p20, r.native_p50, r.native_p80, r.external_key,
	r.latency_ns_mean, r.latency_ns_stddev, r.latency_ns_min, r.latency_ns_max, r.latency_samples,
	r.peak_bytes_mean, r.peak_bytes_stddev, r.peak_bytes_min, r.peak_bytes_max, r.peak_samples,
	k.protocol_id, k.workload_id, k.environment_id,
	i.provider, p.harness, tp.latency_statistic, tp.memory_statistic,
	kernelindex_internal.primary_value(tp.latency_statistic, r.latency_ns, r.latency_ns_mean, r.latency_ns_min) AS latency_ns_primary,
	kernelindex_internal.primary_value(tp.memory_statistic, r.peak_bytes, r.peak_bytes_mean, r.peak_bytes_min) AS peak_bytes_primary
FROM kernelindex.runs r
JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) r.comparability_key
JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id
JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) k.protocol_id
JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) r.implementation_id
JOIN kernelindex.run_templates tp ON tp.id OPERATOR(pg_catalog.=) r.template_id
LEFT JOIN kernelindex.harnesses hn ON hn.name OPERATOR(pg_catalog.=) p.harness
LEFT JOIN kernelindex.providers pv ON pv.name OPERATOR(pg_catalog.=) i.provider
LEFT JOIN kernelindex.run_labels l ON l.id OPERATOR(pg_catalog.=) r.labels_id
) q;
COMMENT ON VIEW kernelindex_internal.narrow_runs IS
'internal: one narrow row per run (its columns, its key''s resources and what the passes partition and order by; numbers and texts: what a comparison carries of it)';

CREATE FUNCTION kernelindex_internal.reference_value(is_reference boolean, release text, value anyelement)
RETURNS anyelement
AS 'MODULE_PATHNAME', 'kidx_reference_value'
LANGUAGE C IMMUTABLE WINDOW PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex_internal.reference_value(boolean, text, anyelement) IS
'internal window function, over a partition ordered by is_reference DESC NULLS LAST first (then latest first): value of the base of the current row''s comparison, the partition''s first reference row of the current row''s release (IS NOT DISTINCT FROM), else its first row if that is a reference row, else NULL; reads only the current row (an error where a reference row follows a row that is none)';

CREATE FUNCTION kernelindex_internal.reference_in_release(is_reference boolean, release text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'kidx_reference_in_release'
LANGUAGE C IMMUTABLE WINDOW PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex_internal.reference_in_release(boolean, text) IS
'internal window function, over a partition ordered as reference_value''s: true where the partition has a reference row of the current row''s release (IS NOT DISTINCT FROM), false where it has reference rows of other releases only, NULL where it has none';

CREATE FUNCTION kernelindex_internal.first_of_series(implementation_id integer)
RETURNS boolean
AS 'MODULE_PATHNAME', 'kidx_first_of_series'
LANGUAGE C IMMUTABLE WINDOW PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex_internal.first_of_series(integer) IS
'internal window function: whether the current row is the first of its implementation in the partition''s order (row_number() = 1 over the window partitioned by the implementation too, without its sort); over reference_value''s window, the series'' latest run';

CREATE FUNCTION kernelindex_internal.first_of_release(implementation_id integer, release text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'kidx_first_of_release'
LANGUAGE C IMMUTABLE WINDOW PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex_internal.first_of_release(integer, text) IS
'internal window function: whether the current row is the first of its implementation and release (IS NOT DISTINCT FROM) in the partition''s order; over reference_value''s window, the series'' latest run in the release';

CREATE VIEW kernelindex_internal.run_pass AS
SELECT s.*,
	kernelindex_internal.first_of_series(s.implementation_id) OVER base AS is_latest,
	s.release IS NOT NULL AND kernelindex_internal.first_of_release(s.implementation_id, s.release) OVER base AS is_release_latest,
	kernelindex_internal.reference_in_release(s.is_reference, s.release) OVER base IS NOT NULL AS has_reference,
	COALESCE(kernelindex_internal.reference_in_release(s.is_reference, s.release) OVER base, false) AS same_release,
	kernelindex_internal.reference_value(s.is_reference, s.release, s.digest) OVER base AS base_digest,
	kernelindex_internal.reference_value(s.is_reference, s.release, s.observed_at) OVER base AS base_observed_at,
	kernelindex_internal.reference_value(s.is_reference, s.release, s.texts) OVER base AS base_texts,
	kernelindex_internal.reference_value(s.is_reference, s.release, s.numbers) OVER base AS base_numbers
FROM kernelindex_internal.narrow_runs s
WINDOW base AS (PARTITION BY s.comparability_key, s.kernel, s.workload_label, s.gpu, s.gpu_form_factor
		ORDER BY s.is_reference DESC, s.observed_at DESC, s.digest DESC
		ROWS BETWEEN CURRENT ROW AND CURRENT ROW);
COMMENT ON VIEW kernelindex_internal.run_pass IS
'internal: every run with the windows of the BI views: is_latest (the latest run of its series), is_release_latest (of its series in its release), has_reference (its key has a run of the reference implementation), same_release (of its release) and base_* (the reference''s latest run under the key, of the same release where there is one, else of any; NULL without one; texts and numbers as narrow_runs has them); one window, whose functions read only the current row (the frame is theirs to ignore), ordered by is_reference (never NULL, and the same for all runs of an implementation under a key) first';

CREATE VIEW kernelindex_internal.facts AS
SELECT s.comparability_key AS key,
	s.implementation_id,
	s.digest,
	s.digest::text AS run_digest,
	s.comparability_key::text AS comparability_key,
	p.digest::text AS protocol_digest,
	w.digest::text AS workload_digest,
	e.digest::text AS environment_digest,
	i.digest::text AS implementation_digest,
	s.observed_at,
	s.metric,
	s.kernel,
	COALESCE(kc.title, s.kernel) AS kernel_title,
	s.provider,
	COALESCE(pv.title, s.provider) AS provider_title,
	s.is_reference,
	COALESCE(p.pass, b.pass) AS pass,
	s.workload_label,
	w.title AS workload_title,
	s.release,
	t.value AS run_title,
	st.value AS status,
	s.gpu,
	e.vendor AS gpu_vendor,
	s.gpu_form_factor,
	e.architecture AS gpu_architecture,
	e.title AS environment_title,
	p.title AS protocol_title,
	s.latency_ns,
	s.latency_ns_p20,
	s.latency_ns_p80,
	kernelindex.ns_to_ms(s.latency_ns) AS latency_ms,
	kernelindex.ns_to_ms(s.latency_ns_p20) AS latency_ms_p20,
	kernelindex.ns_to_ms(s.latency_ns_p80) AS latency_ms_p80,
	s.peak_bytes,
	s.peak_bytes_p20,
	s.peak_bytes_p80,
	kernelindex.bytes_to_mib(s.peak_bytes) AS peak_mib,
	kernelindex.bytes_to_mib(s.peak_bytes_p20) AS peak_mib_p20,
	kernelindex.bytes_to_mib(s.peak_bytes_p80) AS peak_mib_p80,
	src.value AS source,
	kernelindex_internal.external_id_of(tp.external_id_form, b.value, x.value, s.workload_label, s.observed_at) AS external_id,
	b.value AS benchmark,
	s.harness,
	s.primary_statistic,
	s.latency_ns_mean,
	s.latency_ns_stddev,
	s.latency_ns_min,
	s.latency_ns_max,
	s.latency_samples,
	s.latency_ns_primary,
	kernelindex.ns_to_ms(s.latency_ns_mean) AS latency_ms_mean,
	kernelindex.ns_to_ms(s.latency_ns_stddev) AS latency_ms_stddev,
	kernelindex.ns_to_ms(s.latency_ns_min) AS latency_ms_min,
	kernelindex.ns_to_ms(s.latency_ns_max) AS latency_ms_max,
	kernelindex.ns_to_ms(s.latency_ns_primary) AS latency_ms_primary,
	s.peak_bytes_mean,
	s.peak_bytes_stddev,
	s.peak_bytes_min,
	s.peak_bytes_max,
	s.peak_samples,
	s.peak_bytes_primary,
	kernelindex.bytes_to_mib(s.peak_bytes_primary) AS peak_mib_primary,
	-- the windows and the comparison with the base
	s.is_latest,
	s.is_release_latest,
	s.has_reference,
	s.same_release,
	s.value,
	s.value_p20,
	s.value_p80,
	s.value_mean,
	s.value_stddev,
	s.value_samples,
	s.numbers,
	s.base_digest::text AS base_run_digest,
	s.base_observed_at,
	s.base_texts[1] AS base_provider,
	s.base_texts[2] AS base_release,
	s.base_texts[3] AS base_statistic,
	s.base_numbers[1] AS base_latency_ns,
	s.base_numbers[2] AS base_latency_ns_p20,
	s.base_numbers[3] AS base_latency_ns_p80,
	s.base_numbers[4] AS base_peak_bytes,
	s.base_numbers[5] AS base_peak_bytes_p20,
	s.base_numbers[6] AS base_peak_bytes_p80,
	s.base_numbers[7] AS base_value,
	-- the base's primary statistic over the run's, where both are compared
	-- on the same statistic
	CASE WHEN s.primary_statistic OPERATOR(pg_catalog.=) s.base_texts[3]
		THEN kernelindex.ratio(s.base_numbers[7], s.value) END AS base_ratio,
	kernelindex.outside_noise(s.value_p20, s.value_p80, s.base_numbers[8], s.base_numbers[9],
		kernelindex_internal.runs_p_value(s.value_mean, s.value_stddev, s.value_samples,
			s.base_numbers[10], s.base_numbers[11], s.base_numbers[12])) AS outside_noise,
	kernelindex_internal.runs_p_value(s.value_mean, s.value_stddev, s.value_samples,
		s.base_numbers[10], s.base_numbers[11], s.base_numbers[12]) AS p_value,
	s.base_numbers[10] AS base_value_mean,
	s.base_numbers[11] AS base_value_stddev,
	s.base_numbers[12] AS base_value_samples
FROM kernelindex_internal.run_pass s
LEFT JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) s.protocol_id
LEFT JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) s.workload_id
LEFT JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) s.environment_id
LEFT JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) s.implementation_id
LEFT JOIN kernelindex.run_templates tp ON tp.id OPERATOR(pg_catalog.=) s.template_id
LEFT JOIN kernelindex.run_statuses st ON st.id OPERATOR(pg_catalog.=) s.status_id
LEFT JOIN kernelindex.run_titles t ON t.id OPERATOR(pg_catalog.=) s.title_id
LEFT JOIN kernelindex.run_sources src ON src.id OPERATOR(pg_catalog.=) s.source_id
LEFT JOIN kernelindex.run_benchmarks b ON b.id OPERATOR(pg_catalog.=) s.benchmark_id
LEFT JOIN kernelindex.run_strings x ON x.id OPERATOR(pg_catalog.=) s.external_id_id
LEFT JOIN kernelindex.kernels kc ON kc.name OPERATOR(pg_catalog.=) s.kernel
LEFT JOIN kernelindex.providers pv ON pv.name OPERATOR(pg_catalog.=) s.provider;
COMMENT ON VIEW kernelindex_internal.facts IS
'internal: one row per run: the columns of the BI views (those of run_facts, then the windows and the comparison with the base run: base_*)';

CREATE VIEW kernelindex_internal.release_facts AS
SELECT f.*, rel.release_rank, f.same_release AND NOT f.is_reference AS compared
FROM kernelindex_internal.facts f
JOIN kernelindex.release_ranks rel ON rel.release OPERATOR(pg_catalog.=) f.release
WHERE f.is_release_latest;
COMMENT ON VIEW kernelindex_internal.release_facts IS
'internal: the facts of each series'' latest run in each release, with the release''s rank; compared: the reference implementation has a run under the key in that release (then base_* is its latest), and the run is not the reference''s';

CREATE VIEW kernelindex_internal.change_facts AS
SELECT c.*,
	-- new / old: above 1 is slower, or more memory
	CASE WHEN c.primary_statistic OPERATOR(pg_catalog.=) c.old_statistic
		THEN kernelindex.ratio(c.value, c.old_numbers[7]) END AS change,
	kernelindex.outside_noise(c.value_p20, c.value_p80, c.old_numbers[8], c.old_numbers[9],
		kernelindex_internal.runs_p_value(c.value_mean, c.value_stddev, c.value_samples,
			c.old_numbers[10], c.old_numbers[11], c.old_numbers[12])) AS change_outside_noise,
	kernelindex_internal.runs_p_value(c.value_mean, c.value_stddev, c.value_samples,
		c.old_numbers[10], c.old_numbers[11], c.old_numbers[12]) AS change_p_value
FROM (
	SELECT f.*,
		pg_catalog.lag(f.release) OVER w AS old_release,
		pg_catalog.lag(f.release_rank) OVER w AS old_release_rank,
		pg_catalog.lag(f.run_digest) OVER w AS old_run_digest,
		pg_catalog.lag(f.primary_statistic) OVER w AS old_statistic,
		pg_catalog.lag(f.numbers) OVER w AS old_numbers
	FROM kernelindex_internal.release_facts f
	WINDOW w AS (PARTITION BY f.key, f.kernel, f.workload_label, f.gpu, f.gpu_form_factor, f.implementation_id
		ORDER BY f.release_rank)
) c
WHERE c.old_release IS NOT NULL;
COMMENT ON VIEW kernelindex_internal.change_facts IS
'internal: each release_facts row with the same series'' row of the previous release it ran in (old_*: narrow_runs.numbers order), the change new / old on the primary statistic, whether it is outside the noise and its Welch p-value';

/* --- The views ------------------------------------------------------------ */

/* One row per run. */
CREATE VIEW kernelindex.run_facts AS
SELECT f.run_digest, f.comparability_key, f.protocol_digest, f.workload_digest, f.environment_digest,
	f.implementation_digest, f.observed_at, f.metric, f.kernel, f.kernel_title, f.provider,
	f.provider_title, f.is_reference, f.pass, f.workload_label, f.workload_title, f.release,
	f.run_title, f.status, f.gpu, f.gpu_vendor, f.gpu_form_factor, f.gpu_architecture,
	f.environment_title, f.protocol_title,
	f.latency_ns, f.latency_ns_p20, f.latency_ns_p80, f.latency_ms, f.latency_ms_p20, f.latency_ms_p80,
	f.peak_bytes, f.peak_bytes_p20, f.peak_bytes_p80, f.peak_mib, f.peak_mib_p20, f.peak_mib_p80,
	f.source, f.external_id, f.benchmark, f.harness, f.primary_statistic,
	f.latency_ns_mean, f.latency_ns_stddev, f.latency_ns_min, f.latency_ns_max, f.latency_samples,
	f.latency_ns_primary, f.latency_ms_mean, f.latency_ms_stddev, f.latency_ms_min, f.latency_ms_max,
	f.latency_ms_primary,
	f.peak_bytes_mean, f.peak_bytes_stddev, f.peak_bytes_min, f.peak_bytes_max, f.peak_samples,
	f.peak_bytes_primary, f.peak_mib_primary
FROM kernelindex_internal.facts f;


/*
 * The latest run per comparability key and implementation: run_facts'
 * columns, in its order (regress bi checks that they stay the same).
 */
CREATE VIEW kernelindex.latest_runs AS
SELECT f.run_digest, f.comparability_key, f.protocol_digest, f.workload_digest, f.environment_digest,
	f.implementation_digest, f.observed_at, f.metric, f.kernel, f.kernel_title, f.provider,
	f.provider_title, f.is_reference, f.pass, f.workload_label, f.workload_title, f.release,
	f.run_title, f.status, f.gpu, f.gpu_vendor, f.gpu_form_factor, f.gpu_architecture,
	f.environment_title, f.protocol_title,
	f.latency_ns, f.latency_ns_p20, f.latency_ns_p80, f.latency_ms, f.latency_ms_p20, f.latency_ms_p80,
	f.peak_bytes, f.peak_bytes_p20, f.peak_bytes_p80, f.peak_mib, f.peak_mib_p20, f.peak_mib_p80,
	f.source, f.external_id, f.benchmark, f.harness, f.primary_statistic,
	f.latency_ns_mean, f.latency_ns_stddev, f.latency_ns_min, f.latency_ns_max, f.latency_samples,
	f.latency_ns_primary, f.latency_ms_mean, f.latency_ms_stddev, f.latency_ms_min, f.latency_ms_max,
	f.latency_ms_primary,
	f.peak_bytes_mean, f.peak_bytes_stddev, f.peak_bytes_min, f.peak_bytes_max, f.peak_samples,
	f.peak_bytes_primary, f.peak_mib_primary
FROM kernelindex_internal.facts f
WHERE f.is_latest;

/* Each run against the reference implementation. */
CREATE VIEW kernelindex.speedups AS
SELECT f.kernel, f.kernel_title, f.pass, f.metric, f.gpu, f.gpu_form_factor, f.workload_label,
	f.provider, f.provider_title, f.release, f.observed_at,
	f.base_provider AS reference_provider,
	COALESCE(rpv.title, f.base_provider) AS reference_provider_title,
	f.base_release AS reference_release,
	f.base_observed_at AS reference_observed_at,
	f.same_release,
	f.latency_ns, f.latency_ns_p20, f.latency_ns_p80, f.latency_ms, f.latency_ms_p20, f.latency_ms_p80,
	f.base_latency_ns AS reference_latency_ns,
	f.base_latency_ns_p20 AS reference_latency_ns_p20,
	f.base_latency_ns_p80 AS reference_latency_ns_p80,
	kernelindex.ns_to_ms(f.base_latency_ns) AS reference_latency_ms,
	kernelindex.ns_to_ms(f.base_latency_ns_p20) AS reference_latency_ms_p20,
	kernelindex.ns_to_ms(f.base_latency_ns_p80) AS reference_latency_ms_p80,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'latency' THEN f.base_ratio END AS speedup,
	f.peak_bytes, f.peak_bytes_p20, f.peak_bytes_p80, f.peak_mib,
	f.base_peak_bytes AS reference_peak_bytes,
	f.base_peak_bytes_p20 AS reference_peak_bytes_p20,
	f.base_peak_bytes_p80 AS reference_peak_bytes_p80,
	kernelindex.bytes_to_mib(f.base_peak_bytes) AS reference_peak_mib,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN f.base_ratio END AS memory_ratio,
	f.outside_noise,
	f.comparability_key, f.implementation_digest, f.run_digest,
	f.base_run_digest AS reference_run_digest,
	f.harness, f.primary_statistic,
	f.base_statistic AS reference_primary_statistic,
	f.latency_ns_primary,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'latency' THEN f.base_value END AS reference_latency_ns_primary,
	f.peak_bytes_primary,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN f.base_value END AS reference_peak_bytes_primary,
	f.p_value,
	f.latency_ms_primary,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'latency' THEN kernelindex.ns_to_ms(f.base_value) END AS reference_latency_ms_primary,
	f.peak_mib_primary,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN kernelindex.bytes_to_mib(f.base_value) END AS reference_peak_mib_primary,
	f.latency_ns_mean, f.latency_ns_stddev, f.latency_ns_min, f.latency_ns_max, f.latency_samples,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'latency' THEN f.base_value_mean END AS reference_latency_ns_mean,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'latency' THEN f.base_value_stddev END AS reference_latency_ns_stddev,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'latency' THEN f.base_value_samples END AS reference_latency_samples,
	f.peak_bytes_mean, f.peak_bytes_stddev, f.peak_bytes_min, f.peak_bytes_max, f.peak_samples,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN f.base_value_mean END AS reference_peak_bytes_mean,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN f.base_value_stddev END AS reference_peak_bytes_stddev,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN f.base_value_samples END AS reference_peak_samples
FROM kernelindex_internal.facts f
LEFT JOIN kernelindex.providers rpv ON rpv.name OPERATOR(pg_catalog.=) f.base_provider
WHERE f.has_reference AND NOT f.is_reference;

/* Per release: one run per workload and implementation. */
CREATE VIEW kernelindex.release_runs AS
SELECT f.kernel, f.kernel_title, f.pass, f.metric, f.gpu, f.gpu_form_factor, f.workload_label,
	f.provider, f.provider_title, f.is_reference, f.release, f.release_rank, f.observed_at,
	f.latency_ns, f.latency_ns_p20, f.latency_ns_p80, f.latency_ms,
	f.peak_bytes, f.peak_bytes_p20, f.peak_bytes_p80, f.peak_mib,
	CASE WHEN f.compared THEN f.base_provider END AS reference_provider,
	CASE WHEN f.compared THEN f.base_latency_ns END AS reference_latency_ns,
	CASE WHEN f.compared THEN kernelindex.ns_to_ms(f.base_latency_ns) END AS reference_latency_ms,
	CASE WHEN f.compared THEN f.base_latency_ns_p20 END AS reference_latency_ns_p20,
	CASE WHEN f.compared THEN f.base_latency_ns_p80 END AS reference_latency_ns_p80,
	CASE WHEN f.compared THEN f.base_peak_bytes END AS reference_peak_bytes,
	CASE WHEN f.compared THEN kernelindex.bytes_to_mib(f.base_peak_bytes) END AS reference_peak_mib,
	CASE WHEN f.compared THEN f.base_peak_bytes_p20 END AS reference_peak_bytes_p20,
	CASE WHEN f.compared THEN f.base_peak_bytes_p80 END AS reference_peak_bytes_p80,
	CASE WHEN f.compared THEN f.base_ratio END AS ratio,
	CASE WHEN f.compared THEN f.outside_noise END AS outside_noise,
	f.comparability_key, f.implementation_digest, f.run_digest,
	CASE WHEN f.compared THEN f.base_run_digest END AS reference_run_digest,
	f.harness, f.primary_statistic,
	CASE WHEN f.compared THEN f.p_value END AS p_value,
	CASE WHEN f.compared THEN f.base_statistic END AS reference_primary_statistic,
	f.latency_ns_primary, f.latency_ms_primary, f.peak_bytes_primary, f.peak_mib_primary,
	CASE WHEN f.compared AND f.metric OPERATOR(pg_catalog.=) 'latency' THEN f.base_value END AS reference_latency_ns_primary,
	CASE WHEN f.compared AND f.metric OPERATOR(pg_catalog.=) 'latency' THEN kernelindex.ns_to_ms(f.base_value) END AS reference_latency_ms_primary,
	CASE WHEN f.compared AND f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN f.base_value END AS reference_peak_bytes_primary,
	CASE WHEN f.compared AND f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN kernelindex.bytes_to_mib(f.base_value) END AS reference_peak_mib_primary
FROM kernelindex_internal.release_facts f;

/* Each pair of consecutive releases of a series. */
CREATE VIEW kernelindex.release_changes AS
SELECT c.kernel, c.kernel_title, c.pass, c.metric, c.gpu, c.gpu_form_factor, c.workload_label,
	c.provider, c.provider_title,
	c.old_release, c.release AS new_release, c.old_release_rank, c.release_rank AS new_release_rank,
	c.old_numbers[1] AS old_latency_ns, c.latency_ns AS new_latency_ns,
	kernelindex.ns_to_ms(c.old_numbers[1]) AS old_latency_ms, c.latency_ms AS new_latency_ms,
	c.old_numbers[4] AS old_peak_bytes, c.peak_bytes AS new_peak_bytes,
	c.change AS ratio, c.change_outside_noise AS outside_noise,
	-- (rank ignores the frame; a ROWS frame spares PostgreSQL 15 reading
	-- ahead to the last of the current row's ties, which 16 and later
	-- skip by themselves: see doc/performance.md)
	pg_catalog.rank() OVER (ORDER BY COALESCE(c.change_outside_noise AND c.change OPERATOR(pg_catalog.>) 1, false) DESC,
		c.change DESC NULLS LAST ROWS BETWEEN CURRENT ROW AND CURRENT ROW) AS regression_rank,
	c.comparability_key, c.implementation_digest, c.old_run_digest, c.run_digest AS new_run_digest,
	c.harness, c.primary_statistic, c.old_numbers[7] AS old_value, c.value AS new_value,
	c.change_p_value AS p_value,
	c.old_statistic AS old_primary_statistic,
	CASE WHEN c.metric OPERATOR(pg_catalog.=) 'latency' THEN kernelindex.ns_to_ms(c.old_numbers[7]) END AS old_latency_ms_primary,
	c.latency_ms_primary AS new_latency_ms_primary,
	CASE WHEN c.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN kernelindex.bytes_to_mib(c.old_numbers[7]) END AS old_peak_mib_primary,
	c.peak_mib_primary AS new_peak_mib_primary
FROM kernelindex_internal.change_facts c;

/* Since which release a series beats the reference. */
CREATE VIEW kernelindex.speedup_since AS
SELECT c.kernel, c.kernel_title, c.pass, c.metric, c.gpu, c.gpu_form_factor, c.workload_label,
	c.provider, c.provider_title,
	CASE WHEN c.beat THEN c.beat_release END AS since_release,
	CASE WHEN c.beat THEN c.beat_release_rank END AS since_release_rank,
	CASE WHEN c.beat THEN c.beat_ratio END AS since_speedup,
	c.release AS latest_release,
	c.release_rank AS latest_release_rank,
	c.base_ratio AS latest_speedup,
	COALESCE(c.base_ratio OPERATOR(pg_catalog.>) 1 AND c.outside_noise, false) AS still_faster,
	c.comparability_key, c.implementation_digest
FROM (
	SELECT f.*,
		-- the first release that beat the reference outside the noise
		pg_catalog.first_value(f.release) OVER beat AS beat_release,
		pg_catalog.first_value(f.release_rank) OVER beat AS beat_release_rank,
		pg_catalog.first_value(f.base_ratio) OVER beat AS beat_ratio,
		pg_catalog.first_value(f.base_ratio OPERATOR(pg_catalog.>) 1 AND f.outside_noise) OVER beat AS beat,
		pg_catalog.row_number() OVER latest AS latest_number
	FROM kernelindex_internal.release_facts f
	WHERE f.compared
	WINDOW beat AS (PARTITION BY f.key, f.kernel, f.workload_label, f.gpu, f.gpu_form_factor, f.implementation_id
			ORDER BY COALESCE(f.base_ratio OPERATOR(pg_catalog.>) 1 AND f.outside_noise, false) DESC, f.release_rank),
		latest AS (PARTITION BY f.key, f.kernel, f.workload_label, f.gpu, f.gpu_form_factor, f.implementation_id
			ORDER BY f.release_rank DESC)
) c
WHERE c.latest_number OPERATOR(pg_catalog.=) 1;

/* --- Comments --------------------------------------------------------- */

COMMENT ON VIEW kernelindex.run_facts IS
'one row per stored run, flat: digests as text, latency in ns and ms, peak memory in bytes and MiB (median, p20, p80), kernel, provider, pass, GPU, workload label, release';
COMMENT ON COLUMN kernelindex.run_facts.run_digest IS 'the run''s resource digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.comparability_key IS 'comparability key, sha256:<hex>: runs with equal keys may be compared';
COMMENT ON COLUMN kernelindex.run_facts.protocol_digest IS 'protocol digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.workload_digest IS 'workload digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.environment_digest IS 'environment digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.observed_at IS 'when the run was measured';
COMMENT ON COLUMN kernelindex.run_facts.metric IS 'latency or peak_memory';
COMMENT ON COLUMN kernelindex.run_facts.kernel IS 'kernel name (the workload''s spec.kernel; NULL while the workload is known by digest only)';
COMMENT ON COLUMN kernelindex.run_facts.kernel_title IS 'kernel title from kernelindex.kernels';
COMMENT ON COLUMN kernelindex.run_facts.provider IS 'implementation provider, e.g. torch, liger';
COMMENT ON COLUMN kernelindex.run_facts.provider_title IS 'provider title from kernelindex.providers, e.g. PyTorch';
COMMENT ON COLUMN kernelindex.run_facts.is_reference IS 'true for the reference implementation of the run''s harness (kernelindex.harnesses.reference_implementation; torch by default)';
COMMENT ON COLUMN kernelindex.run_facts.pass IS 'timed pass: forward, backward, full, or the harness''s word (the protocol''s pass, else the benchmark name''s second part)';
COMMENT ON COLUMN kernelindex.run_facts.workload_label IS 'workload label, e.g. features16384-tokens2048-fp32';
COMMENT ON COLUMN kernelindex.run_facts.workload_title IS 'workload title (kernel title and label)';
COMMENT ON COLUMN kernelindex.run_facts.release IS 'release label of the run (liger_version)';
COMMENT ON COLUMN kernelindex.run_facts.run_title IS 'run title: kernel title · provider · pass';
COMMENT ON COLUMN kernelindex.run_facts.status IS 'run status, e.g. passed';
COMMENT ON COLUMN kernelindex.run_facts.gpu IS 'GPU product, e.g. NVIDIA A100';
COMMENT ON COLUMN kernelindex.run_facts.gpu_vendor IS 'GPU vendor: nvidia, amd, intel';
COMMENT ON COLUMN kernelindex.run_facts.gpu_form_factor IS 'GPU board variant, e.g. SXM4-80GB';
COMMENT ON COLUMN kernelindex.run_facts.gpu_architecture IS 'GPU architecture, e.g. sm_80';
COMMENT ON COLUMN kernelindex.run_facts.environment_title IS 'environment title, e.g. Liger benchmark host · A100-SXM4-80GB';
COMMENT ON COLUMN kernelindex.run_facts.protocol_title IS 'protocol title, e.g. Liger benchmark harness · forward pass';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns IS 'median latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_p20 IS 'p20 latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_p80 IS 'p80 latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms IS 'median latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_p20 IS 'p20 latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_p80 IS 'p80 latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes IS 'median peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_p20 IS 'p20 peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_p80 IS 'p80 peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib IS 'median peak memory, MiB (exact)';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib_p20 IS 'p20 peak memory, MiB (exact)';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib_p80 IS 'p80 peak memory, MiB (exact)';
COMMENT ON COLUMN kernelindex.run_facts.source IS 'source of the run (sourceNative.source), e.g. liger-kernel-bench';
COMMENT ON COLUMN kernelindex.run_facts.external_id IS 'the source''s own id of the run (sourceNative.externalId)';
COMMENT ON COLUMN kernelindex.run_facts.benchmark IS 'the source''s benchmark name (sourceNative.benchmark), e.g. sparsemax/backward';
COMMENT ON COLUMN kernelindex.run_facts.harness IS 'the harness that measured the run (its protocol''s spec.harness.name), e.g. kernelbench';
COMMENT ON COLUMN kernelindex.run_facts.primary_statistic IS 'the statistic the run is compared on: median, mean or min (its primaryStatistic; median when it names none)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_mean IS 'mean latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_stddev IS 'standard deviation of the latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_min IS 'minimum latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_max IS 'maximum latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_samples IS 'number of trials behind the latency statistics';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_primary IS 'the latency the run is compared on (its primary statistic), nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_mean IS 'mean latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_stddev IS 'standard deviation of the latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_min IS 'minimum latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_max IS 'maximum latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_primary IS 'the latency the run is compared on, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_mean IS 'mean peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_stddev IS 'standard deviation of the peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_min IS 'minimum peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_max IS 'maximum peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_samples IS 'number of trials behind the peak memory statistics';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_primary IS 'the peak memory the run is compared on (its primary statistic), bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib_primary IS 'the peak memory the run is compared on, MiB (exact)';


COMMENT ON VIEW kernelindex.latest_runs IS
'the latest run (by observed_at) per comparability key and implementation: what each implementation measures now on each workload and GPU, with the columns of run_facts';

/*
 * A view that shows the rows of run_facts has its columns' comments: copied
 * here from run_facts, so that they are written once.
 */
DO $$
DECLARE
	c record;
BEGIN
	FOR c IN SELECT a.attname, pg_catalog.col_description(a.attrelid, a.attnum) AS note
			 FROM pg_catalog.pg_attribute a
			 WHERE a.attrelid OPERATOR(pg_catalog.=) 'kernelindex.run_facts'::pg_catalog.regclass
			   AND a.attnum OPERATOR(pg_catalog.>) 0
	LOOP
		EXECUTE pg_catalog.format('COMMENT ON COLUMN kernelindex.latest_runs.%I IS %L', c.attname, c.note);
	END LOOP;
END
$$;

COMMENT ON VIEW kernelindex.speedups IS
'each run of a non-reference implementation against the reference implementation (the harness''s reference implementation, kernelindex.harnesses; torch by default) under the same comparability key (same protocol, workload and GPU): the reference''s latest run of the same release, else of any release (see same_release); speedup = reference latency / latency for latency rows, memory_ratio = reference peak memory / peak memory for memory rows, each on the primary statistic both runs are compared on (NULL where they name different ones); outside_noise: where both runs have p20-p80 bands, they do not overlap; where either lacks one, Welch''s p_value < 0.01';
COMMENT ON COLUMN kernelindex.speedups.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.speedups.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.speedups.pass IS 'timed pass: forward, backward, full';
COMMENT ON COLUMN kernelindex.speedups.metric IS 'latency (speedup is set) or peak_memory (memory_ratio is set)';
COMMENT ON COLUMN kernelindex.speedups.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.speedups.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.speedups.workload_label IS 'workload label';
COMMENT ON COLUMN kernelindex.speedups.provider IS 'provider of the run';
COMMENT ON COLUMN kernelindex.speedups.provider_title IS 'provider title of the run';
COMMENT ON COLUMN kernelindex.speedups.release IS 'release label of the run';
COMMENT ON COLUMN kernelindex.speedups.observed_at IS 'when the run was measured';
COMMENT ON COLUMN kernelindex.speedups.reference_provider IS 'provider of the reference run: the harness''s reference implementation (kernelindex.harnesses; torch by default)';
COMMENT ON COLUMN kernelindex.speedups.reference_provider_title IS 'title of the reference provider (PyTorch)';
COMMENT ON COLUMN kernelindex.speedups.reference_release IS 'release label of the reference run';
COMMENT ON COLUMN kernelindex.speedups.reference_observed_at IS 'when the reference run was measured';
COMMENT ON COLUMN kernelindex.speedups.same_release IS 'whether the reference run is of the same release (else the reference has no run in it)';
COMMENT ON COLUMN kernelindex.speedups.latency_ns IS 'median latency of the run, ns';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_p20 IS 'p20 latency of the run, ns';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_p80 IS 'p80 latency of the run, ns';
COMMENT ON COLUMN kernelindex.speedups.latency_ms IS 'median latency of the run, ms';
COMMENT ON COLUMN kernelindex.speedups.latency_ms_p20 IS 'p20 latency of the run, ms';
COMMENT ON COLUMN kernelindex.speedups.latency_ms_p80 IS 'p80 latency of the run, ms';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns IS 'median latency of the reference run, ns';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns_p20 IS 'p20 latency of the reference run, ns';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns_p80 IS 'p80 latency of the reference run, ns';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ms IS 'median latency of the reference run, ms';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ms_p20 IS 'p20 latency of the reference run, ms';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ms_p80 IS 'p80 latency of the reference run, ms';
COMMENT ON COLUMN kernelindex.speedups.speedup IS 'reference latency / latency, on the primary statistic both runs share (above 1: faster than the reference); NULL for memory rows, or when the two runs are compared on different statistics';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes IS 'median peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_p20 IS 'p20 peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_p80 IS 'p80 peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_mib IS 'median peak memory of the run, MiB';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes IS 'median peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_p20 IS 'p20 peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_p80 IS 'p80 peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_mib IS 'median peak memory of the reference run, MiB';
COMMENT ON COLUMN kernelindex.speedups.memory_ratio IS 'reference peak memory / peak memory, on the primary statistic both share (above 1: uses less memory); NULL for latency rows';
COMMENT ON COLUMN kernelindex.speedups.outside_noise IS 'whether the difference is outside the measurement noise: where both runs have p20-p80 bands, the bands do not overlap; else, where both have mean, standard deviation and samples, p_value < 0.01; else NULL';
COMMENT ON COLUMN kernelindex.speedups.comparability_key IS 'the shared comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.implementation_digest IS 'implementation digest of the run, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.run_digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.reference_run_digest IS 'the reference run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.harness IS 'the harness that measured both runs';
COMMENT ON COLUMN kernelindex.speedups.primary_statistic IS 'the statistic the run is compared on: median, mean or min';
COMMENT ON COLUMN kernelindex.speedups.reference_primary_statistic IS 'the statistic the reference run is compared on';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_primary IS 'the run''s latency on its primary statistic, ns';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns_primary IS 'the reference run''s latency on its primary statistic, ns';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_primary IS 'the run''s peak memory on its primary statistic, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_primary IS 'the reference run''s peak memory on its primary statistic, bytes';
COMMENT ON COLUMN kernelindex.speedups.p_value IS 'two-sided p-value of Welch''s t-test between the two runs'' means (from their means, standard deviations and samples); NULL unless both report all three with at least 2 samples';
COMMENT ON COLUMN kernelindex.speedups.latency_ms_primary IS 'the run''s latency on its primary statistic, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ms_primary IS 'the reference run''s latency on its primary statistic, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.speedups.peak_mib_primary IS 'the run''s peak memory on its primary statistic, MiB (exact)';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_mib_primary IS 'the reference run''s peak memory on its primary statistic, MiB (exact)';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_mean IS 'mean latency of the run, nanoseconds';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_stddev IS 'standard deviation of the run''s latency, nanoseconds';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_min IS 'minimum latency of the run, nanoseconds';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_max IS 'maximum latency of the run, nanoseconds';
COMMENT ON COLUMN kernelindex.speedups.latency_samples IS 'number of trials behind the run''s latency statistics';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns_mean IS 'mean latency of the reference run, nanoseconds';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns_stddev IS 'standard deviation of the reference run''s latency, nanoseconds';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_samples IS 'number of trials behind the reference run''s latency statistics';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_mean IS 'mean peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_stddev IS 'standard deviation of the run''s peak memory, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_min IS 'minimum peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_max IS 'maximum peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_samples IS 'number of trials behind the run''s peak memory statistics';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_mean IS 'mean peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_stddev IS 'standard deviation of the reference run''s peak memory, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_samples IS 'number of trials behind the reference run''s peak memory statistics';


CREATE VIEW kernelindex.release_speedups AS
SELECT r.release, r.release_rank, r.kernel, r.kernel_title, r.pass, r.metric, r.gpu, r.gpu_form_factor,
	r.provider, r.provider_title, pg_catalog.max(r.reference_provider) AS reference_provider,
	-- the mean of the logarithms summed exactly (as numeric), so that the
	-- result is the same whatever the order the rows come in
	pg_catalog.exp((pg_catalog.sum(pg_catalog.ln(r.ratio)::numeric)
		OPERATOR(pg_catalog./) pg_catalog.count(*))::double precision) AS geomean_speedup,
	pg_catalog.count(*) AS workloads,
	pg_catalog.count(*) FILTER (WHERE r.outside_noise) AS workloads_outside_noise,
	pg_catalog.count(*) FILTER (WHERE r.outside_noise AND r.ratio OPERATOR(pg_catalog.>) 1) AS faster_outside_noise,
	pg_catalog.count(*) FILTER (WHERE r.outside_noise AND r.ratio OPERATOR(pg_catalog.<) 1) AS slower_outside_noise
FROM kernelindex.release_runs r
WHERE NOT r.is_reference AND r.ratio OPERATOR(pg_catalog.>) 0
GROUP BY r.release, r.release_rank, r.kernel, r.kernel_title, r.pass, r.metric, r.gpu, r.gpu_form_factor,
	r.provider, r.provider_title;
COMMENT ON VIEW kernelindex.release_runs IS
'per comparability key, implementation and release: its latest run in that release, with the reference implementation''s latest run of the same key and release where there is one (ratio = reference / run: a speedup for latency, a memory saving for peak memory)';
COMMENT ON COLUMN kernelindex.release_runs.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.release_runs.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.release_runs.pass IS 'timed pass';
COMMENT ON COLUMN kernelindex.release_runs.metric IS 'latency or peak_memory';
COMMENT ON COLUMN kernelindex.release_runs.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.release_runs.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.release_runs.workload_label IS 'workload label';
COMMENT ON COLUMN kernelindex.release_runs.provider IS 'implementation provider';
COMMENT ON COLUMN kernelindex.release_runs.provider_title IS 'provider title';
COMMENT ON COLUMN kernelindex.release_runs.is_reference IS 'whether this is the reference implementation (then the reference_ columns are NULL)';
COMMENT ON COLUMN kernelindex.release_runs.release IS 'release label';
COMMENT ON COLUMN kernelindex.release_runs.release_rank IS 'position of the release in release order (kernelindex.releases)';
COMMENT ON COLUMN kernelindex.release_runs.observed_at IS 'when the run was measured';
COMMENT ON COLUMN kernelindex.release_runs.latency_ns IS 'median latency, ns';
COMMENT ON COLUMN kernelindex.release_runs.latency_ns_p20 IS 'p20 latency, ns';
COMMENT ON COLUMN kernelindex.release_runs.latency_ns_p80 IS 'p80 latency, ns';
COMMENT ON COLUMN kernelindex.release_runs.latency_ms IS 'median latency, ms';
COMMENT ON COLUMN kernelindex.release_runs.peak_bytes IS 'median peak memory, bytes';
COMMENT ON COLUMN kernelindex.release_runs.peak_bytes_p20 IS 'p20 peak memory, bytes';
COMMENT ON COLUMN kernelindex.release_runs.peak_bytes_p80 IS 'p80 peak memory, bytes';
COMMENT ON COLUMN kernelindex.release_runs.peak_mib IS 'median peak memory, MiB';
COMMENT ON COLUMN kernelindex.release_runs.reference_provider IS 'provider of the reference run of the same key and release (NULL: none)';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ns IS 'median latency of that reference run, ns';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ms IS 'median latency of that reference run, ms';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ns_p20 IS 'p20 latency of that reference run, ns';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ns_p80 IS 'p80 latency of that reference run, ns';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_bytes IS 'median peak memory of that reference run, bytes';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_mib IS 'median peak memory of that reference run, MiB';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_bytes_p20 IS 'p20 peak memory of that reference run, bytes';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_bytes_p80 IS 'p80 peak memory of that reference run, bytes';
COMMENT ON COLUMN kernelindex.release_runs.ratio IS 'reference / run: the speedup (latency) or memory saving (peak memory) over the reference in this release; NULL without a reference run';
COMMENT ON COLUMN kernelindex.release_runs.outside_noise IS 'whether the run and the reference differ outside the noise: bands apart where both have p20-p80 bands, else Welch''s p < 0.01 where both have mean, standard deviation and samples';
COMMENT ON COLUMN kernelindex.release_runs.comparability_key IS 'comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.run_digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.reference_run_digest IS 'the reference run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.harness IS 'the harness that measured the run';
COMMENT ON COLUMN kernelindex.release_runs.primary_statistic IS 'the statistic the run is compared on: median, mean or min';
COMMENT ON COLUMN kernelindex.release_runs.p_value IS 'Welch''s p-value against the reference run, where both report mean, standard deviation and samples';
COMMENT ON COLUMN kernelindex.release_runs.reference_primary_statistic IS 'the statistic the reference run is compared on';
COMMENT ON COLUMN kernelindex.release_runs.latency_ns_primary IS 'the run''s latency on its primary statistic, ns';
COMMENT ON COLUMN kernelindex.release_runs.latency_ms_primary IS 'the run''s latency on its primary statistic, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.release_runs.peak_bytes_primary IS 'the run''s peak memory on its primary statistic, bytes';
COMMENT ON COLUMN kernelindex.release_runs.peak_mib_primary IS 'the run''s peak memory on its primary statistic, MiB (exact)';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ns_primary IS 'the reference run''s latency on its primary statistic, ns';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ms_primary IS 'the reference run''s latency on its primary statistic, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_bytes_primary IS 'the reference run''s peak memory on its primary statistic, bytes';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_mib_primary IS 'the reference run''s peak memory on its primary statistic, MiB (exact)';
COMMENT ON VIEW kernelindex.release_speedups IS
'per release, kernel, pass, metric, GPU and implementation: the geometric-mean speedup over the harness''s reference implementation (torch by default) across the workloads both ran in that release, how many, and how many differ outside the noise';
COMMENT ON COLUMN kernelindex.release_speedups.release IS 'release label';
COMMENT ON COLUMN kernelindex.release_speedups.release_rank IS 'position of the release in release order';
COMMENT ON COLUMN kernelindex.release_speedups.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.release_speedups.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.release_speedups.pass IS 'timed pass';
COMMENT ON COLUMN kernelindex.release_speedups.metric IS 'latency (a speedup) or peak_memory (a memory saving)';
COMMENT ON COLUMN kernelindex.release_speedups.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.release_speedups.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.release_speedups.provider IS 'implementation provider';
COMMENT ON COLUMN kernelindex.release_speedups.provider_title IS 'provider title';
COMMENT ON COLUMN kernelindex.release_speedups.reference_provider IS 'the harness''s reference implementation (kernelindex.harnesses; torch by default)';
COMMENT ON COLUMN kernelindex.release_speedups.geomean_speedup IS 'geometric mean over the workloads of reference / run (above 1: faster, or less memory)';
COMMENT ON COLUMN kernelindex.release_speedups.workloads IS 'workloads both the implementation and the reference ran in the release';
COMMENT ON COLUMN kernelindex.release_speedups.workloads_outside_noise IS 'of those, how many differ outside the noise (p20-p80 bands apart where both runs have them, else Welch''s p < 0.01: see speedups.outside_noise)';
COMMENT ON COLUMN kernelindex.release_speedups.faster_outside_noise IS 'workloads better than the reference outside the noise';
COMMENT ON COLUMN kernelindex.release_speedups.slower_outside_noise IS 'workloads worse than the reference outside the noise';

COMMENT ON VIEW kernelindex.release_changes IS
'per comparability key and implementation, each pair of consecutive releases (in release order) it ran in: both values of the primary statistic, ratio = new / old (above 1: slower, or more memory), outside_noise, and regression_rank, 1 for the worst regression outside the noise';
COMMENT ON COLUMN kernelindex.release_changes.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.release_changes.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.release_changes.pass IS 'timed pass';
COMMENT ON COLUMN kernelindex.release_changes.metric IS 'latency or peak_memory';
COMMENT ON COLUMN kernelindex.release_changes.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.release_changes.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.release_changes.workload_label IS 'workload label';
COMMENT ON COLUMN kernelindex.release_changes.provider IS 'implementation provider';
COMMENT ON COLUMN kernelindex.release_changes.provider_title IS 'provider title';
COMMENT ON COLUMN kernelindex.release_changes.old_release IS 'the earlier release of the pair';
COMMENT ON COLUMN kernelindex.release_changes.new_release IS 'the next release the implementation ran in';
COMMENT ON COLUMN kernelindex.release_changes.old_release_rank IS 'position of old_release in release order';
COMMENT ON COLUMN kernelindex.release_changes.new_release_rank IS 'position of new_release in release order';
COMMENT ON COLUMN kernelindex.release_changes.old_latency_ns IS 'median latency in the old release, ns';
COMMENT ON COLUMN kernelindex.release_changes.new_latency_ns IS 'median latency in the new release, ns';
COMMENT ON COLUMN kernelindex.release_changes.old_latency_ms IS 'median latency in the old release, ms';
COMMENT ON COLUMN kernelindex.release_changes.new_latency_ms IS 'median latency in the new release, ms';
COMMENT ON COLUMN kernelindex.release_changes.old_peak_bytes IS 'median peak memory in the old release, bytes';
COMMENT ON COLUMN kernelindex.release_changes.new_peak_bytes IS 'median peak memory in the new release, bytes';
COMMENT ON COLUMN kernelindex.release_changes.ratio IS 'new / old on the primary statistic (above 1: slower, or more memory: a regression)';
COMMENT ON COLUMN kernelindex.release_changes.outside_noise IS 'whether the two releases'' runs differ outside the noise: p20-p80 bands apart where both have them, else Welch''s p < 0.01';
COMMENT ON COLUMN kernelindex.release_changes.regression_rank IS '1 for the worst regression: regressions outside the noise first, by ratio, then every other change by ratio';
COMMENT ON COLUMN kernelindex.release_changes.comparability_key IS 'comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.old_run_digest IS 'the old release''s run, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.new_run_digest IS 'the new release''s run, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.harness IS 'the harness that measured the runs';
COMMENT ON COLUMN kernelindex.release_changes.primary_statistic IS 'the statistic the runs are compared on: median, mean or min';
COMMENT ON COLUMN kernelindex.release_changes.old_value IS 'the old release''s primary statistic (ns for latency, bytes for peak memory)';
COMMENT ON COLUMN kernelindex.release_changes.new_value IS 'the new release''s primary statistic (ns for latency, bytes for peak memory)';
COMMENT ON COLUMN kernelindex.release_changes.p_value IS 'Welch''s p-value between the two runs, where both report mean, standard deviation and samples';
COMMENT ON COLUMN kernelindex.release_changes.old_primary_statistic IS 'the statistic the old release''s run is compared on (the ratio is set where it is the new one''s)';
COMMENT ON COLUMN kernelindex.release_changes.old_latency_ms_primary IS 'the old release''s latency on its primary statistic, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.release_changes.new_latency_ms_primary IS 'the new release''s latency on its primary statistic, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.release_changes.old_peak_mib_primary IS 'the old release''s peak memory on its primary statistic, MiB (exact)';
COMMENT ON COLUMN kernelindex.release_changes.new_peak_mib_primary IS 'the new release''s peak memory on its primary statistic, MiB (exact)';

COMMENT ON VIEW kernelindex.speedup_since IS
'per comparability key and implementation: the first release in which it beat the harness''s reference implementation (torch by default) outside the noise, and whether its latest release with a reference run still does';
COMMENT ON COLUMN kernelindex.speedup_since.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.speedup_since.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.speedup_since.pass IS 'timed pass';
COMMENT ON COLUMN kernelindex.speedup_since.metric IS 'latency (speedups) or peak_memory (memory savings)';
COMMENT ON COLUMN kernelindex.speedup_since.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.speedup_since.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.speedup_since.workload_label IS 'workload label';
COMMENT ON COLUMN kernelindex.speedup_since.provider IS 'implementation provider';
COMMENT ON COLUMN kernelindex.speedup_since.provider_title IS 'provider title';
COMMENT ON COLUMN kernelindex.speedup_since.since_release IS 'the first release (in release order) in which it beat the reference outside the noise; NULL: never';
COMMENT ON COLUMN kernelindex.speedup_since.since_release_rank IS 'position of since_release in release order (kernelindex.releases): sort by it, not by the label';
COMMENT ON COLUMN kernelindex.speedup_since.latest_release_rank IS 'position of latest_release in release order';
COMMENT ON COLUMN kernelindex.speedup_since.since_speedup IS 'its speedup over the reference in that release';
COMMENT ON COLUMN kernelindex.speedup_since.latest_release IS 'its latest release in which the reference ran too';
COMMENT ON COLUMN kernelindex.speedup_since.latest_speedup IS 'its speedup over the reference in that release';
COMMENT ON COLUMN kernelindex.speedup_since.still_faster IS 'whether it still beats the reference outside the noise in its latest release';
COMMENT ON COLUMN kernelindex.speedup_since.comparability_key IS 'comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedup_since.implementation_digest IS 'implementation digest, sha256:<hex>';

COMMENT ON COLUMN kernelindex.providers.is_reference IS 'true for the implementation speedups are measured against in runs of a harness kernelindex.harnesses does not list (torch); a listed harness names its own (harnesses.reference_implementation)';

/*
 * The views.  series_change_points: one pass over narrow rows of runs (the
 * run's key, implementation, order, primary value and noise, and the
 * kernel, workload label, GPU and provider that the key and implementation
 * determine), the window over each series (partitioned by the key first:
 * on Citus the key is the distribution column of runs, so the window runs
 * inside the shards; and by those columns too, so that a filter on them, a
 * dashboard's, is applied before the window and reads only its series'
 * runs), then the BI columns for the change rows only.  change_points: the
 * same rows with a rank over every change of the store.
 */
CREATE VIEW kernelindex.series_change_points AS
SELECT p.harness,
	x.kernel,
	COALESCE(kc.title, x.kernel) AS kernel_title,
	COALESCE(p.pass, b.pass) AS pass,
	x.metric,
	x.gpu,
	x.gpu_form_factor,
	x.workload_label,
	x.provider,
	COALESCE(pv.title, x.provider) AS provider_title,
	x.comparability_key::text AS comparability_key,
	x.release_before,
	x.release AS release_after,
	x.observed_before,
	x.observed_at AS observed_after,
	x.cp[2] AS level_before,
	x.cp[3] AS level_after,
	CASE WHEN x.cp[2] OPERATOR(pg_catalog.<>) 0
		THEN x.cp[3] OPERATOR(pg_catalog./) x.cp[2] END AS ratio,
	CASE WHEN x.cp[3] OPERATOR(pg_catalog.>) x.cp[2] THEN 'regression' ELSE 'improvement' END AS direction,
	x.cp[1] AS p_value,
	'rank-sum binary segmentation'::text AS test,
	x.cp[4]::bigint AS points_before,
	x.cp[5]::bigint AS points_after
FROM (
	SELECT c.*
	FROM (
		SELECT s.*,
			kernelindex.change_point_levels(s.value::double precision, s.noise) OVER series AS cp,
			pg_catalog.lag(s.release) OVER series AS release_before,
			pg_catalog.lag(s.observed_at) OVER series AS observed_before
		FROM (
			SELECT q.*, o.release_rank,
				CASE WHEN q.latency IS NOT NULL THEN 'latency' ELSE 'peak_memory' END AS metric,
				COALESCE(q.latency, q.memory) AS value,
				CASE WHEN q.latency IS NOT NULL
					THEN kernelindex.run_noise(q.latency_ns_p20, q.latency_ns_p80, q.latency_ns_stddev, q.latency_samples)
					ELSE kernelindex.run_noise(q.peak_bytes_p20, q.peak_bytes_p80, q.peak_bytes_stddev, q.peak_samples)
				END AS noise
			FROM (
				SELECT r.comparability_key, r.implementation_id, r.digest, r.observed_at, r.benchmark_id,
					r.latency_ns_p20, r.latency_ns_p80, r.latency_ns_stddev, r.latency_samples,
					r.peak_bytes_p20, r.peak_bytes_p80, r.peak_bytes_stddev, r.peak_samples,
					l.release,
					kernelindex_internal.primary_value(tp.latency_statistic, r.latency_ns, r.latency_ns_mean, r.latency_ns_min) AS latency,
					kernelindex_internal.primary_value(tp.memory_statistic, r.peak_bytes, r.peak_bytes_mean, r.peak_bytes_min) AS memory,
					k.protocol_id, w.kernel, w.label AS workload_label, e.product AS gpu,
					e.form_factor AS gpu_form_factor, i.provider
				FROM kernelindex.runs r
				JOIN kernelindex.run_templates tp ON tp.id OPERATOR(pg_catalog.=) r.template_id
				LEFT JOIN kernelindex.run_labels l ON l.id OPERATOR(pg_catalog.=) r.labels_id
				JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) r.comparability_key
				JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
				JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id
				JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) r.implementation_id
			) q
			LEFT JOIN kernelindex.release_ranks o ON o.release OPERATOR(pg_catalog.=) q.release
			WHERE q.latency IS NOT NULL OR q.memory IS NOT NULL
		) s
		WINDOW series AS (PARTITION BY s.comparability_key, s.kernel, s.workload_label, s.gpu, s.gpu_form_factor,
			s.provider, s.implementation_id, s.metric ORDER BY s.release_rank, s.observed_at, s.digest)
	) c
	WHERE c.cp IS NOT NULL
) x
LEFT JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) x.protocol_id
LEFT JOIN kernelindex.run_benchmarks b ON b.id OPERATOR(pg_catalog.=) x.benchmark_id
LEFT JOIN kernelindex.kernels kc ON kc.name OPERATOR(pg_catalog.=) x.kernel
LEFT JOIN kernelindex.providers pv ON pv.name OPERATOR(pg_catalog.=) x.provider;

CREATE VIEW kernelindex.change_points AS
SELECT f.*,
	-- (the frame as release_changes' rank has it)
	pg_catalog.rank() OVER (ORDER BY f.direction OPERATOR(pg_catalog.=) 'regression' DESC,
		CASE WHEN f.direction OPERATOR(pg_catalog.=) 'regression' THEN f.ratio END DESC NULLS LAST,
		CASE WHEN f.direction OPERATOR(pg_catalog.=) 'improvement' THEN f.ratio END ASC NULLS LAST
		ROWS BETWEEN CURRENT ROW AND CURRENT ROW) AS rank
FROM kernelindex.series_change_points f;
COMMENT ON VIEW kernelindex.change_points IS
'one row per change of level in a series (one implementation''s runs under one comparability key and metric, in release order where its runs carry releases, else in time order): the releases and times either side, the levels (medians of the primary statistic) before and after, their ratio, the direction, the p-value of the rank-sum binary segmentation that found it (kernelindex.change_point; settings kernelindex.change_*), and a rank: 1 for the largest regression';
COMMENT ON VIEW kernelindex.series_change_points IS
'the rows of kernelindex.change_points without the rank over the store: each series computed on its own, so that a filter on kernel, workload_label, gpu, gpu_form_factor, provider or comparability_key (a dashboard''s) reads only the runs of those series';
COMMENT ON COLUMN kernelindex.change_points.rank IS '1 for the largest regression: regressions first, by ratio descending, then improvements, by ratio ascending';
DO $comments$
DECLARE
	c record;
BEGIN
	-- the columns both views have, commented once
	FOR c IN SELECT * FROM (VALUES
		('harness', 'the harness that measured the series (its protocol''s spec.harness.name)'),
		('kernel', 'kernel name'),
		('kernel_title', 'kernel title from kernelindex.kernels'),
		('pass', 'timed pass: forward, backward, full, or the harness''s word'),
		('metric', 'latency or peak_memory: what the series measures'),
		('gpu', 'GPU product, e.g. NVIDIA A100'),
		('gpu_form_factor', 'GPU board variant, e.g. SXM4-80GB'),
		('workload_label', 'workload label, e.g. features16384-tokens2048-fp32'),
		('provider', 'implementation provider, e.g. liger'),
		('provider_title', 'provider title from kernelindex.providers'),
		('comparability_key', 'the series'' comparability key, sha256:<hex>'),
		('release_before', 'the release of the last run before the change (NULL when the series'' runs carry no release)'),
		('release_after', 'the release of the first run after the change: the release that made it (NULL when the series'' runs carry no release)'),
		('observed_before', 'when the last run before the change was measured'),
		('observed_after', 'when the first run after the change was measured'),
		('level_before', 'the level before: the median of the primary statistic over the runs from the previous change (or the first run) to this one, ns for latency, bytes for peak memory'),
		('level_after', 'the level after: the median of the primary statistic over the runs from this change to the next (or the last run), ns for latency, bytes for peak memory'),
		('ratio', 'level_after / level_before (above 1: slower, or more memory); NULL when level_before is 0'),
		('direction', 'regression when the level rose (lower is better for latency and memory), else improvement'),
		('p_value', 'the p-value of the change: the chance of a split this clear anywhere in its segment of the history were the level constant (maximum of the standardized rank-sum statistic over every allowed split)'),
		('test', 'the test that found the change: rank-sum binary segmentation (doc/change-points.md)'),
		('points_before', 'the number of runs behind level_before'),
		('points_after', 'the number of runs behind level_after')
	) AS x(col, remark) LOOP
		EXECUTE pg_catalog.format('COMMENT ON COLUMN kernelindex.change_points.%I IS %L', c.col, c.remark);
		EXECUTE pg_catalog.format('COMMENT ON COLUMN kernelindex.series_change_points.%I IS %L', c.col, c.remark);
	END LOOP;
END
$comments$;

/* ---------------------------------------------------------------------
 * Quarantined rows keep their SQLSTATE (issue 25): rejected_rows.sqlstate
 * (src/sql/50-liger.sql), what the row fails its COPY with when strict.
 * The rows kept before are given theirs by the same check, which
 * liger_row_fault() now answers with as its fourth element (only Liger
 * rows can have been kept before: run_rows is new in this release).
 * --------------------------------------------------------------------- */

ALTER TABLE kernelindex.rejected_rows ADD COLUMN sqlstate text CHECK (sqlstate OPERATOR(pg_catalog.~) '^[0-9A-Z]{5}$');
COMMENT ON COLUMN kernelindex.rejected_rows.sqlstate IS 'the SQLSTATE the row fails its COPY with when kernelindex.on_bad_row is error (22P02 malformed, 22003 out of range, 22023 wrong value, 22007 bad time, 23502 missing)';
COMMENT ON FUNCTION kernelindex.liger_row_fault(kernelindex.liger_rows) IS
'NULL for a Liger CSV row that can become a run, else {column, value, reason, sqlstate} of its first fault (checked without raising errors; sqlstate: what a COPY of the row fails with)';

UPDATE kernelindex.rejected_rows r
SET sqlstate = (kernelindex.liger_row_fault(ROW(r.kernel_name, r.kernel_provider,
	r.kernel_operation_mode, r.metric_name, r.metric_unit, r.x_name, r.x_label, r.x_value,
	r.y_value_50, r.y_value_20, r.y_value_80, r.extra_benchmark_config_str, r.gpu_name,
	r."timestamp", r.liger_version)::kernelindex.liger_rows))[4]
WHERE r.source OPERATOR(pg_catalog.=) 'liger';

/* ---------------------------------------------------------------------
 * Two indexes on runs instead of three (issue 27): the primary key leads
 * with the digest, and finds a run by its digest alone (run_document), as
 * the hash index runs_digest did; the runs of a comparability key are
 * found by runs_external_key, which leads with the key.  A load stores one
 * index entry a run fewer (about 37 bytes a run).  On Citus the key stays
 * in the primary key (the distribution column of runs), and each statement
 * is propagated to the shards.
 * --------------------------------------------------------------------- */
ALTER TABLE kernelindex.runs DROP CONSTRAINT runs_pkey;
ALTER TABLE kernelindex.runs ADD CONSTRAINT runs_pkey PRIMARY KEY (digest, comparability_key);
DROP INDEX kernelindex.runs_digest;
COMMENT ON INDEX kernelindex.runs_pkey IS 'finds a run by its digest alone (run_document); the comparability key is in it because Citus distributes runs by it';
COMMENT ON INDEX kernelindex.runs_external_key IS 'finds the runs of a comparability key (a dashboard''s runs, the runs comparable with one), and refuses two runs of a key with one externalId';

/* ---------------------------------------------------------------------
 * On Citus a load writes each chunk of runs by INSERT ... SELECT FROM
 * kernelindex_internal.pending_runs() (issue 27): Citus turned the array
 * parameter of the INSERT before into text and back.
 * --------------------------------------------------------------------- */
CREATE FUNCTION kernelindex_internal.pending_runs()
RETURNS SETOF kernelindex.runs
AS 'MODULE_PATHNAME', 'kidx_pending_runs'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION kernelindex_internal.pending_runs() IS
'the runs a load of this session is writing to kernelindex.runs on Citus, while its INSERT runs (no rows at any other time): the INSERT reads them from here rather than from an array parameter, which Citus would turn into text and back';

/* ---------------------------------------------------------------------
 * On Citus what runs refer to is checked per statement on every shard
 * (issue 27), by the triggers of one server, which read each server's
 * placements of the reference tables (references.c), instead of by the
 * foreign keys distribute() declared, which checked each run row by row.
 * distribute() above makes that form; a cluster distributed before keeps
 * its foreign keys, which check the same references.
 * --------------------------------------------------------------------- */
COMMENT ON FUNCTION kernelindex_internal.run_references() IS
'each reference column of kernelindex.runs, the table it names a row of and that table''s key, as the C code holds them (what the reference triggers check, on one server and on the shards of a Citus cluster)';
