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

CREATE FUNCTION kernelindex_internal.run_rows_begin()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_run_rows_begin' LANGUAGE C;
COMMENT ON FUNCTION kernelindex_internal.run_rows_begin() IS
'BEFORE INSERT statement trigger of kernelindex.run_rows: begins the statement''s batch, reads the catalogs';

CREATE FUNCTION kernelindex_internal.run_rows_row()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_run_rows_row' LANGUAGE C;
COMMENT ON FUNCTION kernelindex_internal.run_rows_row() IS
'INSTEAD OF INSERT trigger of kernelindex.run_rows: checks one row and makes its run (a bad row fails the statement, or is quarantined)';

CREATE FUNCTION kernelindex_internal.run_rows_end()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_run_rows_end' LANGUAGE C;
COMMENT ON FUNCTION kernelindex_internal.run_rows_end() IS
'AFTER INSERT statement trigger of kernelindex.run_rows: stores the statement''s last batch';

CREATE TRIGGER run_rows_begin
BEFORE INSERT ON kernelindex.run_rows
FOR EACH STATEMENT EXECUTE FUNCTION kernelindex_internal.run_rows_begin();
COMMENT ON TRIGGER run_rows_begin ON kernelindex.run_rows IS
'begins turning an INSERT or COPY into runs';

CREATE TRIGGER run_rows_row
INSTEAD OF INSERT ON kernelindex.run_rows
FOR EACH ROW EXECUTE FUNCTION kernelindex_internal.run_rows_row();
COMMENT ON TRIGGER run_rows_row ON kernelindex.run_rows IS
'each row is checked and becomes a run of its group (the rows that differ from it only in time and statistics)';

CREATE TRIGGER run_rows_end
AFTER INSERT ON kernelindex.run_rows
FOR EACH STATEMENT EXECUTE FUNCTION kernelindex_internal.run_rows_end();
COMMENT ON TRIGGER run_rows_end ON kernelindex.run_rows IS
'stores what the statement has not stored yet';
