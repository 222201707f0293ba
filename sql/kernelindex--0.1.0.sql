/*
 * kernelindex install script.
 *
 * The Makefile concatenates the parts src/sql/NN-name.sql, by number, into
 * sql/kernelindex--<version>.sql, so that the version lives in the control
 * file only and each capability keeps its SQL beside its C.  The result reads
 * top to bottom as the data flows: the digest type, canonical JSON, units,
 * comparability, tables, catalogs, ingestion, views.  The type and the kidx_*
 * functions live in the schema the extension is created in (@extschema@);
 * tables, views and the ingestion functions live in schema kernelindex.
 */

\echo Use "CREATE EXTENSION kernelindex" to load this file. \quit

/*
 * Tables and views go to schema kernelindex, which this script creates: the
 * type and functions cannot live there too, nor in pg_catalog.
 */
DO $$
BEGIN
	IF '@extschema@' IN ('kernelindex', 'pg_catalog') THEN
		RAISE EXCEPTION 'kernelindex cannot be created in schema @extschema@'
			USING ERRCODE = 'invalid_schema_name',
			HINT = 'Create it in another schema (public by default); its tables and views go to schema kernelindex.';
	END IF;
END
$$;
/* ---------------------------------------------------------------------
 * 1. The kidx_digest type
 * --------------------------------------------------------------------- */

CREATE TYPE @extschema@.kidx_digest;

CREATE FUNCTION @extschema@.kidx_digest_in(cstring)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.kidx_digest_out(@extschema@.kidx_digest)
RETURNS cstring
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.kidx_digest_recv(internal)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.kidx_digest_send(@extschema@.kidx_digest)
RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.kidx_digest (
	INPUT = @extschema@.kidx_digest_in,
	OUTPUT = @extschema@.kidx_digest_out,
	RECEIVE = @extschema@.kidx_digest_recv,
	SEND = @extschema@.kidx_digest_send,
	INTERNALLENGTH = 32,
	ALIGNMENT = char,
	STORAGE = plain
);

COMMENT ON TYPE @extschema@.kidx_digest IS
'SHA-256 digest in 32 bytes; text form sha256:<64 lowercase hex digits>';
COMMENT ON FUNCTION @extschema@.kidx_digest_in(cstring) IS
'text input of kidx_digest: sha256:<64 lowercase hex digits>';
COMMENT ON FUNCTION @extschema@.kidx_digest_out(@extschema@.kidx_digest) IS
'text output of kidx_digest';
COMMENT ON FUNCTION @extschema@.kidx_digest_recv(internal) IS
'binary input of kidx_digest: exactly 32 bytes';
COMMENT ON FUNCTION @extschema@.kidx_digest_send(@extschema@.kidx_digest) IS
'binary output of kidx_digest: the 32 bytes';

