/* ---------------------------------------------------------------------
 * 4. Comparability keys and the store
 *
 * Layout (see doc/reference.md, "The store"):
 *   protocols, environments, workloads, implementations
 *       resources keyed by digest, each with a small integer id (what
 *       references point at: 4 bytes instead of 32) and the whole document
 *       (NULL for a workload or implementation known only by digest until
 *       its document arrives).
 *   comparability_keys
 *       one row per comparability key: the protocol, workload and
 *       environment runs must share to be compared (references checked
 *       per statement, as those of runs).
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
 * the C triggers kernelindex_internal.runs_references_check() and
 * runs_references_guard() keep the same promise under every isolation
 * level (test/t/030_references.pl).  What comparability keys refer to, too:
 * the batch writer checks and locks the resources of a statement's new keys
 * at once (src/references.c), and runs_references_guard() guards them.
 * --------------------------------------------------------------------- */

CREATE SCHEMA kernelindex;
COMMENT ON SCHEMA kernelindex IS
'kernelindex: benchmark protocols, environments, workloads, implementations and runs';

-- What users do not call (trigger functions, the passes under the BI views,
-- the Citus forms, helpers of the C code) lives in a schema of its own, so
-- that a BI tool listing kernelindex sees the tables, views and functions
-- it should use.
CREATE SCHEMA kernelindex_internal;
COMMENT ON SCHEMA kernelindex_internal IS
'kernelindex internals: trigger functions, the passes under the BI views, the Citus forms, helpers; not an interface';
-- Every role may name what is in it (USAGE, not CREATE): the Citus forms
-- of run_document() and run_bundle() read kernelindex_internal.run_refs
-- as their caller.  Its views grant SELECT only where they check the
-- caller's privileges on the tables they read (security_invoker), so
-- USAGE gives no role a row it could not read from kernelindex itself.
GRANT USAGE ON SCHEMA kernelindex_internal TO PUBLIC;

