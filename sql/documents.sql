-- Documents in: every kind of fault a document can have, one document each
-- (test/data/bad_documents.tsv), refused with its SQLSTATE, the document's
-- position and the JSON path of the fault, without the CONTEXT of internal
-- queries; nothing is stored.
\pset null '(null)'
SET client_min_messages = warning;
\set ref `cat test/data/records/sparsemax-backward-torch-rtx3090.json`
CREATE TEMP TABLE base (name text PRIMARY KEY, doc jsonb);
INSERT INTO base VALUES ('sparsemax', :'ref'::jsonb),
	('sparsemax-noprotocol', :'ref'::jsonb - 'protocol'),
	('sparsemax-noenvironment', :'ref'::jsonb - 'environment');
CREATE TEMP TABLE faults (n serial, fault text, base text, op text, path text, value text);
\copy faults (fault, base, op, path, value) FROM 'test/data/bad_documents.tsv' WITH (FORMAT text, HEADER true)
CREATE TEMP TABLE cat AS
SELECT f.n, f.fault,
	CASE f.op
		WHEN 'replace' THEN f.value::jsonb
		WHEN 'set' THEN jsonb_set(b.doc, f.path::text[], f.value::jsonb, true)
		WHEN 'delete' THEN b.doc #- f.path::text[]
	END AS doc
FROM faults f LEFT JOIN base b ON b.name = f.base;
SELECT count(*) AS faults, count(*) FILTER (WHERE doc IS NULL AND fault <> 'JSON null') AS unbuilt FROM cat;

\set VERBOSITY default
\set SHOW_CONTEXT always
SELECT format('SELECT kernelindex.ingest_document(doc) AS "%s" FROM cat WHERE n = %s', fault, n)
FROM cat ORDER BY n \gexec
-- The same faults as the second document of a statement: the position says so.
SELECT kernelindex.ingest_bundles(ARRAY[(SELECT doc FROM base WHERE name = 'sparsemax'), doc])
FROM cat WHERE fault = 'a latency that is a string';
SELECT kernelindex.ingest_bundles(ARRAY[(SELECT doc FROM base WHERE name = 'sparsemax'), NULL]);
\set VERBOSITY terse
\set SHOW_CONTEXT errors

-- Nothing was stored.
SELECT (SELECT count(*) FROM kernelindex.runs) AS runs, (SELECT count(*) FROM kernelindex.protocols) AS protocols,
	(SELECT count(*) FROM kernelindex.run_templates) AS templates, (SELECT count(*) FROM kernelindex.run_strings) AS strings,
	(SELECT count(*) FROM kernelindex.comparability_keys) AS keys;

-- COPY into the view: a bad line fails the whole COPY at its line.
\copy (SELECT doc FROM base WHERE name = 'sparsemax' UNION ALL SELECT doc FROM cat WHERE fault = 'observedAt a number') TO 'results/documents_bad.jsonl' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')
\set VERBOSITY default
\copy kernelindex.documents FROM 'results/documents_bad.jsonl' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')
\set VERBOSITY terse
SELECT count(*) AS runs FROM kernelindex.runs;

