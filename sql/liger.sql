-- Liger-Kernel CSV ingestion (doc/reference.md, "Liger-Kernel ingestion").
-- Paths are relative to the repository root, where make runs psql.
\set SHOW_CONTEXT never

-- A sample of 30 upstream rows: 4 kernels, 4 GPUs, 3 passes, speed and memory;
-- a third of them first, so that the whole file is a statement with runs
-- of stored and of new comparability keys.
CREATE TEMP TABLE sample (LIKE kernelindex.liger_rows);
\copy sample FROM 'test/data/liger_sample.csv' WITH (FORMAT csv, HEADER MATCH)
INSERT INTO kernelindex.liger_rows SELECT * FROM sample LIMIT 10;
SELECT count(*) AS runs FROM kernelindex.runs;
\copy kernelindex.liger_rows FROM 'test/data/liger_sample.csv' WITH (FORMAT csv, HEADER MATCH)
SELECT count(*) AS runs, count(*) FILTER (WHERE latency_ns IS NOT NULL) AS speed,
	count(*) FILTER (WHERE peak_bytes IS NOT NULL) AS memory FROM kernelindex.runs;
SELECT count(*) AS staged_left FROM kernelindex.liger_rows;
SELECT (SELECT count(*) FROM kernelindex.protocols) AS protocols,
	(SELECT count(*) FROM kernelindex.environments) AS environments,
	(SELECT count(*) FROM kernelindex.workloads) AS workloads,
	(SELECT count(*) FROM kernelindex.implementations) AS implementations;

