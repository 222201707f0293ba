/* ---------------------------------------------------------------------
 * 5. Documents in and out (doc/reference.md, "Documents in and out")
 *
 * Every path goes through the run layout in C (src/run_layout.c): a
 * document is checked and split into its parts on the way in, and rebuilt
 * from them on the way out.
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

CREATE FUNCTION kernelindex_internal.run_bundle_of(r kernelindex.runs, protocol @extschema@.kidx_digest,
	workload @extschema@.kidx_digest, environment @extschema@.kidx_digest,
	implementation @extschema@.kidx_digest, workload_label text, name text, external_id text,
	whole boolean)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'kidx_run_bundle_of'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex_internal.run_bundle_of(kernelindex.runs, @extschema@.kidx_digest, @extschema@.kidx_digest, @extschema@.kidx_digest, @extschema@.kidx_digest, text, text, text, boolean) IS
'the bundle {run, protocol, environment} of a run row, given the digests of its resources, its workload''s label and its name and externalId strings (with workload and implementation, where known, if whole): the run layout rebuilding a document; kernelindex.run_bundles calls it';

CREATE FUNCTION kernelindex.run_json(r kernelindex.runs)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'kidx_run_json'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.run_json(kernelindex.runs) IS
'the BenchmarkRun document of a stored run row';

/* Every run with its documents: one relation for COPY out and look-ups -- */

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

-- (run_document and run_bundle give what run_bundles gives for the digest;
-- in C, so that a query calling them for many digests reads each
-- dictionary value and resource once, not once a call.  Regress documents
-- compares them with run_bundles.)
CREATE FUNCTION kernelindex.run_document(run @extschema@.kidx_digest)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'kidx_run_document'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.run_document(@extschema@.kidx_digest) IS
'the bundle {run, protocol, environment} of a stored run, in the form of the reference records; NULL if no such run';

CREATE FUNCTION kernelindex.run_bundle(run @extschema@.kidx_digest)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'kidx_run_bundle'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.run_bundle(@extschema@.kidx_digest) IS
'run_document plus the workload and implementation documents where they are known';

/* One relation for COPY in and out -------------------------------------- */

CREATE VIEW kernelindex.documents AS
SELECT b.document FROM kernelindex.run_bundles b;
COMMENT ON VIEW kernelindex.documents IS
'every run as its bundle {run, protocol, environment}, one per row; INSERT or COPY into it ingests documents, one per line';
COMMENT ON COLUMN kernelindex.documents.document IS 'a bundle (or, written to it, any bundle or single resource)';

CREATE FUNCTION kernelindex_internal.documents_begin()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_documents_begin' LANGUAGE C;
COMMENT ON FUNCTION kernelindex_internal.documents_begin() IS
'BEFORE INSERT statement trigger of kernelindex.documents: begins the statement''s batch';

CREATE FUNCTION kernelindex_internal.documents_row()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_documents_row' LANGUAGE C;
COMMENT ON FUNCTION kernelindex_internal.documents_row() IS
'INSTEAD OF INSERT trigger of kernelindex.documents: checks and splits one document into the batch';

CREATE FUNCTION kernelindex_internal.documents_end()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_documents_end' LANGUAGE C;
COMMENT ON FUNCTION kernelindex_internal.documents_end() IS
'AFTER INSERT statement trigger of kernelindex.documents: stores the batch';

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