-- Valid documents the layout cannot hold in its typed columns still come
-- back exactly: their odd parts stay in their template.  Each case has a day
-- of its own (so that no two share an externalId).
CREATE TEMP TABLE odd (n int, name text, doc jsonb);
CREATE FUNCTION pg_temp.odd_case(n int, name text, f text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE d jsonb := replace((SELECT doc FROM base WHERE base.name = 'sparsemax')::text,
	'2025-04-28', '2025-05-' || lpad(n::text, 2, '0'))::jsonb;
BEGIN
	EXECUTE 'SELECT ' || f USING d INTO d;
	INSERT INTO odd VALUES (n, name, d);
END $$;
SELECT pg_temp.odd_case(1, 'observedAt with an offset', $$jsonb_set($1, '{run,spec,observedAt}', '"2025-05-01T02:38:25+02:00"')$$);
SELECT pg_temp.odd_case(2, 'observedAt without fraction', $$jsonb_set($1, '{run,spec,observedAt}', '"2025-05-02T00:38:25Z"')$$);
SELECT pg_temp.odd_case(3, 'a native value with trailing zeros', $$jsonb_set($1, '{run,spec,sourceNative,metrics,ms_50}', '2.6296319961547850')$$);
SELECT pg_temp.odd_case(4, 'an externalId of another form', $$jsonb_set($1, '{run,spec,sourceNative,externalId}', '"run 42"')$$);
SELECT pg_temp.odd_case(5, 'a name of another form', $$jsonb_set($1, '{run,metadata,name}', '"sparsemax-run"')$$);
SELECT pg_temp.odd_case(6, 'a latency written with a decimal point', $$jsonb_set($1, '{run,spec,timing,latencyNs,median}', '2629632.0')$$);
SELECT pg_temp.odd_case(7, 'a third measurement', $$jsonb_set($1, '{run,spec,measurements,2}', '{"unit": "ns", "value": 2640000, "metric": "latency", "statistic": "p99"}', true)$$);
SELECT pg_temp.odd_case(8, 'measurements in another order', $$jsonb_set(jsonb_set($1, '{run,spec,measurements,0}', $1 #> '{run,spec,measurements,1}'), '{run,spec,measurements,1}', $1 #> '{run,spec,measurements,0}')$$);
SELECT pg_temp.odd_case(9, 'native metrics of two units', $$jsonb_set($1, '{run,spec,sourceNative,metrics,us_50}', '2629.632', true)$$);
SELECT pg_temp.odd_case(10, 'fields the layout does not know', $$jsonb_set(jsonb_set($1, '{run,spec,extra}', '{"b": [1, "x", null, true], "a": 0.5}', true), '{run,metadata,annotations}', '{"note": "é\u0001\"\\"}', true)$$);
SELECT pg_temp.odd_case(11, 'a failed run without a value', $$jsonb_set($1 #- '{run,spec,timing}' #- '{run,spec,measurements}', '{run,spec,status}', '"failed"')$$);
SELECT pg_temp.odd_case(12, 'a memory run', $$jsonb_set($1 #- '{run,spec,timing}', '{run,spec,memory}', '{"peakBytes": {"median": 1048576}, "primaryStatistic": "median"}')$$);
SELECT pg_temp.odd_case(13, 'a name cut after a hyphen of the slug', $$jsonb_set($1, '{run,metadata,name}', '"liger-sparsemax-2025-05-13"')$$);
SELECT pg_temp.odd_case(14, 'a microsecond observedAt', $$jsonb_set(jsonb_set($1, '{run,spec,observedAt}', '"2025-05-14T00:38:25.123456Z"'), '{run,spec,sourceNative,externalId}', '"sparsemax/2025-05-14-00-38-25-123456"')$$);
SELECT o.name, kernelindex.ingest_document(o.doc) = kidx_resource_digest(o.doc -> 'run') AS ingested
FROM odd o ORDER BY o.n;
SELECT o.name, kernelindex.run_document(kidx_resource_digest(o.doc -> 'run')) = o.doc AS same_jsonb,
	kidx_canonical(kernelindex.run_document(kidx_resource_digest(o.doc -> 'run'))) = kidx_canonical(o.doc) AS same_canonical
FROM odd o ORDER BY o.n;
SELECT count(*) AS runs, count(DISTINCT template_id) AS templates FROM kernelindex.runs;
-- where the odd parts went
SELECT o.name, t.name_form, t.name_prefix, t.name_cut, t.external_id_form, t.native_unit,
	t.value #> '{spec,observedAt}' AS observed_at_in_template,
	t.value #> '{spec,timing,latencyNs}' AS latency_in_template, r.latency_ns
FROM odd o JOIN kernelindex.runs r ON r.digest = kidx_resource_digest(o.doc -> 'run')
JOIN kernelindex.run_templates t ON t.id = r.template_id
ORDER BY o.n;

-- A different run (another status) with the same source and externalId is refused.
\set VERBOSITY default
SELECT kernelindex.ingest_document(jsonb_set(doc, '{run,spec,status}', '"skipped"')) FROM odd WHERE n = 3;
-- and two such runs in one statement too
SELECT kernelindex.ingest_bundles(ARRAY[d, jsonb_set(d, '{run,spec,status}', '"skipped"')])
FROM (SELECT replace(doc::text, '2025-04-28', '2026-01-01')::jsonb AS d FROM base WHERE name = 'sparsemax') x;
\set VERBOSITY terse

-- An externalId made of the run's benchmark, a string, its workload's label
-- and the observedAt (Liger's) is held without the label: the string left
-- is the provider and GPU, which many series share, and the label comes
-- back from the workload's stored document.  Whole bundles of the Liger
-- sample, ingested as documents in four ways, come back exactly each time.
CREATE FUNCTION pg_temp.empty_store() RETURNS void LANGUAGE sql AS $$
TRUNCATE kernelindex.runs, kernelindex.comparability_keys, kernelindex.protocols,
	kernelindex.environments, kernelindex.workloads, kernelindex.implementations, kernelindex.run_titles,
	kernelindex.run_statuses, kernelindex.run_sources, kernelindex.run_benchmarks, kernelindex.run_strings,
	kernelindex.run_labels, kernelindex.run_templates
$$;
SELECT pg_temp.empty_store();
\copy kernelindex.liger_rows FROM 'test/data/liger_sample.csv' WITH (FORMAT csv, HEADER MATCH)
CREATE TEMP TABLE whole AS SELECT b.digest, b.bundle FROM kernelindex.run_bundles b;
CREATE VIEW pg_temp.forms AS
SELECT t.external_id_form, count(*) AS runs, count(DISTINCT r.external_id_id) AS strings,
	bool_and(kernelindex.run_document(r.digest) -> 'run' = w.bundle -> 'run') AS runs_exact,
	bool_and(f.external_id = w.bundle #>> '{run,spec,sourceNative,externalId}') AS run_facts_exact
FROM kernelindex.runs r JOIN kernelindex.run_templates t ON t.id = r.template_id
JOIN whole w ON w.digest = r.digest::text
JOIN kernelindex.run_facts f ON f.run_digest = r.digest::text
GROUP BY 1 ORDER BY 1;
-- from the CSV
SELECT * FROM pg_temp.forms;
-- whole bundles: the workload's label is the one its document brings
SELECT pg_temp.empty_store();
SELECT kernelindex.ingest_bundles(array_agg(bundle)) AS stored FROM whole;
SELECT * FROM pg_temp.forms;
SELECT bool_and(b.bundle = w.bundle) AS bundles_exact
FROM whole w JOIN kernelindex.run_bundles b ON b.digest = w.digest;
-- bundles without their workloads: no label is known, the stem is held whole
SELECT pg_temp.empty_store();
SELECT kernelindex.ingest_bundles(array_agg(bundle - 'workload')) AS stored FROM whole;
SELECT * FROM pg_temp.forms;
-- the workloads stored first with another label (the same spec, so the same
-- digest): the stored label is not the run's, the stem is held whole
SELECT pg_temp.empty_store();
SELECT count(kernelindex.ingest_document(jsonb_set(d, '{metadata,labels,label}', '"another"')))
FROM (SELECT DISTINCT bundle -> 'workload' AS d FROM whole) x;
SELECT kernelindex.ingest_bundles(array_agg(bundle)) AS stored FROM whole;
SELECT * FROM pg_temp.forms;
SELECT count(*) FILTER (WHERE b.bundle #>> '{workload,metadata,labels,label}' = 'another') AS stored_label_kept
FROM kernelindex.run_bundles b;

-- A stored workload's label never changes (its runs' externalIds are made
-- of it); the rest of its metadata may.
SELECT pg_temp.empty_store();
SELECT kernelindex.ingest_bundles(array_agg(bundle)) AS stored FROM whole;
\set VERBOSITY default
UPDATE kernelindex.workloads SET document = jsonb_set(document, '{metadata,labels,label}', '"renamed"')
WHERE id = (SELECT min(id) FROM kernelindex.workloads);
UPDATE kernelindex.workloads SET document = document #- '{metadata,labels,label}'
WHERE id = (SELECT min(id) FROM kernelindex.workloads);
\set VERBOSITY terse
UPDATE kernelindex.workloads SET document = jsonb_set(document, '{metadata,title}', '"a new title"')
WHERE id = (SELECT min(id) FROM kernelindex.workloads);
SELECT * FROM pg_temp.forms;

-- external_id_of: every form, the parts each needs, a form that is not one.
SELECT f, kernelindex_internal.external_id_of(f, 'k/forward', 'liger/gpu', 'n8', '2025-04-28 00:38:25.5+00')
FROM unnest(ARRAY['absent', 'literal', 'stem', 'labelled']) f;
SELECT kernelindex_internal.external_id_of('labelled', NULL, 'liger/gpu', 'n8', now()) IS NULL AS no_benchmark,
	kernelindex_internal.external_id_of('labelled', 'k', 'liger/gpu', NULL, now()) IS NULL AS no_label,
	kernelindex_internal.external_id_of('stem', NULL, NULL, NULL, now()) IS NULL AS no_stem;
\set VERBOSITY default
SELECT kernelindex_internal.external_id_of('derived', 'k', 's', 'l', now());
\set VERBOSITY terse

-- A run stored already, ingested again with other metadata (another
-- release label): nothing is stored, its stored labels stay, and a NOTICE
-- says so, from ingest_document and ingest_bundles (of each call) as from a
-- COPY (of the statement).
SET client_min_messages = notice;
SELECT kernelindex.ingest_document(jsonb_set(bundle, '{run,metadata,labels}', '{"liger_version": "9.9"}')) = digest::kidx_digest AS same_run
FROM whole ORDER BY digest LIMIT 1;
SELECT kernelindex.ingest_bundles(array_agg(jsonb_set(bundle, '{run,metadata,labels}', '{"liger_version": "9.9"}'))) AS stored
FROM (SELECT bundle FROM whole ORDER BY digest LIMIT 3) x;
SET client_min_messages = warning;
SELECT count(*) FILTER (WHERE release = '9.9') AS relabelled, count(*) AS runs FROM kernelindex.run_facts;

-- Leave the store empty for the suites that follow.
TRUNCATE kernelindex.runs, kernelindex.comparability_keys, kernelindex.protocols,
	kernelindex.environments, kernelindex.workloads, kernelindex.implementations, kernelindex.run_titles,
	kernelindex.run_statuses, kernelindex.run_sources, kernelindex.run_benchmarks, kernelindex.run_strings,
	kernelindex.run_labels, kernelindex.run_templates;

-- run_document and run_bundle keep their look-ups' plans for the session:
-- in a session that drops and creates the extension again (a new
-- kidx_digest type, new tables), they read the new store, and they give
-- what run_bundles gives for every run, NULL for a digest not stored.
SELECT current_database() AS regress_db \gset
CREATE DATABASE kidx_documents_kept TEMPLATE template0;
\c kidx_documents_kept
SET client_min_messages = warning;
CREATE EXTENSION kernelindex;
\copy kernelindex.liger_rows FROM 'test/data/liger_sample.csv' WITH (FORMAT csv, HEADER MATCH)
SELECT count(kernelindex.run_document(digest)) AS documents FROM kernelindex.runs;
DROP EXTENSION kernelindex;
CREATE EXTENSION kernelindex;
\copy kernelindex.liger_rows FROM 'test/data/liger_sample.csv' WITH (FORMAT csv, HEADER MATCH)
SELECT count(*) AS runs,
	count(*) FILTER (WHERE kernelindex.run_document(b.digest::kidx_digest)::text = b.document::text) AS same_document,
	count(*) FILTER (WHERE kernelindex.run_bundle(b.digest::kidx_digest)::text = b.bundle::text) AS same_bundle
FROM kernelindex.run_bundles b;
SELECT kernelindex.run_document(('sha256:' || repeat('0', 64))::kidx_digest) IS NULL AS unknown_is_null,
	kernelindex.run_bundle(NULL) IS NULL AS null_is_null;
\c :regress_db
DROP DATABASE kidx_documents_kept;