-- The two reference records (test/data holds their upstream rows).
\set ref1 `cat test/data/records/sparsemax-backward-torch-rtx3090.json`
\set ref2 `cat test/data/records/grpo-sequence-forward-torch-a100.json`
WITH ref(name, doc) AS (VALUES ('sparsemax', :'ref1'::jsonb), ('grpo', :'ref2'::jsonb))
SELECT ref.name,
	(SELECT kernelindex.run_document(f.run_digest::kidx_digest) #- '{run,spec,workloadDigest}' #- '{run,spec,implementationDigest}'
	  = ref.doc #- '{run,spec,workloadDigest}' #- '{run,spec,implementationDigest}'
	 FROM kernelindex.run_facts f
	 WHERE f.external_id = ref.doc #>> '{run,spec,sourceNative,externalId}') IS TRUE AS equal
FROM ref
ORDER BY 1;

-- The same record, in full.
SELECT jsonb_pretty(kernelindex.run_document(run_digest::kidx_digest) -> 'run')
FROM kernelindex.run_facts
WHERE external_id = 'sparsemax/backward/torch/nvidia-geforce-rtx-3090/features16384-tokens2048-fp32/2025-04-28-00-38-25';

-- A memory row: bytes, its own protocol.
SELECT jsonb_pretty(kernelindex.run_document(run_digest::kidx_digest))
FROM kernelindex.run_facts
WHERE external_id = 'sparsemax/full/memory/liger/nvidia-geforce-rtx-3090/features16384-tokens2048-fp32/2025-04-28-00-38-25';

-- Protocols of every pass.
SELECT document #>> '{metadata,name}' AS name, document #>> '{metadata,title}' AS title,
	document #>> '{spec,comparability,notes}' AS notes
FROM kernelindex.protocols ORDER BY 1;

-- Workload and implementation documents.
SELECT document #>> '{metadata,title}' AS title, document -> 'spec' AS spec
FROM kernelindex.workloads ORDER BY 1;
SELECT document #>> '{metadata,title}' AS title, document -> 'spec' AS spec
FROM kernelindex.implementations ORDER BY 1;

-- Loading again changes nothing, and takes no id from any sequence.
CREATE TEMP TABLE ids_before AS
SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'kernelindex';
\copy kernelindex.liger_rows FROM 'test/data/liger_sample.csv' WITH (FORMAT csv, HEADER MATCH)
SELECT count(*) AS runs FROM kernelindex.runs;
SELECT count(*) AS sequences, count(*) FILTER (WHERE a.last_value IS DISTINCT FROM b.last_value) AS advanced
FROM ids_before b JOIN pg_sequences a ON a.schemaname = 'kernelindex' AND a.sequencename = b.sequencename;

-- Bad rows, strict (the default): the COPY fails and nothing is stored.
\copy kernelindex.liger_rows FROM 'test/data/liger_bad_rows.csv' WITH (FORMAT csv, HEADER MATCH)
SELECT count(*) AS runs FROM kernelindex.runs;
SELECT count(*) AS rejected FROM kernelindex.rejected_rows;

-- Each kind of fault, one at a time (the file minus the rows before it).
CREATE TEMP TABLE bad_rows (LIKE kernelindex.liger_rows);
\copy bad_rows FROM 'test/data/liger_bad_rows.csv' WITH (FORMAT csv, HEADER MATCH)
DO $$
DECLARE
	r record;
	msg text;
	det text;
BEGIN
	FOR r IN SELECT b FROM bad_rows b LOOP
		BEGIN
			INSERT INTO kernelindex.liger_rows SELECT (r.b).*;
			RAISE NOTICE 'stored: %', (r.b)."timestamp";
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
			RAISE NOTICE '% [%] %', SQLSTATE, msg, det;
		END;
	END LOOP;
END
$$;
SELECT count(*) AS runs FROM kernelindex.runs;

-- Quarantine: the good rows land, each bad row is kept verbatim with its reason.
DELETE FROM kernelindex.runs WHERE observed_at >= '2025-09-01' AND observed_at < '2025-09-02';
SET kernelindex.on_bad_row = 'quarantine';
\copy kernelindex.liger_rows FROM 'test/data/liger_bad_rows.csv' WITH (FORMAT csv, HEADER MATCH)
SELECT count(*) AS runs FROM kernelindex.runs;
SELECT row_number, column_name, bad_value, sqlstate, reason, gpu_name, "timestamp"
FROM kernelindex.rejected_rows ORDER BY row_number;
SELECT count(*) AS staged_left FROM kernelindex.liger_rows;
RESET kernelindex.on_bad_row;
-- Each kept row's sqlstate is the SQLSTATE the row fails with when strict.
DO $$
DECLARE
	r record;
	got text;
BEGIN
	FOR r IN SELECT * FROM kernelindex.rejected_rows WHERE source = 'liger' ORDER BY row_number LOOP
		got := NULL;
		BEGIN
			INSERT INTO kernelindex.liger_rows VALUES (r.kernel_name, r.kernel_provider,
				r.kernel_operation_mode, r.metric_name, r.metric_unit, r.x_name, r.x_label, r.x_value,
				r.y_value_50, r.y_value_20, r.y_value_80, r.extra_benchmark_config_str, r.gpu_name,
				r."timestamp", r.liger_version);
		EXCEPTION WHEN OTHERS THEN
			got := SQLSTATE;
		END;
		IF got IS DISTINCT FROM r.sqlstate THEN
			RAISE NOTICE 'row %: kept with SQLSTATE %, fails with %', r.row_number, r.sqlstate, got;
		END IF;
	END LOOP;
END
$$;
-- liger_row_fault() says the same of each: {column, value, reason, sqlstate}
-- (what the upgrade from 0.1.0 fills in the sqlstate of rows kept before with).
SELECT count(*) AS kept, count(*) FILTER (WHERE kernelindex.liger_row_fault(ROW(r.kernel_name,
	r.kernel_provider, r.kernel_operation_mode, r.metric_name, r.metric_unit, r.x_name, r.x_label,
	r.x_value, r.y_value_50, r.y_value_20, r.y_value_80, r.extra_benchmark_config_str, r.gpu_name,
	r."timestamp", r.liger_version)::kernelindex.liger_rows)
	IS DISTINCT FROM ARRAY[r.column_name, COALESCE(r.bad_value, ''), r.reason, r.sqlstate]) AS said_otherwise
FROM kernelindex.rejected_rows r WHERE r.source = 'liger';

-- Unknown GPU, kernel, provider and pass: not an error.
INSERT INTO kernelindex.liger_rows VALUES
('mystery_op', 'acme', 'warmup', 'speed', 'ms', 'N', 'size', '7', '1.5', '1.25', '1.75',
 '{"mode": "a/b", "flag": true, "n": null, "s": "4096"}', 'Acme Accelerator X1', '2025-10-01 08:00:00.25', NULL);
SELECT external_id, kernel_title, provider_title, pass, gpu, gpu_vendor, environment_title, release
FROM kernelindex.run_facts WHERE kernel = 'mystery_op';
SELECT document -> 'spec' FROM kernelindex.environments WHERE document #>> '{spec,hardware,product}' = 'Acme Accelerator X1';
SELECT document #>> '{spec,comparability,notes}' FROM kernelindex.protocols WHERE document #>> '{metadata,name}' = 'liger-bench-do-bench-warmup';

-- Catalogs grow with plain INSERTs.
INSERT INTO kernelindex.gpus (name, vendor, product, form_factor, architecture)
VALUES ('Acme Accelerator X2', 'acme', 'Acme X2', 'OAM', 'acme_2');
INSERT INTO kernelindex.kernels (name, title, label_template, label_x_name, label_defaults)
VALUES ('mystery_op', 'Mystery op', 'n{N}-{mode}', 'N', '{}');
INSERT INTO kernelindex.liger_rows VALUES
('mystery_op', 'acme', 'forward', 'speed', 'ms', 'N', 'size', '8', '1.5', '1.25', '1.75',
 '{"mode": "fast", "flag": true}', 'Acme Accelerator X2', '2025-10-01 08:00:01', '1.0');
SELECT external_id, kernel_title, gpu, gpu_form_factor, gpu_architecture, workload_label, release
FROM kernelindex.run_facts WHERE kernel = 'mystery_op' ORDER BY 1;

-- Labels tell every workload apart, also where a template is lossy.
SELECT kernelindex.liger_workload_label('sparsemax', 'V', '16384', '{"B": 4, "T": 512, "dim": -1, "dtype": "torch.float32"}') AS ref,
	kernelindex.liger_workload_label('sparsemax', 'V', '16384', '{"B": 8, "T": 256, "dim": -1, "dtype": "torch.float32"}') AS other_bt,
	kernelindex.liger_workload_label('sparsemax', 'V', '16384', '{"B": 4, "T": 512, "dim": 0, "dtype": "torch.float32"}') AS other_dim,
	kernelindex.liger_workload_label('sparsemax', 'V', '16384', '{"B": 4, "T": 512, "dtype": "torch.float32"}') AS no_dim;
SELECT kernelindex.liger_workload_label('rope', 'T', '1', '{"a": "1"}') AS string_one,
	kernelindex.liger_workload_label('rope', 'T', '1', '{"a": 1}') AS number_one,
	kernelindex.liger_workload_label('rope', 'T', '1', '{"a": "x,b=2"}') AS tricky;

-- The speedup view.
SELECT kernel, pass, metric, gpu, workload_label, provider, reference_latency_ms, latency_ms,
	round(speedup::numeric, 3) AS speedup, round(memory_ratio::numeric, 3) AS memory_ratio, outside_noise
FROM kernelindex.speedups ORDER BY kernel, pass, metric;

-- A hostile search_path cannot take over the ingestion (two runs of one group).
CREATE SCHEMA evil;
CREATE FUNCTION evil.texteq(text, text) RETURNS boolean LANGUAGE plpgsql AS
$$BEGIN RAISE NOTICE 'evil = called'; RETURN $1 OPERATOR(pg_catalog.=) $2; END$$;
CREATE OPERATOR evil.= (LEFTARG = text, RIGHTARG = text, FUNCTION = evil.texteq);
SET search_path = evil, public, pg_catalog;
INSERT INTO kernelindex.liger_rows VALUES
('mystery_op', 'acme', 'forward', 'speed', 'ms', 'N', 'size', '8', '1.5', '1.25', '1.75',
 '{"mode": "fast", "flag": true}', 'Acme Accelerator X2', '2025-10-02 08:00:01', '1.0'),
('mystery_op', 'acme', 'forward', 'speed', 'ms', 'N', 'size', '8', '1.6', '1.25', '1.75',
 '{"mode": "fast", "flag": true}', 'Acme Accelerator X2', '2025-10-02 08:00:02', '1.0');
RESET search_path;
DROP SCHEMA evil CASCADE;
SELECT external_id, latency_ms FROM kernelindex.run_facts
WHERE kernel = 'mystery_op' AND observed_at >= '2025-10-02' ORDER BY 1;

-- Every run stored has its document's digest.
SELECT count(*) AS runs,
	count(*) FILTER (WHERE kidx_resource_digest(kernelindex.run_document(digest) -> 'run') <> digest) AS wrong
FROM kernelindex.runs;

-- Two rows of one group with the same timestamp but other values: one
-- externalId, two runs; the statement fails and stores nothing.
INSERT INTO kernelindex.liger_rows VALUES
('mystery_op', 'acme', 'forward', 'speed', 'ms', 'N', 'size', '8', '1.5', '1.25', '1.75',
 '{"mode": "fast", "flag": true}', 'Acme Accelerator X2', '2025-10-03 08:00:01', '1.0'),
('mystery_op', 'acme', 'forward', 'speed', 'ms', 'N', 'size', '8', '1.7', '1.25', '1.75',
 '{"mode": "fast", "flag": true}', 'Acme Accelerator X2', '2025-10-03 08:00:01', '1.0');
SELECT count(*) AS stored FROM kernelindex.runs
WHERE observed_at >= '2025-10-03 00:00+00' AND observed_at < '2025-10-04 00:00+00';

-- More rows than work_mem holds (the statement's rows are read back from
-- disk), every third one bad, in quarantine mode.
SET work_mem = '64kB';
SET kernelindex.on_bad_row = 'quarantine';
INSERT INTO kernelindex.liger_rows
SELECT 'mystery_op', 'acme', 'forward', CASE WHEN g % 3 = 0 THEN 'speeed' ELSE 'speed' END, 'ms', 'N', 'size',
	(g % 7)::text, (1 + g / 1000.0)::text, '1.25', '1.75',
	'{"mode": "slow", "pad": "' || repeat('x', 200) || '"}', 'Acme Accelerator X2',
	to_char(timestamp '2025-11-01' + g * interval '1 minute', 'YYYY-MM-DD HH24:MI:SS'), '1.0'
FROM generate_series(1, 900) AS g;
RESET kernelindex.on_bad_row;
RESET work_mem;
SELECT count(*) AS rejected, min(row_number), max(row_number), min(bad_value), max(bad_value)
FROM kernelindex.rejected_rows WHERE "timestamp" LIKE '2025-11-01 %';
SELECT count(*) AS runs, count(*) FILTER (WHERE kidx_resource_digest(kernelindex.run_document(digest) -> 'run') <> digest) AS wrong
FROM kernelindex.runs WHERE observed_at >= '2025-11-01 00:00+00' AND observed_at < '2025-11-02 00:00+00';

-- Every run's name and externalId derive from dictionary strings, the
-- workload's label and the observedAt: a few templates, one externalId
-- string per provider and GPU (what is left once the benchmark, the
-- workload's label and the observedAt are taken out), no observedAt left
-- in a template.
SELECT count(DISTINCT r.template_id) AS templates,
	count(DISTINCT (r.comparability_key, r.implementation_id)) AS series,
	count(DISTINCT r.external_id_id) AS external_id_strings,
	(SELECT count(DISTINCT (i.provider, k.environment_id))
	 FROM kernelindex.runs r2
	 JOIN kernelindex.implementations i ON i.id = r2.implementation_id
	 JOIN kernelindex.comparability_keys k ON k.key = r2.comparability_key) AS providers_and_gpus,
	count(*) FILTER (WHERE t.name_form = 'from_external_id') AS names_from_external_id,
	count(*) FILTER (WHERE t.external_id_form = 'labelled') AS external_ids_labelled,
	count(*) FILTER (WHERE t.value #> '{spec,observedAt}' IS NOT NULL) AS observed_at_in_template
FROM kernelindex.runs r JOIN kernelindex.run_templates t ON t.id = r.template_id;

-- The COPY target is a view, and always empty.
SELECT relkind, (SELECT count(*) FROM kernelindex.liger_rows) AS rows_left
FROM pg_class WHERE oid = 'kernelindex.liger_rows'::regclass;
