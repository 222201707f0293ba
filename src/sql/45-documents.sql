/* ---------------------------------------------------------------------
 * 5. Documents in and out (SPEC section 8)
 *
 * Every path goes through the run layout in C (src/run_layout.c): a
 * document is checked and split into its series and its values on the
 * way in, and rebuilt from them on the way out.
 *
 *   \copy kernelindex.documents FROM 'runs.jsonl' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')
 *   \copy (SELECT document FROM kernelindex.documents) TO 'runs.jsonl' WITH (...the same...)
 * --------------------------------------------------------------------- */

CREATE FUNCTION kernelindex.ingest_bundles(bundles jsonb[])
RETURNS bigint
AS 'MODULE_PATHNAME', 'kidx_ingest_bundles'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION kernelindex.ingest_bundles(jsonb[]) IS
'ingest bundles {run, protocol, environment[, workload, implementation]} or single resources, in one step, idempotently; verifies every digest; returns the number of runs newly stored';

CREATE FUNCTION kernelindex.ingest_document(document jsonb)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME', 'kidx_ingest_document'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION kernelindex.ingest_document(jsonb) IS
'ingest one bundle or one resource (verified, idempotent); returns the digest of its run, or of the resource (NULL for a bundle without run)';

CREATE FUNCTION kernelindex.run_bundle_of(series_id integer, observed_at timestamptz,
	latency_ns bigint, latency_ns_p20 bigint, latency_ns_p80 bigint,
	peak_bytes bigint, peak_bytes_p20 bigint, peak_bytes_p80 bigint,
	native_p20 numeric, native_p50 numeric, native_p80 numeric, whole boolean)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'kidx_run_bundle_of'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.run_bundle_of(integer, timestamptz, bigint, bigint, bigint, bigint, bigint, bigint, numeric, numeric, numeric, boolean) IS
'the bundle {run, protocol, environment} of a run from its columns (with workload and implementation, where known, if whole): the run layout rebuilding a document';

CREATE FUNCTION kernelindex.run_json(r kernelindex.runs)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'kidx_run_json'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.run_json(kernelindex.runs) IS
'the BenchmarkRun document of a stored run row';

CREATE FUNCTION kernelindex.run_document(run @extschema@.kidx_digest)
RETURNS jsonb
LANGUAGE sql STABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
SELECT kernelindex.run_bundle_of(r.series_id, r.observed_at, r.latency_ns, r.latency_ns_p20,
	r.latency_ns_p80, r.peak_bytes, r.peak_bytes_p20, r.peak_bytes_p80,
	r.native_p20, r.native_p50, r.native_p80, false)
FROM kernelindex.runs r
WHERE r.digest OPERATOR(@extschema@.=) run_document.run;
END;
COMMENT ON FUNCTION kernelindex.run_document(@extschema@.kidx_digest) IS
'the bundle {run, protocol, environment} of a stored run, in the form of the reference records; NULL if no such run';

CREATE FUNCTION kernelindex.run_bundle(run @extschema@.kidx_digest)
RETURNS jsonb
LANGUAGE sql STABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
SELECT kernelindex.run_bundle_of(r.series_id, r.observed_at, r.latency_ns, r.latency_ns_p20,
	r.latency_ns_p80, r.peak_bytes, r.peak_bytes_p20, r.peak_bytes_p80,
	r.native_p20, r.native_p50, r.native_p80, true)
FROM kernelindex.runs r
WHERE r.digest OPERATOR(@extschema@.=) run_bundle.run;
END;
COMMENT ON FUNCTION kernelindex.run_bundle(@extschema@.kidx_digest) IS
'run_document plus the workload and implementation documents where they are known';

/* One relation for COPY in and out -------------------------------------- */

CREATE VIEW kernelindex.documents AS
SELECT kernelindex.run_bundle_of(r.series_id, r.observed_at, r.latency_ns, r.latency_ns_p20,
	r.latency_ns_p80, r.peak_bytes, r.peak_bytes_p20, r.peak_bytes_p80,
	r.native_p20, r.native_p50, r.native_p80, false) AS document
FROM kernelindex.runs r;
COMMENT ON VIEW kernelindex.documents IS
'every run as its bundle {run, protocol, environment}, one per row; INSERT or COPY into it ingests documents, one per line';
COMMENT ON COLUMN kernelindex.documents.document IS 'a bundle (or, written to it, any bundle or single resource)';

CREATE FUNCTION kernelindex.documents_begin()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_documents_begin' LANGUAGE C;
COMMENT ON FUNCTION kernelindex.documents_begin() IS
'BEFORE INSERT statement trigger of kernelindex.documents: begins the statement''s batch';

CREATE FUNCTION kernelindex.documents_row()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_documents_row' LANGUAGE C;
COMMENT ON FUNCTION kernelindex.documents_row() IS
'INSTEAD OF INSERT trigger of kernelindex.documents: checks and splits one document into the batch';

CREATE FUNCTION kernelindex.documents_end()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_documents_end' LANGUAGE C;
COMMENT ON FUNCTION kernelindex.documents_end() IS
'AFTER INSERT statement trigger of kernelindex.documents: stores the batch';

CREATE TRIGGER documents_begin
BEFORE INSERT ON kernelindex.documents
FOR EACH STATEMENT EXECUTE FUNCTION kernelindex.documents_begin();
COMMENT ON TRIGGER documents_begin ON kernelindex.documents IS
'begins ingesting an INSERT or COPY into the view';

CREATE TRIGGER documents_row
INSTEAD OF INSERT ON kernelindex.documents
FOR EACH ROW EXECUTE FUNCTION kernelindex.documents_row();
COMMENT ON TRIGGER documents_row ON kernelindex.documents IS
'each document written to the view is checked and split (nothing is stored before the statement ends)';

CREATE TRIGGER documents_end
AFTER INSERT ON kernelindex.documents
FOR EACH STATEMENT EXECUTE FUNCTION kernelindex.documents_end();
COMMENT ON TRIGGER documents_end ON kernelindex.documents IS
'stores what the statement brought: resources, keys, series and runs, in one set-based step';