CREATE FUNCTION @extschema@.kidx_digest_cmp(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_cmp(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'three-way comparison of digests in byte order: -1, 0 or 1';

CREATE FUNCTION @extschema@.kidx_digest_lt(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_lt(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'implementation of < for kidx_digest';

CREATE FUNCTION @extschema@.kidx_digest_le(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_le(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'implementation of <= for kidx_digest';

CREATE FUNCTION @extschema@.kidx_digest_eq(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_eq(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'implementation of = for kidx_digest';

CREATE FUNCTION @extschema@.kidx_digest_ne(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_ne(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'implementation of <> for kidx_digest';

CREATE FUNCTION @extschema@.kidx_digest_ge(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_ge(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'implementation of >= for kidx_digest';

CREATE FUNCTION @extschema@.kidx_digest_gt(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_gt(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'implementation of > for kidx_digest';

CREATE OPERATOR @extschema@.< (
	LEFTARG = @extschema@.kidx_digest, RIGHTARG = @extschema@.kidx_digest,
	FUNCTION = @extschema@.kidx_digest_lt,
	COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR @extschema@.< (@extschema@.kidx_digest, @extschema@.kidx_digest) IS 'less than';

CREATE OPERATOR @extschema@.<= (
	LEFTARG = @extschema@.kidx_digest, RIGHTARG = @extschema@.kidx_digest,
	FUNCTION = @extschema@.kidx_digest_le,
	COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR @extschema@.<= (@extschema@.kidx_digest, @extschema@.kidx_digest) IS 'less than or equal';

CREATE OPERATOR @extschema@.= (
	LEFTARG = @extschema@.kidx_digest, RIGHTARG = @extschema@.kidx_digest,
	FUNCTION = @extschema@.kidx_digest_eq,
	COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = eqsel, JOIN = eqjoinsel,
	HASHES, MERGES
);
COMMENT ON OPERATOR @extschema@.= (@extschema@.kidx_digest, @extschema@.kidx_digest) IS 'equal';

CREATE OPERATOR @extschema@.<> (
	LEFTARG = @extschema@.kidx_digest, RIGHTARG = @extschema@.kidx_digest,
	FUNCTION = @extschema@.kidx_digest_ne,
	COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR @extschema@.<> (@extschema@.kidx_digest, @extschema@.kidx_digest) IS 'not equal';

CREATE OPERATOR @extschema@.>= (
	LEFTARG = @extschema@.kidx_digest, RIGHTARG = @extschema@.kidx_digest,
	FUNCTION = @extschema@.kidx_digest_ge,
	COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR @extschema@.>= (@extschema@.kidx_digest, @extschema@.kidx_digest) IS 'greater than or equal';

CREATE OPERATOR @extschema@.> (
	LEFTARG = @extschema@.kidx_digest, RIGHTARG = @extschema@.kidx_digest,
	FUNCTION = @extschema@.kidx_digest_gt,
	COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR @extschema@.> (@extschema@.kidx_digest, @extschema@.kidx_digest) IS 'greater than';

CREATE FUNCTION @extschema@.kidx_digest_sortsupport(internal)
RETURNS void
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_digest_sortsupport(internal) IS
'btree sort support for kidx_digest (abbreviated keys)';

CREATE OPERATOR CLASS @extschema@.kidx_digest_ops
DEFAULT FOR TYPE @extschema@.kidx_digest USING btree AS
	OPERATOR 1 @extschema@.<,
	OPERATOR 2 @extschema@.<=,
	OPERATOR 3 @extschema@.=,
	OPERATOR 4 @extschema@.>=,
	OPERATOR 5 @extschema@.>,
	FUNCTION 1 @extschema@.kidx_digest_cmp(@extschema@.kidx_digest, @extschema@.kidx_digest),
	FUNCTION 2 @extschema@.kidx_digest_sortsupport(internal),
	FUNCTION 4 pg_catalog.btequalimage(oid);
COMMENT ON OPERATOR CLASS @extschema@.kidx_digest_ops USING btree IS
'byte order of kidx_digest (deduplication-safe)';
COMMENT ON OPERATOR FAMILY @extschema@.kidx_digest_ops USING btree IS
'byte order of kidx_digest';

CREATE FUNCTION @extschema@.kidx_digest_hash(@extschema@.kidx_digest)
RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_hash(@extschema@.kidx_digest) IS
'32-bit hash of a digest (hash support function 1)';

CREATE FUNCTION @extschema@.kidx_digest_hash_extended(@extschema@.kidx_digest, bigint)
RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_hash_extended(@extschema@.kidx_digest, bigint) IS
'seeded 64-bit hash of a digest (hash support function 2)';

CREATE OPERATOR CLASS @extschema@.kidx_digest_hash_ops
DEFAULT FOR TYPE @extschema@.kidx_digest USING hash AS
	OPERATOR 1 @extschema@.=,
	FUNCTION 1 @extschema@.kidx_digest_hash(@extschema@.kidx_digest),
	FUNCTION 2 @extschema@.kidx_digest_hash_extended(@extschema@.kidx_digest, bigint);
COMMENT ON OPERATOR CLASS @extschema@.kidx_digest_hash_ops USING hash IS
'hashing of kidx_digest (hash joins, hash aggregation, PARTITION BY HASH)';
COMMENT ON OPERATOR FAMILY @extschema@.kidx_digest_hash_ops USING hash IS
'hashing of kidx_digest';

CREATE FUNCTION @extschema@.kidx_digest_smaller(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_digest_smaller(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'the smaller of two digests';

CREATE FUNCTION @extschema@.kidx_digest_larger(@extschema@.kidx_digest, @extschema@.kidx_digest)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_digest_larger(@extschema@.kidx_digest, @extschema@.kidx_digest) IS
'the larger of two digests';

CREATE AGGREGATE @extschema@.min(@extschema@.kidx_digest) (
	SFUNC = @extschema@.kidx_digest_smaller,
	STYPE = @extschema@.kidx_digest,
	COMBINEFUNC = @extschema@.kidx_digest_smaller,
	SORTOP = OPERATOR(@extschema@.<),
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.min(@extschema@.kidx_digest) IS
'smallest digest in byte order';

CREATE AGGREGATE @extschema@.max(@extschema@.kidx_digest) (
	SFUNC = @extschema@.kidx_digest_larger,
	STYPE = @extschema@.kidx_digest,
	COMBINEFUNC = @extschema@.kidx_digest_larger,
	SORTOP = OPERATOR(@extschema@.>),
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.max(@extschema@.kidx_digest) IS
'largest digest in byte order';

CREATE FUNCTION @extschema@.kidx_digest_to_bytea(@extschema@.kidx_digest)
RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.kidx_digest_to_bytea(@extschema@.kidx_digest) IS
'the 32 bytes of a digest';

CREATE FUNCTION @extschema@.kidx_digest_from_bytea(bytea)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_digest_from_bytea(bytea) IS
'a digest from exactly 32 bytes';

CREATE CAST (@extschema@.kidx_digest AS bytea)
	WITH FUNCTION @extschema@.kidx_digest_to_bytea(@extschema@.kidx_digest);
CREATE CAST (bytea AS @extschema@.kidx_digest)
	WITH FUNCTION @extschema@.kidx_digest_from_bytea(bytea);
CREATE CAST (@extschema@.kidx_digest AS text) WITH INOUT AS ASSIGNMENT;
CREATE CAST (text AS @extschema@.kidx_digest) WITH INOUT;
COMMENT ON CAST (@extschema@.kidx_digest AS bytea) IS 'the 32 bytes of a digest';
COMMENT ON CAST (bytea AS @extschema@.kidx_digest) IS 'a digest from exactly 32 bytes';
COMMENT ON CAST (@extschema@.kidx_digest AS text) IS 'the text form sha256:<hex>';
COMMENT ON CAST (text AS @extschema@.kidx_digest) IS 'parse the text form sha256:<hex>';
/* ---------------------------------------------------------------------
 * 2. Canonical JSON (RFC 8785) and digests
 * --------------------------------------------------------------------- */

CREATE FUNCTION @extschema@.kidx_canonical(jsonb)
RETURNS text
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_canonical(jsonb) IS
'RFC 8785 canonical JSON text of a value; numbers a double cannot carry exactly are an error';

CREATE FUNCTION @extschema@.kidx_canonical_digest(jsonb)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_canonical_digest(jsonb) IS
'SHA-256 of the RFC 8785 canonical JSON of a value';

CREATE FUNCTION @extschema@.kidx_resource_digest(jsonb)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_resource_digest(jsonb) IS
'identity digest of a resource: SHA-256 of the canonical JSON of {apiVersion, kind, spec}';
/* ---------------------------------------------------------------------
 * 3. Units: exact decimal scaling, rounded half away from zero
 * --------------------------------------------------------------------- */

CREATE FUNCTION @extschema@.kidx_ms_to_ns(numeric)
RETURNS bigint
AS 'MODULE_PATHNAME', 'kidx_ms_to_ns_numeric' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_ms_to_ns(numeric) IS
'milliseconds to whole nanoseconds, exact, rounded half away from zero';

CREATE FUNCTION @extschema@.kidx_ms_to_ns(text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'kidx_ms_to_ns_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_ms_to_ns(text) IS
'milliseconds written as decimal text (as harness CSVs write them) to whole nanoseconds, exact, rounded half away from zero';

CREATE FUNCTION @extschema@.kidx_ms_to_ns(double precision)
RETURNS bigint
AS 'MODULE_PATHNAME', 'kidx_ms_to_ns_float8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_ms_to_ns(double precision) IS
'milliseconds to whole nanoseconds via the shortest round-trip decimal of the double, exact, rounded half away from zero';

CREATE FUNCTION @extschema@.kidx_mib_to_bytes(numeric)
RETURNS bigint
AS 'MODULE_PATHNAME', 'kidx_mib_to_bytes_numeric' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_mib_to_bytes(numeric) IS
'MiB (2^20 bytes) to whole bytes, exact, rounded half away from zero';

CREATE FUNCTION @extschema@.kidx_mib_to_bytes(text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'kidx_mib_to_bytes_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_mib_to_bytes(text) IS
'MiB written as decimal text to whole bytes, exact, rounded half away from zero';

CREATE FUNCTION @extschema@.kidx_mib_to_bytes(double precision)
RETURNS bigint
AS 'MODULE_PATHNAME', 'kidx_mib_to_bytes_float8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_mib_to_bytes(double precision) IS
'MiB to whole bytes via the shortest round-trip decimal of the double, exact, rounded half away from zero';
/* ---------------------------------------------------------------------
 * 4. Comparability keys and the store
 *
 * Layout (see README "The store"):
 *   protocols, environments, workloads, implementations
 *       resources keyed by digest, each with a small integer id (what
 *       references point at: 4 bytes instead of 32) and the whole document
 *       (NULL for a workload or implementation known only by digest until
 *       its document arrives).
 *   comparability_keys
 *       one row per comparability key: the protocol, workload and
 *       environment runs must share to be compared (foreign keys).
 *   run_titles, run_statuses, run_sources, run_benchmarks, run_strings,
 *   run_labels, run_templates
 *       dictionaries of the values runs repeat: each value once, with a
 *       small id and a hash (the first 16 bytes of SHA-256 of its canonical
 *       JSON) that identifies it.  A template is a run document without
 *       anything a run holds, with the rules its runs' names and
 *       externalIds follow; a few serve every run of a harness.
 *   runs
 *       one row per run: its values as typed columns (observed_at, ns,
 *       bytes, the source-native values exactly as written), its
 *       comparability key (the distribution key) and implementation, and
 *       the ids of its dictionary values.  The run layout in C
 *       (src/run_layout.c) says which member of a document goes where.
 *
 * What runs refer to is checked per statement rather than by row-level
 * foreign keys, which would cost a million-run load a dozen checks a run:
 * the C triggers kernelindex.runs_references_check() and
 * runs_references_guard() keep the same promise under every isolation
 * level (test/t/030_references.pl).
 * --------------------------------------------------------------------- */

CREATE SCHEMA kernelindex;
COMMENT ON SCHEMA kernelindex IS
'kernelindex: benchmark protocols, environments, workloads, implementations and runs';

/* Comparability key (SPEC section 5) ---------------------------------- */

CREATE FUNCTION @extschema@.kidx_comparability_key(protocol @extschema@.kidx_digest,
												   workload @extschema@.kidx_digest,
												   environment @extschema@.kidx_digest)
RETURNS @extschema@.kidx_digest
AS 'MODULE_PATHNAME', 'kidx_comparability_key_digests'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.kidx_comparability_key(@extschema@.kidx_digest, @extschema@.kidx_digest, @extschema@.kidx_digest) IS
'comparability key of runs: SHA-256 of the canonical JSON {"environment":E,"protocol":P,"workload":W} of the three digests as text';

CREATE FUNCTION @extschema@.kidx_comparability_key(run jsonb)
RETURNS @extschema@.kidx_digest
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN @extschema@.kidx_comparability_key(
	(COALESCE(run OPERATOR(pg_catalog.->) 'run', run) OPERATOR(pg_catalog.#>>) '{spec,protocolDigest}')::@extschema@.kidx_digest,
	(COALESCE(run OPERATOR(pg_catalog.->) 'run', run) OPERATOR(pg_catalog.#>>) '{spec,workloadDigest}')::@extschema@.kidx_digest,
	(COALESCE(run OPERATOR(pg_catalog.->) 'run', run) OPERATOR(pg_catalog.#>>) '{spec,environmentDigest}')::@extschema@.kidx_digest);
COMMENT ON FUNCTION @extschema@.kidx_comparability_key(jsonb) IS
'comparability key of a BenchmarkRun document or of a bundle {run, ...}; NULL if it lacks a digest';

CREATE FUNCTION @extschema@.kidx_comparable(a jsonb, b jsonb)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN @extschema@.kidx_comparability_key(a) OPERATOR(@extschema@.=) @extschema@.kidx_comparability_key(b);
COMMENT ON FUNCTION @extschema@.kidx_comparable(jsonb, jsonb) IS
'whether two run documents (or bundles) share protocol, workload and environment (the function behind jsonb ~=~ jsonb)';

CREATE OPERATOR @extschema@.~=~ (
	LEFTARG = jsonb, RIGHTARG = jsonb,
	FUNCTION = @extschema@.kidx_comparable,
	COMMUTATOR = OPERATOR(@extschema@.~=~)
);
COMMENT ON OPERATOR @extschema@.~=~ (jsonb, jsonb) IS
'run documents are comparable: same comparability key (inlined, so joins hash on the key)';

/* Resource tables ----------------------------------------------------- */

CREATE TABLE kernelindex.protocols (
	digest @extschema@.kidx_digest PRIMARY KEY,
	id integer GENERATED BY DEFAULT AS IDENTITY UNIQUE,
	document jsonb NOT NULL,
	title text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{metadata,title}') STORED,
	CONSTRAINT protocols_kind CHECK ((document OPERATOR(pg_catalog.->>) 'kind') = 'BenchmarkProtocol'),
	CONSTRAINT protocols_digest CHECK (digest OPERATOR(@extschema@.=) @extschema@.kidx_resource_digest(document))
);
COMMENT ON TABLE kernelindex.protocols IS 'BenchmarkProtocol resources: how a number was measured';
COMMENT ON COLUMN kernelindex.protocols.digest IS 'resource digest of {apiVersion, kind, spec}';
COMMENT ON COLUMN kernelindex.protocols.id IS 'small surrogate id, the target of comparability_keys.protocol_id';
COMMENT ON COLUMN kernelindex.protocols.document IS 'the whole resource document as first ingested (metadata included)';
COMMENT ON COLUMN kernelindex.protocols.title IS 'metadata.title of the document (generated)';

CREATE TABLE kernelindex.environments (
	digest @extschema@.kidx_digest PRIMARY KEY,
	id integer GENERATED BY DEFAULT AS IDENTITY UNIQUE,
	document jsonb NOT NULL,
	vendor text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{spec,hardware,vendor}') STORED,
	product text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{spec,hardware,product}') STORED,
	form_factor text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{spec,hardware,formFactor}') STORED,
	architecture text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{spec,hardware,architecture}') STORED,
	title text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{metadata,title}') STORED,
	CONSTRAINT environments_kind CHECK ((document OPERATOR(pg_catalog.->>) 'kind') = 'ExecutionEnvironment'),
	CONSTRAINT environments_digest CHECK (digest OPERATOR(@extschema@.=) @extschema@.kidx_resource_digest(document))
);
COMMENT ON TABLE kernelindex.environments IS 'ExecutionEnvironment resources: where a number was measured (the GPU)';
COMMENT ON COLUMN kernelindex.environments.digest IS 'resource digest of {apiVersion, kind, spec}';
COMMENT ON COLUMN kernelindex.environments.id IS 'small surrogate id, the target of comparability_keys.environment_id';
COMMENT ON COLUMN kernelindex.environments.document IS 'the whole resource document as first ingested (metadata included)';
COMMENT ON COLUMN kernelindex.environments.vendor IS 'spec.hardware.vendor, e.g. nvidia (generated)';
COMMENT ON COLUMN kernelindex.environments.product IS 'spec.hardware.product, e.g. NVIDIA A100 (generated)';
COMMENT ON COLUMN kernelindex.environments.form_factor IS 'spec.hardware.formFactor, e.g. SXM4-80GB (generated)';
COMMENT ON COLUMN kernelindex.environments.architecture IS 'spec.hardware.architecture, e.g. sm_80 (generated)';
COMMENT ON COLUMN kernelindex.environments.title IS 'metadata.title of the document (generated)';

CREATE TABLE kernelindex.workloads (
	digest @extschema@.kidx_digest PRIMARY KEY,
	id integer GENERATED BY DEFAULT AS IDENTITY UNIQUE,
	document jsonb,
	kernel text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{spec,kernel}') STORED,
	label text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{metadata,labels,label}') STORED,
	title text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{metadata,title}') STORED,
	CONSTRAINT workloads_kind CHECK ((document OPERATOR(pg_catalog.->>) 'kind') = 'Workload'),
	CONSTRAINT workloads_digest CHECK (digest OPERATOR(@extschema@.=) @extschema@.kidx_resource_digest(document))
);
COMMENT ON TABLE kernelindex.workloads IS 'Workload resources: the kernel and every input that shapes the work; document NULL while known only by digest';
COMMENT ON COLUMN kernelindex.workloads.digest IS 'resource digest of {apiVersion, kind, spec}';
COMMENT ON COLUMN kernelindex.workloads.id IS 'small surrogate id, the target of comparability_keys.workload_id';
COMMENT ON COLUMN kernelindex.workloads.document IS 'the whole resource document, or NULL if only its digest is known so far';
COMMENT ON COLUMN kernelindex.workloads.kernel IS 'spec.kernel (generated)';
COMMENT ON COLUMN kernelindex.workloads.label IS 'metadata.labels.label, the workload label, e.g. features16384-tokens2048-fp32 (generated)';
COMMENT ON COLUMN kernelindex.workloads.title IS 'metadata.title of the document (generated)';
CREATE INDEX workloads_kernel ON kernelindex.workloads (kernel);
COMMENT ON INDEX kernelindex.workloads_kernel IS 'finds the workloads of a kernel (a dashboard''s filter on kernel)';

CREATE FUNCTION kernelindex.workloads_label_guard()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_workloads_label_guard'
LANGUAGE C;
COMMENT ON FUNCTION kernelindex.workloads_label_guard() IS
'refuses an update that changes or removes the label of a stored workload document (trigger workloads_label)';
CREATE TRIGGER workloads_label BEFORE UPDATE ON kernelindex.workloads
FOR EACH ROW WHEN ((OLD.document OPERATOR(pg_catalog.#>>) '{metadata,labels,label}') IS NOT NULL AND
	(NEW.document OPERATOR(pg_catalog.#>>) '{metadata,labels,label}') IS DISTINCT FROM
	(OLD.document OPERATOR(pg_catalog.#>>) '{metadata,labels,label}'))
EXECUTE FUNCTION kernelindex.workloads_label_guard();
COMMENT ON TRIGGER workloads_label ON kernelindex.workloads IS
'a stored workload''s label, once it has one, never changes: runs whose externalId is made of it (run_templates.external_id_form labelled) rebuild it from there';

CREATE TABLE kernelindex.implementations (
	digest @extschema@.kidx_digest PRIMARY KEY,
	id integer GENERATED BY DEFAULT AS IDENTITY UNIQUE,
	document jsonb,
	kernel text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{spec,kernel}') STORED,
	provider text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{spec,provider}') STORED,
	title text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{metadata,title}') STORED,
	CONSTRAINT implementations_kind CHECK ((document OPERATOR(pg_catalog.->>) 'kind') = 'Implementation'),
	CONSTRAINT implementations_digest CHECK (digest OPERATOR(@extschema@.=) @extschema@.kidx_resource_digest(document))
);
COMMENT ON TABLE kernelindex.implementations IS 'Implementation resources: provider, kernel and harness; document NULL while known only by digest';
COMMENT ON COLUMN kernelindex.implementations.digest IS 'resource digest of {apiVersion, kind, spec}';
COMMENT ON COLUMN kernelindex.implementations.id IS 'small surrogate id, the target of runs.implementation_id';
COMMENT ON COLUMN kernelindex.implementations.document IS 'the whole resource document, or NULL if only its digest is known so far';
COMMENT ON COLUMN kernelindex.implementations.kernel IS 'spec.kernel (generated)';
COMMENT ON COLUMN kernelindex.implementations.provider IS 'spec.provider, e.g. torch, liger (generated)';
COMMENT ON COLUMN kernelindex.implementations.title IS 'metadata.title of the document (generated)';

/* What runs are compared by: comparability keys -------------------------- */

CREATE TABLE kernelindex.comparability_keys (
	key @extschema@.kidx_digest PRIMARY KEY,
	protocol_id integer NOT NULL REFERENCES kernelindex.protocols (id),
	workload_id integer NOT NULL REFERENCES kernelindex.workloads (id),
	environment_id integer NOT NULL REFERENCES kernelindex.environments (id)
);
CREATE INDEX comparability_keys_workload ON kernelindex.comparability_keys (workload_id);
CREATE INDEX comparability_keys_environment ON kernelindex.comparability_keys (environment_id);
COMMENT ON TABLE kernelindex.comparability_keys IS
'the comparability keys runs are stored under: each one a protocol, a workload and an environment';
COMMENT ON COLUMN kernelindex.comparability_keys.key IS 'kidx_comparability_key(protocol, workload, environment)';
COMMENT ON COLUMN kernelindex.comparability_keys.protocol_id IS 'the protocol (kernelindex.protocols.id)';
COMMENT ON COLUMN kernelindex.comparability_keys.workload_id IS 'the workload (kernelindex.workloads.id)';
COMMENT ON COLUMN kernelindex.comparability_keys.environment_id IS 'the environment (kernelindex.environments.id)';
COMMENT ON INDEX kernelindex.comparability_keys_workload IS 'finds the keys of a workload (a dashboard''s filter on kernel)';
COMMENT ON INDEX kernelindex.comparability_keys_environment IS 'finds the keys of an environment (a dashboard''s filter on GPU)';

/* What runs repeat: dictionaries ----------------------------------------- */

CREATE FUNCTION kernelindex.dictionary_hash(value text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'kidx_dictionary_hash_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.dictionary_hash(text) IS
'the hash of a dictionary string: the first 16 bytes of SHA-256 of its canonical JSON string, as a uuid';

CREATE FUNCTION kernelindex.dictionary_hash(value jsonb)
RETURNS uuid
AS 'MODULE_PATHNAME', 'kidx_dictionary_hash_jsonb'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.dictionary_hash(jsonb) IS
'the hash of a dictionary value: the first 16 bytes of SHA-256 of its canonical JSON, as a uuid';

CREATE FUNCTION kernelindex.template_hash(template jsonb, name_form text, name_prefix text,
	name_cut integer, external_id_form text, native_unit text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'kidx_template_hash'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.template_hash(jsonb, text, text, integer, text, text) IS
'the hash of a run template: the first 16 bytes of SHA-256 of the canonical JSON [template, name_form, name_prefix, name_cut, external_id_form, native_unit], as a uuid';

CREATE TABLE kernelindex.run_titles (
	id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	hash uuid NOT NULL UNIQUE,
	value text NOT NULL,
	CONSTRAINT run_titles_hash CHECK (hash = kernelindex.dictionary_hash(value))
);
COMMENT ON TABLE kernelindex.run_titles IS 'dictionary of run titles (metadata.title), e.g. Sparsemax · torch · backward';

CREATE TABLE kernelindex.run_statuses (
	id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	hash uuid NOT NULL UNIQUE,
	value text NOT NULL,
	CONSTRAINT run_statuses_hash CHECK (hash = kernelindex.dictionary_hash(value))
);
COMMENT ON TABLE kernelindex.run_statuses IS 'dictionary of run statuses (spec.status), e.g. passed';

CREATE TABLE kernelindex.run_sources (
	id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	hash uuid NOT NULL UNIQUE,
	value text NOT NULL,
	CONSTRAINT run_sources_hash CHECK (hash = kernelindex.dictionary_hash(value))
);
COMMENT ON TABLE kernelindex.run_sources IS 'dictionary of run sources (spec.sourceNative.source), e.g. liger-kernel-bench';

CREATE TABLE kernelindex.run_benchmarks (
	id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	hash uuid NOT NULL UNIQUE,
	value text NOT NULL,
	kernel text GENERATED ALWAYS AS (NULLIF(pg_catalog.split_part(value, '/', 1), '')) STORED,
	pass text GENERATED ALWAYS AS (NULLIF(pg_catalog.split_part(value, '/', 2), '')) STORED,
	CONSTRAINT run_benchmarks_hash CHECK (hash = kernelindex.dictionary_hash(value))
);
COMMENT ON TABLE kernelindex.run_benchmarks IS 'dictionary of benchmark names (spec.sourceNative.benchmark), e.g. sparsemax/backward';
COMMENT ON COLUMN kernelindex.run_benchmarks.kernel IS 'the first part of the benchmark name, e.g. sparsemax (generated)';
COMMENT ON COLUMN kernelindex.run_benchmarks.pass IS 'the timed pass: the second part of the benchmark name, e.g. backward (generated)';

CREATE TABLE kernelindex.run_strings (
	id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	hash uuid NOT NULL UNIQUE,
	value text NOT NULL,
	CONSTRAINT run_strings_hash CHECK (hash = kernelindex.dictionary_hash(value))
);
COMMENT ON TABLE kernelindex.run_strings IS
'dictionary of the strings runs derive their names and externalIds from: a stem their observedAt slug follows, or the whole string (see the rules of kernelindex.run_templates)';

CREATE TABLE kernelindex.run_labels (
	id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	hash uuid NOT NULL UNIQUE,
	value jsonb NOT NULL,
	release text GENERATED ALWAYS AS (COALESCE(value OPERATOR(pg_catalog.->>) 'release',
		value OPERATOR(pg_catalog.->>) 'liger_version')) STORED,
	CONSTRAINT run_labels_object CHECK (pg_catalog.jsonb_typeof(value) = 'object'),
	CONSTRAINT run_labels_hash CHECK (hash = kernelindex.dictionary_hash(value))
);
CREATE INDEX run_labels_release ON kernelindex.run_labels (release);
COMMENT ON TABLE kernelindex.run_labels IS 'dictionary of label sets (metadata.labels), e.g. {"liger_version": "0.5.8"}: a run''s release';
COMMENT ON COLUMN kernelindex.run_labels.release IS 'the release label: labels.release, else labels.liger_version (generated)';
COMMENT ON INDEX kernelindex.run_labels_release IS 'finds the label sets of a release';

CREATE TABLE kernelindex.run_templates (
	id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	hash uuid NOT NULL UNIQUE,
	value jsonb NOT NULL,
	name_form text NOT NULL CHECK (name_form IN ('literal', 'stem', 'from_external_id')),
	name_prefix text,
	name_cut integer NOT NULL CHECK (name_cut >= -1),
	external_id_form text NOT NULL CHECK (external_id_form IN ('absent', 'literal', 'stem', 'labelled')),
	native_unit text,
	CONSTRAINT run_templates_hash CHECK (hash = kernelindex.template_hash(value, name_form, name_prefix,
		name_cut, external_id_form, native_unit))
);
COMMENT ON TABLE kernelindex.run_templates IS
'dictionary of run templates: a run document without anything a run holds (its values, resource digests, title, labels, status, source, benchmark, name, externalId), and the rules its runs'' names and externalIds follow';
COMMENT ON COLUMN kernelindex.run_templates.value IS 'the run document without what runs hold (see README, "The run layout")';
COMMENT ON COLUMN kernelindex.run_templates.name_form IS 'how a run''s metadata.name is made: literal (the run''s name string), stem (its name string, then the observedAt slug), from_external_id (name_prefix, then the externalId slugged)';
COMMENT ON COLUMN kernelindex.run_templates.name_prefix IS 'from_external_id: what comes before the slugged externalId, e.g. liger-';
COMMENT ON COLUMN kernelindex.run_templates.name_cut IS 'characters the name is cut to, trailing hyphens removed; -1: not cut';
COMMENT ON COLUMN kernelindex.run_templates.external_id_form IS 'how a run''s externalId is made: absent, literal (the run''s string), stem (its string, then the observedAt slug), labelled (its benchmark, its string, its workload''s label, then the observedAt slug, joined by /)';
COMMENT ON COLUMN kernelindex.run_templates.native_unit IS 'prefix of the source-native metrics runs hold (ms: ms_20, ms_50, ms_80), NULL if none';

DO $$
DECLARE
	t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['run_titles', 'run_statuses', 'run_sources', 'run_benchmarks',
		'run_strings', 'run_labels', 'run_templates'] LOOP
		EXECUTE pg_catalog.format('COMMENT ON COLUMN kernelindex.%I.id IS %L', t,
			'small surrogate id, what runs refer to');
		EXECUTE pg_catalog.format('COMMENT ON COLUMN kernelindex.%I.hash IS %L', t,
			'identifies the value: the first 16 bytes of SHA-256 of its canonical JSON (CHECKed)');
		IF t NOT IN ('run_templates', 'run_labels') THEN
			EXECUTE pg_catalog.format('COMMENT ON COLUMN kernelindex.%I.value IS %L', t, 'the string');
		END IF;
		EXECUTE pg_catalog.format('COMMENT ON SEQUENCE kernelindex.%I IS %L', t || '_id_seq', 'ids of kernelindex.' || t);
		PERFORM pg_catalog.pg_extension_config_dump(pg_catalog.format('kernelindex.%I', t)::pg_catalog.regclass, '');
		PERFORM pg_catalog.pg_extension_config_dump(pg_catalog.format('kernelindex.%I', t || '_id_seq')::pg_catalog.regclass, '');
	END LOOP;
END
$$;
COMMENT ON COLUMN kernelindex.run_labels.value IS 'the label set, an object of strings';

/* Runs ----------------------------------------------------------------- */

CREATE TABLE kernelindex.runs (
	comparability_key @extschema@.kidx_digest NOT NULL,
	digest @extschema@.kidx_digest NOT NULL,
	implementation_id integer NOT NULL,
	template_id integer NOT NULL,
	labels_id integer,
	title_id integer,
	status_id integer NOT NULL,
	source_id integer,
	benchmark_id integer,
	name_id integer,
	external_id_id integer,
	observed_at timestamptz NOT NULL,
	latency_ns bigint,
	latency_ns_p20 bigint,
	latency_ns_p80 bigint,
	peak_bytes bigint,
	peak_bytes_p20 bigint,
	peak_bytes_p80 bigint,
	native_p20 numeric,
	native_p50 numeric,
	native_p80 numeric,
	external_key uuid,
	CONSTRAINT runs_pkey PRIMARY KEY (comparability_key, digest),
	CONSTRAINT runs_external_key UNIQUE (comparability_key, external_key)
);
CREATE INDEX runs_digest ON kernelindex.runs USING hash (digest);
COMMENT ON TABLE kernelindex.runs IS
'BenchmarkRun resources as typed columns and references to what runs repeat; kernelindex.run_document(digest) rebuilds the document';
COMMENT ON COLUMN kernelindex.runs.comparability_key IS 'kidx_comparability_key(protocol, workload, environment): runs are comparable iff equal (distribution key; kernelindex.comparability_keys)';
COMMENT ON COLUMN kernelindex.runs.digest IS 'resource digest of the run document {apiVersion, kind, spec}';
COMMENT ON COLUMN kernelindex.runs.implementation_id IS 'the implementation (kernelindex.implementations.id); a series is one implementation''s runs under one comparability key';
COMMENT ON COLUMN kernelindex.runs.template_id IS 'the run''s template (kernelindex.run_templates.id)';
COMMENT ON COLUMN kernelindex.runs.labels_id IS 'metadata.labels (kernelindex.run_labels.id): the run''s release; NULL: none';
COMMENT ON COLUMN kernelindex.runs.title_id IS 'metadata.title (kernelindex.run_titles.id); NULL: none';
COMMENT ON COLUMN kernelindex.runs.status_id IS 'spec.status (kernelindex.run_statuses.id)';
COMMENT ON COLUMN kernelindex.runs.source_id IS 'spec.sourceNative.source (kernelindex.run_sources.id); NULL: none';
COMMENT ON COLUMN kernelindex.runs.benchmark_id IS 'spec.sourceNative.benchmark (kernelindex.run_benchmarks.id); NULL: none';
COMMENT ON COLUMN kernelindex.runs.name_id IS 'the string metadata.name derives from (kernelindex.run_strings.id), by the template''s name_form; NULL: the name derives from the externalId';
COMMENT ON COLUMN kernelindex.runs.external_id_id IS 'the string spec.sourceNative.externalId derives from (kernelindex.run_strings.id), by the template''s external_id_form; NULL: none';
COMMENT ON COLUMN kernelindex.runs.observed_at IS 'spec.observedAt';
COMMENT ON COLUMN kernelindex.runs.latency_ns IS 'spec.timing.latencyNs.median, nanoseconds';
COMMENT ON COLUMN kernelindex.runs.latency_ns_p20 IS 'the latency/p20/ns measurement, nanoseconds';
COMMENT ON COLUMN kernelindex.runs.latency_ns_p80 IS 'the latency/p80/ns measurement, nanoseconds';
COMMENT ON COLUMN kernelindex.runs.peak_bytes IS 'spec.memory.peakBytes.median, bytes';
COMMENT ON COLUMN kernelindex.runs.peak_bytes_p20 IS 'the peakMemory/p20/bytes measurement, bytes';
COMMENT ON COLUMN kernelindex.runs.peak_bytes_p80 IS 'the peakMemory/p80/bytes measurement, bytes';
COMMENT ON COLUMN kernelindex.runs.native_p20 IS 'source-native p20 value exactly as written (the template''s native_unit || ''_20'', e.g. ms_20)';
COMMENT ON COLUMN kernelindex.runs.native_p50 IS 'source-native median exactly as written (e.g. ms_50)';
COMMENT ON COLUMN kernelindex.runs.native_p80 IS 'source-native p80 value exactly as written (e.g. ms_80)';
COMMENT ON COLUMN kernelindex.runs.external_key IS 'the first 16 bytes of SHA-256 over the canonical JSON [sourceNative.source, sourceNative.externalId], as uuid: unique per comparability key';
COMMENT ON INDEX kernelindex.runs_digest IS 'finds a run by its digest alone (run_document)';

SELECT pg_catalog.pg_extension_config_dump('kernelindex.protocols', '');
SELECT pg_catalog.pg_extension_config_dump('kernelindex.environments', '');
SELECT pg_catalog.pg_extension_config_dump('kernelindex.workloads', '');
SELECT pg_catalog.pg_extension_config_dump('kernelindex.implementations', '');
SELECT pg_catalog.pg_extension_config_dump('kernelindex.comparability_keys', '');
SELECT pg_catalog.pg_extension_config_dump('kernelindex.runs', '');
COMMENT ON SEQUENCE kernelindex.protocols_id_seq IS 'ids of kernelindex.protocols';
COMMENT ON SEQUENCE kernelindex.environments_id_seq IS 'ids of kernelindex.environments';
COMMENT ON SEQUENCE kernelindex.workloads_id_seq IS 'ids of kernelindex.workloads';
COMMENT ON SEQUENCE kernelindex.implementations_id_seq IS 'ids of kernelindex.implementations';
SELECT pg_catalog.pg_extension_config_dump('kernelindex.protocols_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('kernelindex.environments_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('kernelindex.workloads_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('kernelindex.implementations_id_seq', '');

/* What runs refer to: checked per statement, as strongly as foreign keys -- */

CREATE FUNCTION kernelindex.runs_references_check()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_runs_references_check' LANGUAGE C;
COMMENT ON FUNCTION kernelindex.runs_references_check() IS
'statement trigger of kernelindex.runs: every comparability key, implementation and dictionary value the new runs name exists (23503 otherwise) and is locked FOR KEY SHARE until the runs commit, as a foreign key check does';

CREATE TRIGGER runs_references_insert
AFTER INSERT ON kernelindex.runs
REFERENCING NEW TABLE AS new_runs
FOR EACH STATEMENT EXECUTE FUNCTION kernelindex.runs_references_check();
COMMENT ON TRIGGER runs_references_insert ON kernelindex.runs IS
'what new runs name exists (23503 otherwise), locked FOR KEY SHARE';


CREATE FUNCTION kernelindex.runs_references_guard()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_runs_references_guard' LANGUAGE C;
COMMENT ON FUNCTION kernelindex.runs_references_guard() IS
'triggers of the tables runs refer to: a row a run names is not deleted or truncated away (23503, checked with the latest snapshot, as a foreign key is), and a dictionary value is never changed (0A000)';

DO $$
DECLARE
	t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['comparability_keys', 'implementations', 'run_titles', 'run_statuses',
		'run_sources', 'run_benchmarks', 'run_strings', 'run_labels', 'run_templates'] LOOP
		EXECUTE pg_catalog.format('CREATE TRIGGER %I AFTER DELETE ON kernelindex.%I REFERENCING OLD TABLE AS old_rows'
			' FOR EACH STATEMENT EXECUTE FUNCTION kernelindex.runs_references_guard()', t || '_delete', t);
		EXECUTE pg_catalog.format('COMMENT ON TRIGGER %I ON kernelindex.%I IS %L', t || '_delete', t,
			'refuses to delete a row a run names (23503)');
		EXECUTE pg_catalog.format('CREATE TRIGGER %I AFTER TRUNCATE ON kernelindex.%I'
			' FOR EACH STATEMENT EXECUTE FUNCTION kernelindex.runs_references_guard()', t || '_truncate', t);
		EXECUTE pg_catalog.format('COMMENT ON TRIGGER %I ON kernelindex.%I IS %L', t || '_truncate', t,
			'refuses to truncate while runs name its rows (23503; truncate kernelindex.runs in the same command)');
		CONTINUE WHEN t NOT LIKE 'run\_%';
		EXECUTE pg_catalog.format('CREATE TRIGGER %I BEFORE UPDATE ON kernelindex.%I'
			' FOR EACH ROW EXECUTE FUNCTION kernelindex.runs_references_guard()', t || '_update', t);
		EXECUTE pg_catalog.format('COMMENT ON TRIGGER %I ON kernelindex.%I IS %L', t || '_update', t,
			'refuses to change a dictionary value: runs refer to it');
	END LOOP;
END
$$;

CREATE FUNCTION kernelindex.identity_guard()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_identity_guard' LANGUAGE C;
COMMENT ON FUNCTION kernelindex.identity_guard() IS
'trigger of runs, comparability_keys and the resource tables: refuses an update that changes one of the columns its arguments name, or any column without arguments (0A000)';
CREATE TRIGGER runs_identity BEFORE UPDATE ON kernelindex.runs
FOR EACH ROW EXECUTE FUNCTION kernelindex.identity_guard();
COMMENT ON TRIGGER runs_identity ON kernelindex.runs IS
'refuses to change a stored run: each of its columns is part of the document its digest is the digest of (a changed run is a new run: ingest it)';
CREATE TRIGGER comparability_keys_identity BEFORE UPDATE ON kernelindex.comparability_keys
FOR EACH ROW EXECUTE FUNCTION kernelindex.identity_guard('key', 'protocol_id', 'workload_id', 'environment_id');
COMMENT ON TRIGGER comparability_keys_identity ON kernelindex.comparability_keys IS
'refuses to change a comparability key or the resources it is made of';
DO $$
DECLARE
	t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['protocols', 'environments', 'workloads', 'implementations'] LOOP
		EXECUTE pg_catalog.format('CREATE TRIGGER %I BEFORE UPDATE ON kernelindex.%I'
			' FOR EACH ROW EXECUTE FUNCTION kernelindex.identity_guard(''digest'', ''id'')', t || '_identity', t);
		EXECUTE pg_catalog.format('COMMENT ON TRIGGER %I ON kernelindex.%I IS %L', t || '_identity', t,
			'refuses to change the digest or the id of a resource (its document may be filled in, its metadata changed)');
	END LOOP;
END
$$;

/* Comparability between run rows -------------------------------------- */

CREATE FUNCTION kernelindex.runs_comparable(a kernelindex.runs, b kernelindex.runs)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN a.comparability_key OPERATOR(@extschema@.=) b.comparability_key;
COMMENT ON FUNCTION kernelindex.runs_comparable(kernelindex.runs, kernelindex.runs) IS
'whether two stored runs share protocol, workload and environment (the function behind runs ~=~ runs)';

CREATE OPERATOR @extschema@.~=~ (
	LEFTARG = kernelindex.runs, RIGHTARG = kernelindex.runs,
	FUNCTION = kernelindex.runs_comparable,
	COMMUTATOR = OPERATOR(@extschema@.~=~)
);
COMMENT ON OPERATOR @extschema@.~=~ (kernelindex.runs, kernelindex.runs) IS
'runs are comparable: same comparability key (inlined, so joins use the key index or hash on it)';
/* ---------------------------------------------------------------------
 * 5. Documents in and out (SPEC section 8)
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

CREATE FUNCTION kernelindex.run_bundle_of(r kernelindex.runs, protocol @extschema@.kidx_digest,
	workload @extschema@.kidx_digest, environment @extschema@.kidx_digest,
	implementation @extschema@.kidx_digest, workload_label text, name text, external_id text,
	whole boolean)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'kidx_run_bundle_of'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.run_bundle_of(kernelindex.runs, @extschema@.kidx_digest, @extschema@.kidx_digest, @extschema@.kidx_digest, @extschema@.kidx_digest, text, text, text, boolean) IS
'the bundle {run, protocol, environment} of a run row, given the digests of its resources, its workload''s label and its name and externalId strings (with workload and implementation, where known, if whole): the run layout rebuilding a document; kernelindex.run_bundles calls it';

CREATE FUNCTION kernelindex.run_json(r kernelindex.runs)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'kidx_run_json'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.run_json(kernelindex.runs) IS
'the BenchmarkRun document of a stored run row';

/* Every run with its documents: one relation for COPY out and look-ups -- */

CREATE VIEW kernelindex.run_bundles AS
SELECT r.digest,
	kernelindex.run_bundle_of(r, p.digest, w.digest, e.digest, i.digest, w.label, n.value, x.value, false) AS document,
	kernelindex.run_bundle_of(r, p.digest, w.digest, e.digest, i.digest, w.label, n.value, x.value, true) AS bundle
FROM kernelindex.runs r
JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) r.comparability_key
JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) k.protocol_id
JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id
JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) r.implementation_id
LEFT JOIN kernelindex.run_strings n ON n.id OPERATOR(pg_catalog.=) r.name_id
LEFT JOIN kernelindex.run_strings x ON x.id OPERATOR(pg_catalog.=) r.external_id_id;
COMMENT ON VIEW kernelindex.run_bundles IS
'every stored run with its documents, rebuilt by the run layout: the bundle {run, protocol, environment}, and with workload and implementation where known';
COMMENT ON COLUMN kernelindex.run_bundles.digest IS 'the run''s digest';
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
'stores what the statement brought: resources, keys, dictionary values and runs, in one set-based step';
/* ---------------------------------------------------------------------
 * 6. Ingestion of Liger-Kernel benchmark CSV (SPEC section 7)
 *
 *   \copy kernelindex.liger_rows FROM 'all_benchmark_data.csv'
 *         WITH (FORMAT csv, HEADER MATCH)
 *
 * kernelindex.liger_rows is a view with the 15 upstream columns and three
 * triggers in C (src/liger_ingest.c): a statement reads the catalogs once;
 * each row is checked and becomes a run at once, from its group (the rows
 * that differ from it only in timestamp and values: resource documents
 * built once per statement, src/liger_catalog.c) and the run layout's
 * template; the batch stores the runs at the end of the statement.
 * Nothing is kept in the view.
 *
 * Catalogs (kernelindex.gpus, kernels, providers, liger_passes) are plain
 * tables users extend with INSERT; rows the extension seeds are marked
 * builtin and are not dumped by pg_dump (the extension script recreates
 * them), rows users add are.
 * --------------------------------------------------------------------- */

/* --- Catalogs -------------------------------------------------------- */

CREATE TABLE kernelindex.gpus (
	name text PRIMARY KEY,
	vendor text NOT NULL CHECK (vendor IN ('nvidia', 'amd', 'intel') OR vendor ~ '^[a-z0-9_-]+$'),
	product text NOT NULL,
	form_factor text,
	architecture text,
	title text,
	builtin boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE kernelindex.gpus IS
'GPU catalog: the device name a harness reports (torch.cuda.get_device_name) to the hardware an ExecutionEnvironment describes; extend with INSERT';
COMMENT ON COLUMN kernelindex.gpus.name IS 'device name exactly as the harness writes it, e.g. NVIDIA A100-SXM4-80GB';
COMMENT ON COLUMN kernelindex.gpus.vendor IS 'lowercase vendor: nvidia, amd, intel';
COMMENT ON COLUMN kernelindex.gpus.product IS 'product without board variant, e.g. NVIDIA A100';
COMMENT ON COLUMN kernelindex.gpus.form_factor IS 'board variant (module and memory), e.g. SXM4-80GB; NULL when the name carries none';
COMMENT ON COLUMN kernelindex.gpus.architecture IS 'compute architecture target, e.g. sm_80, gfx942, xe-hpc';
COMMENT ON COLUMN kernelindex.gpus.title IS 'short display name used in titles, e.g. A100-SXM4-80GB; NULL: the name without its vendor word';
COMMENT ON COLUMN kernelindex.gpus.builtin IS 'true for rows the extension seeds (not dumped by pg_dump)';

CREATE TABLE kernelindex.kernels (
	name text PRIMARY KEY,
	title text NOT NULL,
	label_template text,
	label_x_name text,
	label_defaults jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(label_defaults) = 'object'),
	builtin boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE kernelindex.kernels IS
'Kernel catalog: benchmark kernel name to display title and workload-label rule; extend with INSERT';
COMMENT ON COLUMN kernelindex.kernels.name IS 'kernel name as the harness writes it, e.g. sparsemax';
COMMENT ON COLUMN kernelindex.kernels.title IS 'display title, e.g. Sparsemax';
COMMENT ON COLUMN kernelindex.kernels.label_template IS
'workload label template: {K} is input K (the x column or a config key; numbers as written canonically, torch dtypes shortened: torch.float32 -> fp32, torch.bfloat16 -> bf16), {A*B} the product of two numeric inputs; NULL: the generic label x=v,key=value,...';
COMMENT ON COLUMN kernelindex.kernels.label_x_name IS 'the x column the template expects; another x name is appended to the label';
COMMENT ON COLUMN kernelindex.kernels.label_defaults IS
'inputs the template leaves out when they have these values; any other input the template does not show alone is appended as ,key=value so that two different workloads never share a label';
COMMENT ON COLUMN kernelindex.kernels.builtin IS 'true for rows the extension seeds (not dumped by pg_dump)';

CREATE TABLE kernelindex.providers (
	name text PRIMARY KEY,
	title text NOT NULL,
	is_reference boolean NOT NULL DEFAULT false,
	builtin boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE kernelindex.providers IS
'Provider catalog: implementation provider name (kernel_provider) to display title; extend with INSERT';
COMMENT ON COLUMN kernelindex.providers.name IS 'provider name as the harness writes it, e.g. torch, liger';
COMMENT ON COLUMN kernelindex.providers.title IS 'display title, e.g. PyTorch';
COMMENT ON COLUMN kernelindex.providers.is_reference IS 'true for the baseline implementation speedups are measured against (torch)';
COMMENT ON COLUMN kernelindex.providers.builtin IS 'true for rows the extension seeds (not dumped by pg_dump)';

CREATE TABLE kernelindex.liger_passes (
	name text PRIMARY KEY,
	timed text NOT NULL,
	builtin boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE kernelindex.liger_passes IS
'Liger operation modes (kernel_operation_mode) and what the harness runs in each; the protocol documents are built from it; extend with INSERT';
COMMENT ON COLUMN kernelindex.liger_passes.name IS 'operation mode as Liger writes it: forward, backward, full';
COMMENT ON COLUMN kernelindex.liger_passes.timed IS 'what runs in that mode, as a phrase, e.g. the module forward pass';
COMMENT ON COLUMN kernelindex.liger_passes.builtin IS 'true for rows the extension seeds (not dumped by pg_dump)';

SELECT pg_catalog.pg_extension_config_dump('kernelindex.gpus', 'WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('kernelindex.kernels', 'WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('kernelindex.providers', 'WHERE NOT builtin');
SELECT pg_catalog.pg_extension_config_dump('kernelindex.liger_passes', 'WHERE NOT builtin');

INSERT INTO kernelindex.liger_passes (name, timed, builtin) VALUES
('forward', 'the module forward pass', true),
('backward', 'the backward pass of the module output given a random upstream gradient', true),
('full', 'the module forward pass followed by the backward pass of its output given a random upstream gradient, together', true);

INSERT INTO kernelindex.providers (name, title, is_reference, builtin) VALUES
('torch', 'PyTorch', true, true),
('liger', 'Liger Kernel', false, true),
('huggingface', 'Hugging Face Transformers', false, true),
('torch_compile', 'PyTorch (torch.compile)', false, true),
('liger_tiled', 'Liger Kernel (tiled)', false, true),
('deepspeed_tiled', 'DeepSpeed (tiled)', false, true),
('megatron', 'Megatron-LM', false, true),
('megatron-fused', 'Megatron-LM (fused)', false, true),
('megatron-unfused', 'Megatron-LM (unfused)', false, true),
('liger_fused_add_rms_norm', 'Liger Kernel (fused add + RMSNorm)', false, true),
('liger_rms_norm', 'Liger Kernel (RMSNorm)', false, true),
('liger_in_place', 'Liger Kernel (in place)', false, true),
('triton', 'Triton', false, true),
('apex', 'NVIDIA Apex', false, true),
('flash_attn', 'FlashAttention', false, true),
('unsloth', 'Unsloth', false, true);

INSERT INTO kernelindex.kernels (name, title, label_template, label_x_name, label_defaults, builtin) VALUES
('sparsemax', 'Sparsemax', 'features{V}-tokens{B*T}-{dtype}', 'V', '{"B": 4, "T": 512, "dim": -1}', true),
('fused_linear_grpo_loss_sequence', 'GRPO loss, sequence-level importance sampling', 'batch{B}-seq{T}-vocab{V}-{dtype}', 'B', '{"H": 4096, "importance_sampling_level": "sequence"}', true),
('fused_linear_grpo_loss_token', 'GRPO loss, token-level importance sampling', NULL, NULL, '{}', true),
('cross_entropy', 'Cross entropy', NULL, NULL, '{}', true),
('distill_cosine_loss', 'Distillation cosine loss', NULL, NULL, '{}', true),
('distill_jsd_loss', 'Distillation JSD loss', NULL, NULL, '{}', true),
('embedding', 'Embedding', NULL, NULL, '{}', true),
('fused_add_rms_norm', 'Fused add + RMSNorm', NULL, NULL, '{}', true),
('fused_linear_cpo_loss', 'Fused linear CPO loss', NULL, NULL, '{}', true),
('fused_linear_cross_entropy', 'Fused linear cross entropy', NULL, NULL, '{}', true),
('fused_linear_jsd', 'Fused linear JSD', NULL, NULL, '{}', true),
('fused_linear_orpo_loss', 'Fused linear ORPO loss', NULL, NULL, '{}', true),
('fused_linear_simpo_loss', 'Fused linear SimPO loss', NULL, NULL, '{}', true),
('fused_linear_dpo_loss', 'Fused linear DPO loss', NULL, NULL, '{}', true),
('fused_moe', 'Fused mixture of experts', NULL, NULL, '{}', true),
('fused_neighborhood_attention', 'Fused neighborhood attention', NULL, NULL, '{}', true),
('geglu', 'GEGLU', NULL, NULL, '{}', true),
('group_norm', 'GroupNorm', NULL, NULL, '{}', true),
('jsd', 'Jensen-Shannon divergence', NULL, NULL, '{}', true),
('kl_div', 'KL divergence', NULL, NULL, '{}', true),
('kto_loss', 'KTO loss', NULL, NULL, '{}', true),
('layer_norm', 'LayerNorm', NULL, NULL, '{}', true),
('llama4_rope', 'Llama 4 RoPE', NULL, NULL, '{}', true),
('megatron_cross_entropy', 'Megatron cross entropy', NULL, NULL, '{}', true),
('megatron_rms_norm', 'Megatron RMSNorm', NULL, NULL, '{}', true),
('megatron_swiglu', 'Megatron SwiGLU', NULL, NULL, '{}', true),
('multi_token_attention', 'Multi-token attention', NULL, NULL, '{}', true),
('relu_squared', 'Squared ReLU', NULL, NULL, '{}', true),
('rms_norm', 'RMSNorm', NULL, NULL, '{}', true),
('rope', 'RoPE', NULL, NULL, '{}', true),
('softmax', 'Softmax', NULL, NULL, '{}', true),
('sparse_multi_token_attention', 'Sparse multi-token attention', NULL, NULL, '{}', true),
('swiglu', 'SwiGLU', NULL, NULL, '{}', true),
('tiled_geglu', 'Tiled GEGLU', NULL, NULL, '{}', true),
('tiled_swiglu', 'Tiled SwiGLU', NULL, NULL, '{}', true),
('tvd', 'Total variation distance', NULL, NULL, '{}', true),
('dyt', 'DyT', NULL, NULL, '{}', true),
('qwen2vl_mrope', 'Qwen2-VL M-RoPE', NULL, NULL, '{}', true),
('poly_norm', 'PolyNorm', NULL, NULL, '{}', true);

INSERT INTO kernelindex.gpus (name, vendor, product, form_factor, architecture, title, builtin) VALUES
-- In the upstream Liger file
('NVIDIA GeForce RTX 3090', 'nvidia', 'NVIDIA GeForce RTX 3090', NULL, 'sm_86', NULL, true),
('NVIDIA GeForce RTX 4090', 'nvidia', 'NVIDIA GeForce RTX 4090', NULL, 'sm_89', NULL, true),
('NVIDIA A100-SXM4-80GB', 'nvidia', 'NVIDIA A100', 'SXM4-80GB', 'sm_80', NULL, true),
('NVIDIA H100 80GB HBM3', 'nvidia', 'NVIDIA H100', 'SXM5-80GB', 'sm_90', NULL, true),
('NVIDIA H100 PCIe', 'nvidia', 'NVIDIA H100', 'PCIe-80GB', 'sm_90', NULL, true),
('NVIDIA B200', 'nvidia', 'NVIDIA B200', NULL, 'sm_100', NULL, true),
-- NVIDIA data centre
('NVIDIA A100-SXM4-40GB', 'nvidia', 'NVIDIA A100', 'SXM4-40GB', 'sm_80', NULL, true),
('NVIDIA A100-PCIE-40GB', 'nvidia', 'NVIDIA A100', 'PCIe-40GB', 'sm_80', NULL, true),
('NVIDIA A100 80GB PCIe', 'nvidia', 'NVIDIA A100', 'PCIe-80GB', 'sm_80', NULL, true),
('NVIDIA A10', 'nvidia', 'NVIDIA A10', NULL, 'sm_86', NULL, true),
('NVIDIA A10G', 'nvidia', 'NVIDIA A10G', NULL, 'sm_86', NULL, true),
('NVIDIA A30', 'nvidia', 'NVIDIA A30', NULL, 'sm_80', NULL, true),
('NVIDIA A40', 'nvidia', 'NVIDIA A40', NULL, 'sm_86', NULL, true),
('NVIDIA L4', 'nvidia', 'NVIDIA L4', NULL, 'sm_89', NULL, true),
('NVIDIA L40', 'nvidia', 'NVIDIA L40', NULL, 'sm_89', NULL, true),
('NVIDIA L40S', 'nvidia', 'NVIDIA L40S', NULL, 'sm_89', NULL, true),
('Tesla T4', 'nvidia', 'NVIDIA T4', NULL, 'sm_75', 'T4', true),
('Tesla V100-SXM2-16GB', 'nvidia', 'NVIDIA V100', 'SXM2-16GB', 'sm_70', 'V100-SXM2-16GB', true),
('Tesla V100-SXM2-32GB', 'nvidia', 'NVIDIA V100', 'SXM2-32GB', 'sm_70', 'V100-SXM2-32GB', true),
('NVIDIA H100 NVL', 'nvidia', 'NVIDIA H100', 'NVL-94GB', 'sm_90', NULL, true),
('NVIDIA H800', 'nvidia', 'NVIDIA H800', NULL, 'sm_90', NULL, true),
('NVIDIA H200', 'nvidia', 'NVIDIA H200', 'SXM5-141GB', 'sm_90', NULL, true),
('NVIDIA H200 NVL', 'nvidia', 'NVIDIA H200', 'NVL-141GB', 'sm_90', NULL, true),
('NVIDIA H20', 'nvidia', 'NVIDIA H20', NULL, 'sm_90', NULL, true),
('NVIDIA GH200 480GB', 'nvidia', 'NVIDIA GH200', '480GB', 'sm_90', NULL, true),
('NVIDIA B100', 'nvidia', 'NVIDIA B100', NULL, 'sm_100', NULL, true),
('NVIDIA GB200', 'nvidia', 'NVIDIA GB200', NULL, 'sm_100', NULL, true),
('NVIDIA B300', 'nvidia', 'NVIDIA B300', NULL, 'sm_103', NULL, true),
('NVIDIA RTX 6000 Ada Generation', 'nvidia', 'NVIDIA RTX 6000 Ada Generation', NULL, 'sm_89', NULL, true),
('NVIDIA RTX A6000', 'nvidia', 'NVIDIA RTX A6000', NULL, 'sm_86', NULL, true),
('NVIDIA RTX PRO 6000 Blackwell Server Edition', 'nvidia', 'NVIDIA RTX PRO 6000 Blackwell', 'Server Edition', 'sm_120', NULL, true),
-- NVIDIA consumer
('NVIDIA GeForce RTX 3080', 'nvidia', 'NVIDIA GeForce RTX 3080', NULL, 'sm_86', NULL, true),
('NVIDIA GeForce RTX 3080 Ti', 'nvidia', 'NVIDIA GeForce RTX 3080 Ti', NULL, 'sm_86', NULL, true),
('NVIDIA GeForce RTX 3090 Ti', 'nvidia', 'NVIDIA GeForce RTX 3090 Ti', NULL, 'sm_86', NULL, true),
('NVIDIA GeForce RTX 4070', 'nvidia', 'NVIDIA GeForce RTX 4070', NULL, 'sm_89', NULL, true),
('NVIDIA GeForce RTX 4080', 'nvidia', 'NVIDIA GeForce RTX 4080', NULL, 'sm_89', NULL, true),
('NVIDIA GeForce RTX 4080 SUPER', 'nvidia', 'NVIDIA GeForce RTX 4080 SUPER', NULL, 'sm_89', NULL, true),
('NVIDIA GeForce RTX 5070', 'nvidia', 'NVIDIA GeForce RTX 5070', NULL, 'sm_120', NULL, true),
('NVIDIA GeForce RTX 5080', 'nvidia', 'NVIDIA GeForce RTX 5080', NULL, 'sm_120', NULL, true),
('NVIDIA GeForce RTX 5090', 'nvidia', 'NVIDIA GeForce RTX 5090', NULL, 'sm_120', NULL, true),
-- AMD data centre and consumer
('AMD Instinct MI100', 'amd', 'AMD Instinct MI100', NULL, 'gfx908', NULL, true),
('AMD Instinct MI210', 'amd', 'AMD Instinct MI210', NULL, 'gfx90a', NULL, true),
('AMD Instinct MI250X', 'amd', 'AMD Instinct MI250X', NULL, 'gfx90a', NULL, true),
('AMD Instinct MI250X/MI250', 'amd', 'AMD Instinct MI250X', NULL, 'gfx90a', NULL, true),
('AMD Instinct MI300A', 'amd', 'AMD Instinct MI300A', NULL, 'gfx942', NULL, true),
('AMD Instinct MI300X', 'amd', 'AMD Instinct MI300X', NULL, 'gfx942', NULL, true),
('AMD Instinct MI325X', 'amd', 'AMD Instinct MI325X', NULL, 'gfx942', NULL, true),
('AMD Instinct MI350X', 'amd', 'AMD Instinct MI350X', NULL, 'gfx950', NULL, true),
('AMD Instinct MI355X', 'amd', 'AMD Instinct MI355X', NULL, 'gfx950', NULL, true),
('AMD Radeon RX 7900 XTX', 'amd', 'AMD Radeon RX 7900 XTX', NULL, 'gfx1100', NULL, true),
('AMD Radeon RX 7900 XT', 'amd', 'AMD Radeon RX 7900 XT', NULL, 'gfx1100', NULL, true),
('AMD Radeon PRO W7900', 'amd', 'AMD Radeon PRO W7900', NULL, 'gfx1100', NULL, true),
('AMD Radeon RX 9070 XT', 'amd', 'AMD Radeon RX 9070 XT', NULL, 'gfx1201', NULL, true),
-- Intel data centre and consumer
('Intel(R) Data Center GPU Max 1100', 'intel', 'Intel Data Center GPU Max 1100', NULL, 'xe-hpc', 'Data Center GPU Max 1100', true),
('Intel(R) Data Center GPU Max 1550', 'intel', 'Intel Data Center GPU Max 1550', NULL, 'xe-hpc', 'Data Center GPU Max 1550', true),
('Intel(R) Gaudi 2', 'intel', 'Intel Gaudi 2', NULL, 'gaudi2', 'Gaudi 2', true),
('Intel(R) Gaudi 3', 'intel', 'Intel Gaudi 3', NULL, 'gaudi3', 'Gaudi 3', true),
('Intel(R) Arc(TM) A770 Graphics', 'intel', 'Intel Arc A770', NULL, 'xe-hpg', 'Arc A770', true),
('Intel(R) Arc(TM) B580 Graphics', 'intel', 'Intel Arc B580', NULL, 'xe2-hpg', 'Arc B580', true);

/* --- The COPY target and rejected rows -------------------------------- */

-- A view: COPY into it hands each row to its INSTEAD OF trigger; it is always empty.
CREATE VIEW kernelindex.liger_rows AS
SELECT NULL::text AS kernel_name, NULL::text AS kernel_provider, NULL::text AS kernel_operation_mode,
	NULL::text AS metric_name, NULL::text AS metric_unit, NULL::text AS x_name, NULL::text AS x_label,
	NULL::text AS x_value, NULL::text AS y_value_50, NULL::text AS y_value_20, NULL::text AS y_value_80,
	NULL::text AS extra_benchmark_config_str, NULL::text AS gpu_name, NULL::text AS "timestamp",
	NULL::text AS liger_version
WHERE false;
COMMENT ON VIEW kernelindex.liger_rows IS
'COPY target for Liger-Kernel benchmark CSV (benchmark/data/all_benchmark_data.csv, 15 columns in upstream order): each row written to it becomes a run; it is always empty';
COMMENT ON COLUMN kernelindex.liger_rows.kernel_name IS 'benchmark kernel, e.g. sparsemax (kernel catalog: kernelindex.kernels)';
COMMENT ON COLUMN kernelindex.liger_rows.kernel_provider IS 'implementation provider, e.g. torch, liger (kernelindex.providers)';
COMMENT ON COLUMN kernelindex.liger_rows.kernel_operation_mode IS 'timed pass: forward, backward, full (kernelindex.liger_passes)';
COMMENT ON COLUMN kernelindex.liger_rows.metric_name IS 'speed or memory';
COMMENT ON COLUMN kernelindex.liger_rows.metric_unit IS 'ms for speed, MB (meaning MiB) for memory';
COMMENT ON COLUMN kernelindex.liger_rows.x_name IS 'name of the swept input';
COMMENT ON COLUMN kernelindex.liger_rows.x_label IS 'description of the swept input (optional)';
COMMENT ON COLUMN kernelindex.liger_rows.x_value IS 'value of the swept input';
COMMENT ON COLUMN kernelindex.liger_rows.y_value_50 IS 'median (ms or MiB)';
COMMENT ON COLUMN kernelindex.liger_rows.y_value_20 IS '20th percentile (ms or MiB)';
COMMENT ON COLUMN kernelindex.liger_rows.y_value_80 IS '80th percentile (ms or MiB)';
COMMENT ON COLUMN kernelindex.liger_rows.extra_benchmark_config_str IS 'the other inputs, a JSON object';
COMMENT ON COLUMN kernelindex.liger_rows.gpu_name IS 'device name (kernelindex.gpus)';
COMMENT ON COLUMN kernelindex.liger_rows."timestamp" IS 'when the row was measured, UTC, YYYY-MM-DD HH:MM:SS';
COMMENT ON COLUMN kernelindex.liger_rows.liger_version IS 'Liger-Kernel release (optional; the run label liger_version)';

CREATE TABLE kernelindex.rejected_rows (
	id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	source text NOT NULL DEFAULT 'liger',
	rejected_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
	row_number bigint NOT NULL,
	column_name text NOT NULL,
	bad_value text,
	reason text NOT NULL,
	kernel_name text,
	kernel_provider text,
	kernel_operation_mode text,
	metric_name text,
	metric_unit text,
	x_name text,
	x_label text,
	x_value text,
	y_value_50 text,
	y_value_20 text,
	y_value_80 text,
	extra_benchmark_config_str text,
	gpu_name text,
	"timestamp" text,
	liger_version text
);
COMMENT ON TABLE kernelindex.rejected_rows IS
'Rows CSV ingestion could not turn into runs, kept verbatim with the reason (only with SET kernelindex.on_bad_row = ''quarantine'')';
COMMENT ON COLUMN kernelindex.rejected_rows.id IS 'arbitrary row id';
COMMENT ON COLUMN kernelindex.rejected_rows.source IS 'which CSV format the row came in: liger';
COMMENT ON COLUMN kernelindex.rejected_rows.rejected_at IS 'start of the transaction that loaded the row';
COMMENT ON COLUMN kernelindex.rejected_rows.row_number IS 'position of the row in its COPY statement (1 = first data row; the file line is this + 1 with a header)';
COMMENT ON COLUMN kernelindex.rejected_rows.column_name IS 'the first column found at fault';
COMMENT ON COLUMN kernelindex.rejected_rows.bad_value IS 'that column''s value (cut at 200 characters)';
COMMENT ON COLUMN kernelindex.rejected_rows.reason IS 'what is wrong with the value';
COMMENT ON COLUMN kernelindex.rejected_rows.kernel_name IS 'the row''s kernel_name, verbatim';
COMMENT ON COLUMN kernelindex.rejected_rows.kernel_provider IS 'the row''s kernel_provider, verbatim';
COMMENT ON COLUMN kernelindex.rejected_rows.kernel_operation_mode IS 'the row''s kernel_operation_mode, verbatim';
COMMENT ON COLUMN kernelindex.rejected_rows.metric_name IS 'the row''s metric_name, verbatim';
COMMENT ON COLUMN kernelindex.rejected_rows.metric_unit IS 'the row''s metric_unit, verbatim';
COMMENT ON COLUMN kernelindex.rejected_rows.x_name IS 'the row''s x_name, verbatim';
COMMENT ON COLUMN kernelindex.rejected_rows.x_label IS 'the row''s x_label, verbatim';
COMMENT ON COLUMN kernelindex.rejected_rows.x_value IS 'the row''s x_value, verbatim';
COMMENT ON COLUMN kernelindex.rejected_rows.y_value_50 IS 'the row''s y_value_50, verbatim';
COMMENT ON COLUMN kernelindex.rejected_rows.y_value_20 IS 'the row''s y_value_20, verbatim';
COMMENT ON COLUMN kernelindex.rejected_rows.y_value_80 IS 'the row''s y_value_80, verbatim';
COMMENT ON COLUMN kernelindex.rejected_rows.extra_benchmark_config_str IS 'the row''s extra_benchmark_config_str, verbatim';
COMMENT ON COLUMN kernelindex.rejected_rows.gpu_name IS 'the row''s gpu_name, verbatim';
COMMENT ON COLUMN kernelindex.rejected_rows."timestamp" IS 'the row''s timestamp, verbatim';
COMMENT ON COLUMN kernelindex.rejected_rows.liger_version IS 'the row''s liger_version, verbatim';
SELECT pg_catalog.pg_extension_config_dump('kernelindex.rejected_rows', '');
COMMENT ON SEQUENCE kernelindex.rejected_rows_id_seq IS 'ids of kernelindex.rejected_rows';
SELECT pg_catalog.pg_extension_config_dump('kernelindex.rejected_rows_id_seq', '');

/* --- Row checks and document builders --------------------------------- */

CREATE FUNCTION kernelindex.liger_row_fault(kernelindex.liger_rows)
RETURNS text[]
AS 'MODULE_PATHNAME', 'kidx_liger_row_fault' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.liger_row_fault(kernelindex.liger_rows) IS
'NULL for a Liger CSV row that can become a run, else {column, value, reason} of its first fault (checked without raising errors)';

-- The resource documents and workload labels are built in C
-- (src/liger_catalog.c), from the catalogs above; each call site reads the
-- catalog tables it needs once per snapshot.
CREATE FUNCTION kernelindex.liger_slug(s text)
RETURNS text
AS 'MODULE_PATHNAME', 'kidx_liger_slug'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.liger_slug(text) IS
'lowercase, every run of characters other than a-z and 0-9 turned into one hyphen, no hyphen at either end';

CREATE FUNCTION kernelindex.liger_workload_label(kernel text, x_name text, x_value jsonb, config jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'kidx_liger_workload_label'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.liger_workload_label(text, text, jsonb, jsonb) IS
'workload label of a Liger row: the kernel''s template (kernelindex.kernels) plus every input it leaves ambiguous, or the generic x=v,key=value,... label; two different workloads of a kernel never share a label';

CREATE FUNCTION kernelindex.liger_protocol(metric text, pass text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'kidx_liger_protocol'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.liger_protocol(text, text) IS
'BenchmarkProtocol document for Liger rows of a metric (speed or memory) and operation mode (kernelindex.liger_passes; an unknown mode gets a generic note)';

CREATE FUNCTION kernelindex.liger_environment(gpu text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'kidx_liger_environment'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.liger_environment(text) IS
'ExecutionEnvironment document for a GPU name (kernelindex.gpus; an unknown GPU gets its name as product and the vendor its name shows)';

CREATE FUNCTION kernelindex.liger_implementation(kernel text, provider text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'kidx_liger_implementation'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.liger_implementation(text, text) IS
'Implementation document of a Liger kernel provider: spec {harness, kernel, provider}';

CREATE FUNCTION kernelindex.liger_workload(kernel text, x_name text, x_label text, x_value text, config text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'kidx_liger_workload'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.liger_workload(text, text, text, text, text) IS
'Workload document of a Liger row: spec {source, kernel, x {name, value}, config}; metadata.labels.label is the workload label';

/* --- The triggers ------------------------------------------------------- */

CREATE FUNCTION kernelindex.liger_begin()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_liger_begin' LANGUAGE C;
COMMENT ON FUNCTION kernelindex.liger_begin() IS
'BEFORE INSERT statement trigger of kernelindex.liger_rows: begins the statement''s batch';

CREATE FUNCTION kernelindex.liger_row()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_liger_row' LANGUAGE C;
COMMENT ON FUNCTION kernelindex.liger_row() IS
'INSTEAD OF INSERT trigger of kernelindex.liger_rows: checks one row and keeps it with its group (a bad row fails the statement, or is quarantined)';

CREATE FUNCTION kernelindex.liger_end()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_liger_end' LANGUAGE C;
COMMENT ON FUNCTION kernelindex.liger_end() IS
'AFTER INSERT statement trigger of kernelindex.liger_rows: builds each group''s resources from the catalogs, every row''s run through the run layout, and stores them';

CREATE TRIGGER liger_begin
BEFORE INSERT ON kernelindex.liger_rows
FOR EACH STATEMENT EXECUTE FUNCTION kernelindex.liger_begin();
COMMENT ON TRIGGER liger_begin ON kernelindex.liger_rows IS
'begins turning an INSERT or COPY into runs';

CREATE TRIGGER liger_row
INSTEAD OF INSERT ON kernelindex.liger_rows
FOR EACH ROW EXECUTE FUNCTION kernelindex.liger_row();
COMMENT ON TRIGGER liger_row ON kernelindex.liger_rows IS
'each row is checked and kept with the rows that differ from it only in timestamp and values';

CREATE TRIGGER liger_end
AFTER INSERT ON kernelindex.liger_rows
FOR EACH STATEMENT EXECUTE FUNCTION kernelindex.liger_end();
COMMENT ON TRIGGER liger_end ON kernelindex.liger_rows IS
'turns the statement''s rows into runs, stored in one set-based step';
/* ---------------------------------------------------------------------
 * 7. Views for BI tools (SPEC section 10)
 *
 * Plain types only (text, bigint, integer, numeric, double precision,
 * timestamptz, boolean): digests as text, times in ns and ms, memory in
 * bytes and MiB, with titles.  A run's number is compared only with
 * numbers under the same comparability key, and a latency never with a
 * memory figure (they have their own protocols, hence their own keys).
 *
 * Every comparison is made within one comparability key: the reference
 * run of a speedup, the latest run of a series (one implementation's runs
 * under one key), the previous release of a change are found by window
 * functions or DISTINCT ON partitioned by the key, one sorted pass over
 * the runs, never a look-up per series.  The passes read narrow rows (the
 * run's own columns, its key as kidx_digest, and what the partitions
 * name), and the columns a BI tool sees (digests as text, titles, ms and
 * MiB) are made once per row returned, after the pass.  The partitions
 * also name the key's kernel, workload label, GPU and form factor (which
 * the key determines, so the partitions are the same): a filter on those
 * columns is applied before the pass, through the indexes on workloads
 * (kernel) and comparability_keys, and a dashboard reads only its runs.
 * On Citus the key is the distribution column of runs, so each pass runs
 * inside the shards.
 *
 * The views are written by the DO block below from three fragments, so
 * that each column a BI tool sees is defined once: run_rows (the narrow
 * rows), facts (the columns of run_facts over a source s of run rows) and
 * facts_joins (what those columns read).
 * --------------------------------------------------------------------- */

CREATE FUNCTION kernelindex.external_id_of(form text, benchmark text, string text,
	workload_label text, observed_at timestamptz)
RETURNS text
AS 'MODULE_PATHNAME', 'kidx_external_id_of'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.external_id_of(text, text, text, text, timestamptz) IS
'a stored run''s externalId by its template''s external_id_form: absent (NULL), literal (string), stem (string || the observedAt slug YYYY-MM-DD-HH-MI-SS, -uuuuuu with a fraction), labelled (benchmark/string/workload_label/ || the slug); NULL when a part the form needs is NULL';

CREATE FUNCTION kernelindex.release_version_key(release text)
RETURNS bytea
AS 'MODULE_PATHNAME', 'kidx_release_version_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.release_version_key(text) IS
'a key that sorts release labels in version order (0.5.10 after 0.5.9, 1.0rc1 before 1.0, v1.2 as 1.2); NULL for a label that is not a version';

CREATE FUNCTION kernelindex.ratio(reference bigint, own bigint)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN own > 0 THEN reference::double precision OPERATOR(pg_catalog./) own::double precision END;
COMMENT ON FUNCTION kernelindex.ratio(bigint, bigint) IS
'reference / own as a double (a speedup for latencies, a saving for memory); NULL unless own > 0';

CREATE FUNCTION kernelindex.bands_apart(a_p20 bigint, a_p80 bigint, b_p20 bigint, b_p80 bigint)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN a_p80 OPERATOR(pg_catalog.<) b_p20 OR b_p80 OPERATOR(pg_catalog.<) a_p20;
COMMENT ON FUNCTION kernelindex.bands_apart(bigint, bigint, bigint, bigint) IS
'whether two p20-p80 bands do not overlap: a difference outside the measurement noise (NULL if a band is unknown)';

CREATE FUNCTION kernelindex.ns_to_ms(ns bigint)
RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ns::numeric OPERATOR(pg_catalog.*) 0.000001;
COMMENT ON FUNCTION kernelindex.ns_to_ms(bigint) IS
'nanoseconds as milliseconds, exactly (numeric with six decimals)';

CREATE FUNCTION kernelindex.bytes_to_mib(bytes bigint)
RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN pg_catalog.trim_scale(bytes::numeric OPERATOR(pg_catalog.*) 0.00000095367431640625);
COMMENT ON FUNCTION kernelindex.bytes_to_mib(bigint) IS
'bytes as MiB (2^20 bytes), exactly, without trailing zeros';

/* --- Releases in order -------------------------------------------------- */

CREATE VIEW kernelindex.release_ranks AS
WITH labels AS (
	SELECT DISTINCT l.release FROM kernelindex.run_labels l WHERE l.release IS NOT NULL
), unversioned_first AS (
	-- the first run of each label that is not a version (no run is read
	-- when every label is a version)
	SELECT l.release, pg_catalog.min(r.observed_at) AS first_observed_at
	FROM kernelindex.runs r
	JOIN kernelindex.run_labels l ON l.id OPERATOR(pg_catalog.=) r.labels_id
	WHERE kernelindex.release_version_key(l.release) IS NULL
	GROUP BY l.release
)
SELECT x.release,
	kernelindex.release_version_key(x.release) IS NOT NULL AS is_version,
	pg_catalog.rank() OVER (ORDER BY kernelindex.release_version_key(x.release) IS NULL,
		kernelindex.release_version_key(x.release), u.first_observed_at,
		x.release COLLATE "C") AS release_rank
FROM labels x
LEFT JOIN unversioned_first u ON u.release OPERATOR(pg_catalog.=) x.release;
COMMENT ON VIEW kernelindex.release_ranks IS
'release order: versions in version order (0.5.10 after 0.5.9), then labels that are not versions by their first run''s time; reads runs only for labels that are not versions';
COMMENT ON COLUMN kernelindex.release_ranks.release IS 'the release label (metadata.labels.release; liger_version)';
COMMENT ON COLUMN kernelindex.release_ranks.is_version IS 'whether the label is a version (else it sorts by its first run''s time, after the versions)';
COMMENT ON COLUMN kernelindex.release_ranks.release_rank IS 'position in release order, 1 first';

CREATE VIEW kernelindex.releases AS
SELECT o.release, o.is_version, s.first_observed_at, s.series, o.release_rank
FROM kernelindex.release_ranks o
JOIN (SELECT l.release, pg_catalog.min(r.observed_at) AS first_observed_at,
		pg_catalog.count(DISTINCT (r.comparability_key, r.implementation_id)) AS series
	  FROM kernelindex.runs r
	  JOIN kernelindex.run_labels l ON l.id OPERATOR(pg_catalog.=) r.labels_id
	  GROUP BY l.release) s ON s.release OPERATOR(pg_catalog.=) o.release;
COMMENT ON VIEW kernelindex.releases IS
'every release label runs carry, in release order: versions in version order (0.5.10 after 0.5.9), then labels that are not versions by their first run''s time';
COMMENT ON COLUMN kernelindex.releases.release IS 'the release label (metadata.labels.release; liger_version)';
COMMENT ON COLUMN kernelindex.releases.is_version IS 'whether the label is a version (else it sorts by first_observed_at, after the versions)';
COMMENT ON COLUMN kernelindex.releases.first_observed_at IS 'when the first run of the release was measured';
COMMENT ON COLUMN kernelindex.releases.series IS 'how many series (implementations under a comparability key) have runs in the release';
COMMENT ON COLUMN kernelindex.releases.release_rank IS 'position in release order, 1 first';


/* --- The views ------------------------------------------------------------ */

DO $views$
DECLARE
	-- Narrow rows: a run, its key's resources, what the passes partition
	-- and order by.
	run_rows CONSTANT text := $q$
SELECT r.*, k.protocol_id, k.workload_id, k.environment_id,
	w.kernel, w.label AS workload_label, e.product AS gpu, e.form_factor AS gpu_form_factor,
	i.provider, COALESCE(pv.is_reference, false) AS is_reference, l.release,
	CASE WHEN r.latency_ns IS NOT NULL THEN 'latency'
		WHEN r.peak_bytes IS NOT NULL THEN 'peak_memory' END AS metric
FROM kernelindex.runs r
JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) r.comparability_key
JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id
JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) r.implementation_id
LEFT JOIN kernelindex.providers pv ON pv.name OPERATOR(pg_catalog.=) i.provider
LEFT JOIN kernelindex.run_labels l ON l.id OPERATOR(pg_catalog.=) r.labels_id
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
	b.pass,
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
	b.value AS benchmark$q$;
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
	-- release's rank, and the ratio to the reference.
	release_rows text;
	-- Each non-reference run with the reference's latest run of the same
	-- release, else of any release (ref_*).
	referenced_rows text;
	-- A view over a source of run rows: the columns of run_facts (and
	-- those the source adds, as extras).
	facts_of CONSTANT text := 'SELECT %s%s FROM (%s) s %s';
BEGIN
	release_rows := pg_catalog.format($q$
SELECT q.*,
	CASE WHEN NOT q.has_reference THEN NULL
		WHEN q.metric OPERATOR(pg_catalog.=) 'latency' THEN kernelindex.ratio(q.r_latency_ns, q.latency_ns)
		WHEN q.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN kernelindex.ratio(q.r_peak_bytes, q.peak_bytes) END AS ratio,
	CASE WHEN NOT q.has_reference THEN NULL
		WHEN q.metric OPERATOR(pg_catalog.=) 'latency' THEN kernelindex.bands_apart(q.latency_ns_p20, q.latency_ns_p80, q.r_latency_ns_p20, q.r_latency_ns_p80)
		WHEN q.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN kernelindex.bands_apart(q.peak_bytes_p20, q.peak_bytes_p80, q.r_peak_bytes_p20, q.r_peak_bytes_p80)
	END AS outside_noise
FROM (
	SELECT s.*, rel.release_rank,
		pg_catalog.first_value(s.is_reference) OVER w AND NOT s.is_reference AS has_reference,
		pg_catalog.first_value(s.provider) OVER w AS r_provider,
		pg_catalog.first_value(s.latency_ns) OVER w AS r_latency_ns,
		pg_catalog.first_value(s.latency_ns_p20) OVER w AS r_latency_ns_p20,
		pg_catalog.first_value(s.latency_ns_p80) OVER w AS r_latency_ns_p80,
		pg_catalog.first_value(s.peak_bytes) OVER w AS r_peak_bytes,
		pg_catalog.first_value(s.peak_bytes_p20) OVER w AS r_peak_bytes_p20,
		pg_catalog.first_value(s.peak_bytes_p80) OVER w AS r_peak_bytes_p80,
		pg_catalog.first_value(s.digest) OVER w AS r_digest
	FROM (SELECT DISTINCT ON (%1$s, s.implementation_id, s.release) s.*
		  FROM (%2$s) s
		  WHERE s.release IS NOT NULL
		  ORDER BY %1$s, s.implementation_id, s.release, s.observed_at DESC, s.digest DESC) s
	JOIN kernelindex.release_ranks rel ON rel.release OPERATOR(pg_catalog.=) s.release
	WINDOW w AS (PARTITION BY %1$s, s.release
		ORDER BY s.is_reference DESC, s.observed_at DESC, s.digest DESC)
) q$q$, by_key, run_rows);

	referenced_rows := pg_catalog.format($q$
SELECT c.*,
	CASE WHEN c.same_is_reference THEN c.same_provider ELSE c.any_provider END AS ref_provider,
	CASE WHEN c.same_is_reference THEN c.same_release ELSE c.any_release END AS ref_release,
	CASE WHEN c.same_is_reference THEN c.same_observed_at ELSE c.any_observed_at END AS ref_observed_at,
	CASE WHEN c.same_is_reference THEN c.same_latency_ns ELSE c.any_latency_ns END AS ref_latency_ns,
	CASE WHEN c.same_is_reference THEN c.same_latency_ns_p20 ELSE c.any_latency_ns_p20 END AS ref_latency_ns_p20,
	CASE WHEN c.same_is_reference THEN c.same_latency_ns_p80 ELSE c.any_latency_ns_p80 END AS ref_latency_ns_p80,
	CASE WHEN c.same_is_reference THEN c.same_peak_bytes ELSE c.any_peak_bytes END AS ref_peak_bytes,
	CASE WHEN c.same_is_reference THEN c.same_peak_bytes_p20 ELSE c.any_peak_bytes_p20 END AS ref_peak_bytes_p20,
	CASE WHEN c.same_is_reference THEN c.same_peak_bytes_p80 ELSE c.any_peak_bytes_p80 END AS ref_peak_bytes_p80,
	CASE WHEN c.same_is_reference THEN c.same_digest ELSE c.any_digest END AS ref_digest
FROM (
	SELECT s.*,
		pg_catalog.first_value(s.is_reference) OVER same AS same_is_reference,
		pg_catalog.first_value(s.provider) OVER same AS same_provider,
		pg_catalog.first_value(s.release) OVER same AS same_release,
		pg_catalog.first_value(s.observed_at) OVER same AS same_observed_at,
		pg_catalog.first_value(s.latency_ns) OVER same AS same_latency_ns,
		pg_catalog.first_value(s.latency_ns_p20) OVER same AS same_latency_ns_p20,
		pg_catalog.first_value(s.latency_ns_p80) OVER same AS same_latency_ns_p80,
		pg_catalog.first_value(s.peak_bytes) OVER same AS same_peak_bytes,
		pg_catalog.first_value(s.peak_bytes_p20) OVER same AS same_peak_bytes_p20,
		pg_catalog.first_value(s.peak_bytes_p80) OVER same AS same_peak_bytes_p80,
		pg_catalog.first_value(s.digest) OVER same AS same_digest,
		pg_catalog.first_value(s.is_reference) OVER any_release AS any_is_reference,
		pg_catalog.first_value(s.provider) OVER any_release AS any_provider,
		pg_catalog.first_value(s.release) OVER any_release AS any_release,
		pg_catalog.first_value(s.observed_at) OVER any_release AS any_observed_at,
		pg_catalog.first_value(s.latency_ns) OVER any_release AS any_latency_ns,
		pg_catalog.first_value(s.latency_ns_p20) OVER any_release AS any_latency_ns_p20,
		pg_catalog.first_value(s.latency_ns_p80) OVER any_release AS any_latency_ns_p80,
		pg_catalog.first_value(s.peak_bytes) OVER any_release AS any_peak_bytes,
		pg_catalog.first_value(s.peak_bytes_p20) OVER any_release AS any_peak_bytes_p20,
		pg_catalog.first_value(s.peak_bytes_p80) OVER any_release AS any_peak_bytes_p80,
		pg_catalog.first_value(s.digest) OVER any_release AS any_digest
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
	kernelindex.ratio(f.reference_latency_ns, f.latency_ns) AS speedup,
	f.peak_bytes,
	f.peak_bytes_p20,
	f.peak_bytes_p80,
	f.peak_mib,
	f.reference_peak_bytes,
	f.reference_peak_bytes_p20,
	f.reference_peak_bytes_p80,
	kernelindex.bytes_to_mib(f.reference_peak_bytes) AS reference_peak_mib,
	kernelindex.ratio(f.reference_peak_bytes, f.peak_bytes) AS memory_ratio,
	CASE f.metric
		WHEN 'latency' THEN kernelindex.bands_apart(f.latency_ns_p20, f.latency_ns_p80,
			f.reference_latency_ns_p20, f.reference_latency_ns_p80)
		WHEN 'peak_memory' THEN kernelindex.bands_apart(f.peak_bytes_p20, f.peak_bytes_p80,
			f.reference_peak_bytes_p20, f.reference_peak_bytes_p80)
	END AS outside_noise,
	f.comparability_key,
	f.implementation_digest,
	f.run_digest,
	f.reference_run_digest
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
	s.ref_digest::text AS reference_run_digest', referenced_rows, facts_joins));

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
	f.comparability_key, f.implementation_digest, f.run_digest, f.reference_run_digest
FROM (%s) f$v$,
		pg_catalog.format(facts_of, facts, ',
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
	f.comparability_key, f.implementation_digest, f.old_run_digest, f.run_digest AS new_run_digest
FROM (%s) f$v$,
		pg_catalog.format(facts_of, facts, ',
	s.previous_release AS old_release,
	s.previous_release_rank AS old_release_rank,
	s.release_rank AS new_release_rank,
	s.previous_latency_ns AS old_latency_ns,
	s.previous_peak_bytes AS old_peak_bytes,
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
	CASE c.metric WHEN 'latency' THEN kernelindex.ratio(c.latency_ns, c.previous_latency_ns)
		WHEN 'peak_memory' THEN kernelindex.ratio(c.peak_bytes, c.previous_peak_bytes) END AS change,
	CASE c.metric
		WHEN 'latency' THEN kernelindex.bands_apart(c.latency_ns_p20, c.latency_ns_p80, c.previous_latency_ns_p20, c.previous_latency_ns_p80)
		WHEN 'peak_memory' THEN kernelindex.bands_apart(c.peak_bytes_p20, c.peak_bytes_p80, c.previous_peak_bytes_p20, c.previous_peak_bytes_p80)
	END AS apart
FROM (
	SELECT s.*,
		pg_catalog.lag(s.release) OVER w AS previous_release,
		pg_catalog.lag(s.release_rank) OVER w AS previous_release_rank,
		pg_catalog.lag(s.latency_ns) OVER w AS previous_latency_ns,
		pg_catalog.lag(s.latency_ns_p20) OVER w AS previous_latency_ns_p20,
		pg_catalog.lag(s.latency_ns_p80) OVER w AS previous_latency_ns_p80,
		pg_catalog.lag(s.peak_bytes) OVER w AS previous_peak_bytes,
		pg_catalog.lag(s.peak_bytes_p20) OVER w AS previous_peak_bytes_p20,
		pg_catalog.lag(s.peak_bytes_p80) OVER w AS previous_peak_bytes_p80,
		pg_catalog.lag(s.digest) OVER w AS previous_digest
	FROM (%2$s) s
	WINDOW w AS (PARTITION BY %1$s, s.implementation_id ORDER BY s.release_rank)
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
COMMENT ON COLUMN kernelindex.run_facts.is_reference IS 'true for the reference implementation (torch)';
COMMENT ON COLUMN kernelindex.run_facts.pass IS 'timed pass: forward, backward, full';
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
'each run of a non-reference implementation against the reference implementation (kernelindex.providers.is_reference: torch) under the same comparability key (same protocol, workload and GPU): the reference''s latest run of the same release, else of any release (see same_release); speedup = reference latency / latency for latency rows, memory_ratio = reference peak memory / peak memory for memory rows; outside_noise when the two p20-p80 bands do not overlap';
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
COMMENT ON COLUMN kernelindex.speedups.speedup IS 'reference latency / latency (above 1: faster than the reference); NULL for memory rows';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes IS 'median peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_p20 IS 'p20 peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_p80 IS 'p80 peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_mib IS 'median peak memory of the run, MiB';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes IS 'median peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_p20 IS 'p20 peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_p80 IS 'p80 peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_mib IS 'median peak memory of the reference run, MiB';
COMMENT ON COLUMN kernelindex.speedups.memory_ratio IS 'reference peak memory / peak memory (above 1: uses less memory); NULL for latency rows';
COMMENT ON COLUMN kernelindex.speedups.outside_noise IS 'true when the run''s p20-p80 band and the reference''s do not overlap: the difference is outside the measurement noise';
COMMENT ON COLUMN kernelindex.speedups.comparability_key IS 'the shared comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.implementation_digest IS 'implementation digest of the run, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.run_digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.reference_run_digest IS 'the reference run''s digest, sha256:<hex>';


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
COMMENT ON COLUMN kernelindex.release_runs.outside_noise IS 'true when the run''s p20-p80 band and the reference''s do not overlap';
COMMENT ON COLUMN kernelindex.release_runs.comparability_key IS 'comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.run_digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.reference_run_digest IS 'the reference run''s digest, sha256:<hex>';
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
COMMENT ON COLUMN kernelindex.release_changes.ratio IS 'new / old (above 1: slower, or more memory: a regression)';
COMMENT ON COLUMN kernelindex.release_changes.outside_noise IS 'true when the two releases'' p20-p80 bands do not overlap';
COMMENT ON COLUMN kernelindex.release_changes.regression_rank IS '1 for the worst regression: regressions outside the noise first, by ratio, then every other change by ratio';
COMMENT ON COLUMN kernelindex.release_changes.comparability_key IS 'comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.old_run_digest IS 'the old release''s run, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.new_run_digest IS 'the new release''s run, sha256:<hex>';

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
/* ---------------------------------------------------------------------
 * 8. Scale-out on Citus (README "Scaling out with Citus")
 *
 *   CREATE EXTENSION citus;          -- on the coordinator and every worker
 *   SELECT citus_add_node(...);      -- each worker, on the coordinator
 *   CREATE EXTENSION kernelindex;    -- on the coordinator (Citus creates
 *                                    -- it on the workers)
 *   SELECT kernelindex.distribute();
 *
 * kernelindex.distribute() spreads kernelindex.runs over the workers by
 * comparability key (so that every comparison, speedup and release change
 * stays within one shard) and makes every other table a reference table
 * (a whole copy on every server).  What it changes, and why:
 *
 * - The foreign keys between the resource tables are dropped, the tables
 *   made reference tables, and the keys declared again, named <name>_citus:
 *   Citus refuses to make one table of a chain of foreign keys between
 *   local tables a reference table, and the workers' copies of the tables
 *   (which CREATE EXTENSION made there) keep the original names.
 * - What runs refer to (kernelindex.run_references(): their comparability
 *   key, implementation and dictionary values), checked per statement by
 *   triggers on one server, is declared as foreign keys from runs to those
 *   reference tables on Citus, checked on every shard against its server's
 *   copy: Citus keeps no triggers on distributed tables unless
 *   citus.enable_unsafe_triggers is set, and a trigger may not query shards
 *   on other servers, as the guards of deletes (which read runs) must.  The
 *   trigger runs_references_insert and the guards of deletes and truncates
 *   are dropped; the guards of updates (a dictionary value, a key's or a
 *   resource's identity and a stored run never change; they read nothing)
 *   stay, on every copy.
 * - The view that rebuilds documents (run_bundles, which documents reads)
 *   and run_document()/run_bundle(), whose C function Citus would push down
 *   to the shards, take their Citus forms, defined below as objects of
 *   their own: run_bundles_citus (the runs' rows brought to the
 *   coordinator, which rebuilds the documents there) and run_bundle_citus()
 *   (the same for one digest, bound in PL/pgSQL so that Citus plans it).
 *   Both forms exist on every server, so that the regress suite
 *   citus_forms compares them row for row where Citus is not installed.
 *   Every BI view runs as written.
 *
 * Everything happens in one transaction, and again on a second call only
 * where something is still to do.
 * --------------------------------------------------------------------- */

CREATE FUNCTION kernelindex.run_references()
RETURNS TABLE (column_name text, table_name text, key_column text)
AS 'MODULE_PATHNAME', 'kidx_run_references'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.run_references() IS
'each reference column of kernelindex.runs, the table it names a row of and that table''s key, as the C code holds them (what the reference triggers check, and kernelindex.distribute() declares as foreign keys on Citus)';

/* The Citus forms of the views and functions that rebuild documents ----- */

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

/*
 * PL/pgSQL, so that Citus plans the look-up with the digest bound (it
 * cannot plan a SQL function's query over a distributed table with its
 * parameter); the runs' row comes to the coordinator, as in
 * run_bundles_citus.
 */
CREATE FUNCTION kernelindex.run_bundle_citus(run @extschema@.kidx_digest, whole boolean)
RETURNS jsonb
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
BEGIN
	RETURN (WITH r AS MATERIALIZED (
		SELECT r.* FROM kernelindex.runs r WHERE r.digest OPERATOR(@extschema@.=) run_bundle_citus.run)
	SELECT kernelindex.run_bundle_of(r::kernelindex.runs, p.digest, w.digest, e.digest, i.digest,
		w.label, n.value, x.value, run_bundle_citus.whole)
	FROM r
	JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) r.comparability_key
	JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) k.protocol_id
	JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
	JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id
	JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) r.implementation_id
	LEFT JOIN kernelindex.run_strings n ON n.id OPERATOR(pg_catalog.=) r.name_id
	LEFT JOIN kernelindex.run_strings x ON x.id OPERATOR(pg_catalog.=) r.external_id_id);
END
$body$;
COMMENT ON FUNCTION kernelindex.run_bundle_citus(@extschema@.kidx_digest, boolean) IS
'the form kernelindex.distribute() gives run_document(run) (whole false) and run_bundle(run) (whole true) on Citus: the same documents, the run''s row brought to the coordinator, which rebuilds them; NULL if no such run';

CREATE FUNCTION kernelindex.distribute()
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
		'gpus', 'kernels', 'providers', 'liger_passes', 'rejected_rows'];
	-- the tables runs refer to, by which column (as the C code holds them)
	referenced CONSTANT text[] := ARRAY(
		SELECT x.column_name OPERATOR(pg_catalog.||) ':' OPERATOR(pg_catalog.||) x.table_name
			OPERATOR(pg_catalog.||) ':' OPERATOR(pg_catalog.||) x.key_column
		FROM kernelindex.run_references() x);
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
	FOREACH r IN ARRAY referenced LOOP
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
COMMENT ON FUNCTION kernelindex.distribute() IS
'on a Citus coordinator: distributes kernelindex.runs by comparability_key, makes the resource, key, dictionary and catalog tables and rejected_rows reference tables, declares what runs refer to as foreign keys, and gives run_bundles, run_document and run_bundle their Citus forms (run_bundles_citus, run_bundle_citus), which rebuild documents on the coordinator; idempotent; 55000 where Citus is not installed';