/* Comparability key (doc/reference.md, "Comparability") ---------------------------------- */

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
	harness text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{spec,harness,name}') STORED,
	pass text GENERATED ALWAYS AS (document OPERATOR(pg_catalog.#>>) '{spec,measurement,pass}') STORED,
	CONSTRAINT protocols_kind CHECK ((document OPERATOR(pg_catalog.->>) 'kind') = 'BenchmarkProtocol'),
	CONSTRAINT protocols_digest CHECK (digest OPERATOR(@extschema@.=) @extschema@.kidx_resource_digest(document))
);
COMMENT ON TABLE kernelindex.protocols IS 'BenchmarkProtocol resources: how a number was measured';
COMMENT ON COLUMN kernelindex.protocols.digest IS 'resource digest of {apiVersion, kind, spec}';
COMMENT ON COLUMN kernelindex.protocols.id IS 'small surrogate id, the target of comparability_keys.protocol_id';
COMMENT ON COLUMN kernelindex.protocols.document IS 'the whole resource document as first ingested (metadata included)';
COMMENT ON COLUMN kernelindex.protocols.title IS 'metadata.title of the document (generated)';
COMMENT ON COLUMN kernelindex.protocols.harness IS 'spec.harness.name: the harness, e.g. kernelbench (generated; kernelindex.harnesses)';
COMMENT ON COLUMN kernelindex.protocols.pass IS 'spec.measurement.pass: the timed pass, where the protocol names one (generated)';

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

CREATE FUNCTION kernelindex_internal.workloads_label_guard()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_workloads_label_guard'
LANGUAGE C;
COMMENT ON FUNCTION kernelindex_internal.workloads_label_guard() IS
'refuses an update that changes or removes the label of a stored workload document (trigger workloads_label)';
CREATE TRIGGER workloads_label BEFORE UPDATE ON kernelindex.workloads
FOR EACH ROW WHEN ((OLD.document OPERATOR(pg_catalog.#>>) '{metadata,labels,label}') IS NOT NULL AND
	(NEW.document OPERATOR(pg_catalog.#>>) '{metadata,labels,label}') IS DISTINCT FROM
	(OLD.document OPERATOR(pg_catalog.#>>) '{metadata,labels,label}'))
EXECUTE FUNCTION kernelindex_internal.workloads_label_guard();
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
	protocol_id integer NOT NULL,
	workload_id integer NOT NULL,
	environment_id integer NOT NULL
);
CREATE INDEX comparability_keys_workload ON kernelindex.comparability_keys (workload_id);
CREATE INDEX comparability_keys_environment ON kernelindex.comparability_keys (environment_id);
COMMENT ON TABLE kernelindex.comparability_keys IS
'the comparability keys runs are stored under: each one a protocol, a workload and an environment';
COMMENT ON COLUMN kernelindex.comparability_keys.key IS 'kidx_comparability_key(protocol, workload, environment)';
COMMENT ON COLUMN kernelindex.comparability_keys.protocol_id IS 'the protocol (kernelindex.protocols.id; checked per statement, as a foreign key)';
COMMENT ON COLUMN kernelindex.comparability_keys.workload_id IS 'the workload (kernelindex.workloads.id; checked per statement, as a foreign key)';
COMMENT ON COLUMN kernelindex.comparability_keys.environment_id IS 'the environment (kernelindex.environments.id; checked per statement, as a foreign key)';
COMMENT ON INDEX kernelindex.comparability_keys_workload IS 'finds the keys of a workload (a dashboard''s filter on kernel)';
COMMENT ON INDEX kernelindex.comparability_keys_environment IS 'finds the keys of an environment (a dashboard''s filter on GPU)';

/* What runs repeat: dictionaries ----------------------------------------- */

CREATE FUNCTION kernelindex_internal.dictionary_hash(value text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'kidx_dictionary_hash_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex_internal.dictionary_hash(text) IS
'the hash of a dictionary string: the first 16 bytes of SHA-256 of its canonical JSON string, as a uuid';

CREATE FUNCTION kernelindex_internal.dictionary_hash(value jsonb)
RETURNS uuid
AS 'MODULE_PATHNAME', 'kidx_dictionary_hash_jsonb'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex_internal.dictionary_hash(jsonb) IS
'the hash of a dictionary value: the first 16 bytes of SHA-256 of its canonical JSON, as a uuid';

CREATE FUNCTION kernelindex_internal.template_hash(template jsonb, name_form text, name_prefix text,
	name_cut integer, external_id_form text, native_unit text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'kidx_template_hash'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex_internal.template_hash(jsonb, text, text, integer, text, text) IS
'the hash of a run template: the first 16 bytes of SHA-256 of the canonical JSON [template, name_form, name_prefix, name_cut, external_id_form, native_unit], as a uuid';

CREATE TABLE kernelindex.run_titles (
	id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	hash uuid NOT NULL UNIQUE,
	value text NOT NULL,
	CONSTRAINT run_titles_hash CHECK (hash = kernelindex_internal.dictionary_hash(value))
);
COMMENT ON TABLE kernelindex.run_titles IS 'dictionary of run titles (metadata.title), e.g. Sparsemax · torch · backward';

CREATE TABLE kernelindex.run_statuses (
	id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	hash uuid NOT NULL UNIQUE,
	value text NOT NULL,
	CONSTRAINT run_statuses_hash CHECK (hash = kernelindex_internal.dictionary_hash(value))
);
COMMENT ON TABLE kernelindex.run_statuses IS 'dictionary of run statuses (spec.status), e.g. passed';

CREATE TABLE kernelindex.run_sources (
	id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	hash uuid NOT NULL UNIQUE,
	value text NOT NULL,
	CONSTRAINT run_sources_hash CHECK (hash = kernelindex_internal.dictionary_hash(value))
);
COMMENT ON TABLE kernelindex.run_sources IS 'dictionary of run sources (spec.sourceNative.source), e.g. liger-kernel-bench';

CREATE TABLE kernelindex.run_benchmarks (
	id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	hash uuid NOT NULL UNIQUE,
	value text NOT NULL,
	kernel text GENERATED ALWAYS AS (NULLIF(pg_catalog.split_part(value, '/', 1), '')) STORED,
	pass text GENERATED ALWAYS AS (NULLIF(pg_catalog.split_part(value, '/', 2), '')) STORED,
	CONSTRAINT run_benchmarks_hash CHECK (hash = kernelindex_internal.dictionary_hash(value))
);
COMMENT ON TABLE kernelindex.run_benchmarks IS 'dictionary of benchmark names (spec.sourceNative.benchmark), e.g. sparsemax/backward';
COMMENT ON COLUMN kernelindex.run_benchmarks.kernel IS 'the first part of the benchmark name, e.g. sparsemax (generated)';
COMMENT ON COLUMN kernelindex.run_benchmarks.pass IS 'the timed pass: the second part of the benchmark name, e.g. backward (generated)';

CREATE TABLE kernelindex.run_strings (
	id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	hash uuid NOT NULL UNIQUE,
	value text NOT NULL,
	CONSTRAINT run_strings_hash CHECK (hash = kernelindex_internal.dictionary_hash(value))
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
	CONSTRAINT run_labels_hash CHECK (hash = kernelindex_internal.dictionary_hash(value))
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
	latency_statistic text GENERATED ALWAYS AS
		(COALESCE(value OPERATOR(pg_catalog.#>>) '{spec,timing,primaryStatistic}', 'median')) STORED,
	memory_statistic text GENERATED ALWAYS AS
		(COALESCE(value OPERATOR(pg_catalog.#>>) '{spec,memory,primaryStatistic}', 'median')) STORED,
	CONSTRAINT run_templates_hash CHECK (hash = kernelindex_internal.template_hash(value, name_form, name_prefix,
		name_cut, external_id_form, native_unit))
);
COMMENT ON TABLE kernelindex.run_templates IS
'dictionary of run templates: a run document without anything a run holds (its values, resource digests, title, labels, status, source, benchmark, name, externalId), and the rules its runs'' names and externalIds follow';
COMMENT ON COLUMN kernelindex.run_templates.value IS 'the run document without what runs hold (see doc/reference.md, "The run layout")';
COMMENT ON COLUMN kernelindex.run_templates.name_form IS 'how a run''s metadata.name is made: literal (the run''s name string), stem (its name string, then the observedAt slug), from_external_id (name_prefix, then the externalId slugged)';
COMMENT ON COLUMN kernelindex.run_templates.name_prefix IS 'from_external_id: what comes before the slugged externalId, e.g. liger-';
COMMENT ON COLUMN kernelindex.run_templates.name_cut IS 'characters the name is cut to, trailing hyphens removed; -1: not cut';
COMMENT ON COLUMN kernelindex.run_templates.external_id_form IS 'how a run''s externalId is made: absent, literal (the run''s string), stem (its string, then the observedAt slug), labelled (its benchmark, its string, its workload''s label, then the observedAt slug, joined by /)';
COMMENT ON COLUMN kernelindex.run_templates.latency_statistic IS 'the statistic its runs'' latency is compared on: spec.timing.primaryStatistic, median when it names none (generated)';
COMMENT ON COLUMN kernelindex.run_templates.memory_statistic IS 'the statistic its runs'' peak memory is compared on: spec.memory.primaryStatistic, median when it names none (generated)';
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
	latency_ns_mean bigint,
	latency_ns_stddev bigint,
	latency_ns_min bigint,
	latency_ns_max bigint,
	latency_samples bigint,
	peak_bytes_mean bigint,
	peak_bytes_stddev bigint,
	peak_bytes_min bigint,
	peak_bytes_max bigint,
	peak_samples bigint,
	CONSTRAINT runs_pkey PRIMARY KEY (digest, comparability_key),
	CONSTRAINT runs_external_key UNIQUE (comparability_key, external_key)
);
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
COMMENT ON INDEX kernelindex.runs_pkey IS 'finds a run by its digest alone (run_document); the comparability key is in it because Citus distributes runs by it';
COMMENT ON INDEX kernelindex.runs_external_key IS 'finds the runs of a comparability key (a dashboard''s runs, the runs comparable with one), and refuses two runs of a key with one externalId';

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

CREATE FUNCTION kernelindex_internal.runs_references_check()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_runs_references_check' LANGUAGE C;
COMMENT ON FUNCTION kernelindex_internal.runs_references_check() IS
'statement trigger of kernelindex.runs: every comparability key, implementation and dictionary value the new runs name exists (23503 otherwise) and is locked FOR KEY SHARE until the runs commit, as a foreign key check does';

CREATE TRIGGER runs_references_insert
AFTER INSERT ON kernelindex.runs
REFERENCING NEW TABLE AS new_runs
FOR EACH STATEMENT EXECUTE FUNCTION kernelindex_internal.runs_references_check();
COMMENT ON TRIGGER runs_references_insert ON kernelindex.runs IS
'what new runs name exists (23503 otherwise), locked FOR KEY SHARE';


CREATE FUNCTION kernelindex_internal.runs_references_guard()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_runs_references_guard' LANGUAGE C;
COMMENT ON FUNCTION kernelindex_internal.runs_references_guard() IS
'triggers of the tables runs or comparability keys refer to: a row a run (a key) names is not deleted or truncated away (23503, checked with the latest snapshot, as a foreign key is), and a dictionary value is never changed (0A000)';

DO $$
DECLARE
	t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['comparability_keys', 'implementations', 'run_titles', 'run_statuses',
		'run_sources', 'run_benchmarks', 'run_strings', 'run_labels', 'run_templates'] LOOP
		EXECUTE pg_catalog.format('CREATE TRIGGER %I AFTER DELETE ON kernelindex.%I REFERENCING OLD TABLE AS old_rows'
			' FOR EACH STATEMENT EXECUTE FUNCTION kernelindex_internal.runs_references_guard()', t || '_delete', t);
		EXECUTE pg_catalog.format('COMMENT ON TRIGGER %I ON kernelindex.%I IS %L', t || '_delete', t,
			'refuses to delete a row a run names (23503)');
		EXECUTE pg_catalog.format('CREATE TRIGGER %I AFTER TRUNCATE ON kernelindex.%I'
			' FOR EACH STATEMENT EXECUTE FUNCTION kernelindex_internal.runs_references_guard()', t || '_truncate', t);
		EXECUTE pg_catalog.format('COMMENT ON TRIGGER %I ON kernelindex.%I IS %L', t || '_truncate', t,
			'refuses to truncate while runs name its rows (23503; truncate kernelindex.runs in the same command)');
		CONTINUE WHEN t NOT LIKE 'run\_%';
		EXECUTE pg_catalog.format('CREATE TRIGGER %I BEFORE UPDATE ON kernelindex.%I'
			' FOR EACH ROW EXECUTE FUNCTION kernelindex_internal.runs_references_guard()', t || '_update', t);
		EXECUTE pg_catalog.format('COMMENT ON TRIGGER %I ON kernelindex.%I IS %L', t || '_update', t,
			'refuses to change a dictionary value: runs refer to it');
	END LOOP;
	/* the resources comparability keys name (the batch writer checks new keys) */
	FOREACH t IN ARRAY ARRAY['protocols', 'workloads', 'environments'] LOOP
		EXECUTE pg_catalog.format('CREATE TRIGGER %I AFTER DELETE ON kernelindex.%I REFERENCING OLD TABLE AS old_rows'
			' FOR EACH STATEMENT EXECUTE FUNCTION kernelindex_internal.runs_references_guard()', t || '_delete', t);
		EXECUTE pg_catalog.format('COMMENT ON TRIGGER %I ON kernelindex.%I IS %L', t || '_delete', t,
			'refuses to delete a row a comparability key names (23503)');
		EXECUTE pg_catalog.format('CREATE TRIGGER %I AFTER TRUNCATE ON kernelindex.%I'
			' FOR EACH STATEMENT EXECUTE FUNCTION kernelindex_internal.runs_references_guard()', t || '_truncate', t);
		EXECUTE pg_catalog.format('COMMENT ON TRIGGER %I ON kernelindex.%I IS %L', t || '_truncate', t,
			'refuses to truncate while comparability keys name its rows (23503; truncate kernelindex.comparability_keys in the same command)');
	END LOOP;
END
$$;

CREATE FUNCTION kernelindex_internal.identity_guard()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_identity_guard' LANGUAGE C;
COMMENT ON FUNCTION kernelindex_internal.identity_guard() IS
'trigger of runs, comparability_keys and the resource tables: refuses an update that changes one of the columns its arguments name, or any column without arguments (0A000)';
CREATE TRIGGER runs_identity BEFORE UPDATE ON kernelindex.runs
FOR EACH ROW EXECUTE FUNCTION kernelindex_internal.identity_guard();
COMMENT ON TRIGGER runs_identity ON kernelindex.runs IS
'refuses to change a stored run: each of its columns is part of the document its digest is the digest of (a changed run is a new run: ingest it)';
CREATE TRIGGER comparability_keys_identity BEFORE UPDATE ON kernelindex.comparability_keys
FOR EACH ROW EXECUTE FUNCTION kernelindex_internal.identity_guard('key', 'protocol_id', 'workload_id', 'environment_id');
COMMENT ON TRIGGER comparability_keys_identity ON kernelindex.comparability_keys IS
'refuses to change a comparability key or the resources it is made of';
DO $$
DECLARE
	t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['protocols', 'environments', 'workloads', 'implementations'] LOOP
		EXECUTE pg_catalog.format('CREATE TRIGGER %I BEFORE UPDATE ON kernelindex.%I'
			' FOR EACH ROW EXECUTE FUNCTION kernelindex_internal.identity_guard(''digest'', ''id'')', t || '_identity', t);
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
