-- Any harness's results by COPY into kernelindex.run_rows (SPEC section 7a).
-- Paths are relative to the repository root, where make runs psql.  Errors
-- are shown with their CONTEXT: only COPY's own "COPY run_rows, line N" may
-- appear, never a query the extension runs inside.
\set VERBOSITY default
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SET client_min_messages = warning;
-- A store of its own: the suites before this one leave runs behind.
DROP EXTENSION kernelindex CASCADE;
CREATE EXTENSION kernelindex;
RESET client_min_messages;

-- A file naming 19 of the 24 columns, in an order of its own (HEADER MATCH
-- checks the names): two harness-neutral GPUs, every statistic column, a
-- GPU the catalog does not know (a NOTICE, stored as written).
\copy kernelindex.run_rows (kernel, implementation, harness, harness_version, timer, pass, workload, gpu, observed_at, release, unit, median, p20, p80, mean, stddev, min, max, samples) FROM 'test/data/run_rows_sample.csv' WITH (FORMAT csv, HEADER MATCH)
SELECT kernel, provider, pass, gpu, gpu_vendor, workload_label, release, primary_statistic,
	latency_ns, latency_ns_p20, latency_ns_p80, latency_ns_mean, latency_ns_stddev,
	latency_ns_min, latency_ns_max, latency_samples, latency_ns_primary, latency_ms_primary
FROM kernelindex.run_facts ORDER BY observed_at;
SELECT harness, run_title, protocol_title, environment_title, external_id
FROM kernelindex.run_facts ORDER BY observed_at;
SELECT document -> 'spec' AS spec FROM kernelindex.environments
WHERE document #>> '{spec,hardware,product}' = 'Acme Accelerator Z9';
SELECT document #>> '{metadata,name}' AS name, document -> 'spec' AS spec
FROM kernelindex.protocols ORDER BY 1;
SELECT kernel, pass, gpu, workload_label, provider, reference_provider,
	round(speedup::numeric, 4) AS speedup, outside_noise
FROM kernelindex.speedups ORDER BY kernel, workload_label, provider;
-- a run compared on its mean or min shows both sides' values of that
-- statistic in ms, their means, deviations and samples (Welch's inputs),
-- as speedups and release_runs name them (release_changes: below, where
-- a harness of means has two releases)
SELECT kernel, workload_label, provider, primary_statistic, reference_primary_statistic,
	latency_ms_primary, reference_latency_ms_primary, latency_ns_mean, reference_latency_ns_mean,
	latency_ns_stddev, reference_latency_ns_stddev, latency_samples, reference_latency_samples,
	latency_ns_min, latency_ns_max, round(p_value::numeric, 6) AS p_value
FROM kernelindex.speedups ORDER BY kernel, workload_label, provider;
SELECT kernel, workload_label, provider, release, primary_statistic, reference_primary_statistic,
	latency_ns_primary, latency_ms_primary, reference_latency_ns_primary, reference_latency_ms_primary,
	round(ratio::numeric, 4) AS ratio
FROM kernelindex.release_runs ORDER BY kernel, workload_label, provider, release_rank;
SELECT kernel, workload_label, provider, old_release, new_release, old_primary_statistic, primary_statistic,
	old_latency_ms_primary, new_latency_ms_primary, round(ratio::numeric, 4) AS ratio
FROM kernelindex.release_changes ORDER BY kernel, workload_label, provider, new_release_rank;

-- The same file again: nothing is added, no id is taken from a sequence,
-- and a NOTICE counts the runs stored already.
CREATE TEMP TABLE ids_before AS
SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'kernelindex';
CREATE TEMP TABLE counts_before AS
SELECT (SELECT count(*) FROM kernelindex.runs) AS runs,
	(SELECT count(*) FROM kernelindex.environments) AS environments,
	(SELECT count(*) FROM kernelindex.workloads) AS workloads;
\copy kernelindex.run_rows (kernel, implementation, harness, harness_version, timer, pass, workload, gpu, observed_at, release, unit, median, p20, p80, mean, stddev, min, max, samples) FROM 'test/data/run_rows_sample.csv' WITH (FORMAT csv, HEADER MATCH)
SELECT (SELECT count(*) FROM kernelindex.runs) - runs AS new_runs,
	(SELECT count(*) FROM kernelindex.environments) - environments AS new_environments,
	(SELECT count(*) FROM kernelindex.workloads) - workloads AS new_workloads
FROM counts_before;
SELECT count(*) AS sequences, count(*) FILTER (WHERE a.last_value IS DISTINCT FROM b.last_value) AS advanced
FROM ids_before b JOIN pg_sequences a ON a.schemaname = 'kernelindex' AND a.sequencename = b.sequencename;
-- The file's runs with another release label: the same runs, kept as they were.
UPDATE pg_temp.counts_before SET runs = (SELECT count(*) FROM kernelindex.runs);
INSERT INTO kernelindex.run_rows (harness, harness_version, timer, kernel, pass, implementation, workload, gpu, observed_at, release, unit, median, p20, p80, mean, stddev, min, max, samples)
VALUES ('tinybench', '0.3', 'cuda_events', 'matmul', 'forward', 'torch', '{"M": 4096, "dtype": "bf16"}',
	'NVIDIA A100-SXM4-80GB', '2026-03-01T10:00:00Z', '2.0', 'ms', '0.75', '0.74', '0.76', '0.751', '0.004', '0.731', '0.802', '100');
SELECT (SELECT count(*) FROM kernelindex.runs) - runs AS new_runs,
	(SELECT release FROM kernelindex.run_facts WHERE observed_at = '2026-03-01 10:00:00') AS release
FROM counts_before;

-- A COPY of the minimal columns, inline.
COPY kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, unit, min) FROM STDIN WITH (FORMAT csv, HEADER MATCH);
harness,kernel,implementation,gpu,observed_at,unit,min
tinybench,gelu,torch,NVIDIA H100 80GB HBM3,2026-03-02T00:00:00Z,us,12.5
tinybench,gelu,triton,NVIDIA H100 80GB HBM3,2026-03-02T00:00:01Z,us,10
\.
SELECT kernel, provider, gpu, pass, workload_label, primary_statistic, latency_ns_min, latency_ns_primary, status
FROM kernelindex.run_facts WHERE kernel = 'gelu' ORDER BY observed_at;

-- Every unit, converted exactly to whole ns or bytes, rounded half away
-- from zero (2.5 ns is 3 ns, not 2).
INSERT INTO kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, metric, unit, median, p20, p80)
VALUES
('units', 'lat_s', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-01T00:00:00Z', NULL, 's', '0.0000000025', '1.5e-9', '2'),
('units', 'lat_ms', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-01T00:00:00Z', 'latency', 'ms', '0.0000025', '2.628607988357544', '94.83366394042969'),
('units', 'lat_us', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-01T00:00:00Z', '', 'us', '0.0005', '0.0004999', '1E+3'),
('units', 'lat_ns', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-01T00:00:00Z', 'latency', 'ns', '2.5', '3.5', '9007199254740992'),
('units', 'mem_B', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-01T00:00:00Z', 'peak_memory', 'B', '0.5', '1.49', '9000000000000000000'),
('units', 'mem_KiB', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-01T00:00:00Z', 'peak_memory', 'KiB', '1.5', '0.00048828125', '0.0004882812'),
('units', 'mem_MiB', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-01T00:00:00Z', 'peak_memory', 'MiB', '3', '0.000000476837158203125', '8589934592'),
('units', 'mem_GiB', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-01T00:00:00Z', 'peak_memory', 'GiB', '1', '0.5', '2.5e-9'),
('units', 'mem_KB', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-01T00:00:00Z', 'peak_memory', 'KB', '0.0015', '0.0025', '1'),
('units', 'mem_MB', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-01T00:00:00Z', 'peak_memory', 'MB', '1.25', '0.0000005', '0.0000004999'),
('units', 'mem_GB', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-01T00:00:00Z', 'peak_memory', 'GB', '8', '0.0000000005', '10.7346248626708984375000001');
SELECT kernel, metric, latency_ns, latency_ns_p20, latency_ns_p80, peak_bytes, peak_bytes_p20, peak_bytes_p80
FROM kernelindex.run_facts WHERE harness = 'units' ORDER BY kernel;

-- The primary statistic: named, else the median, else the mean, else the min.
INSERT INTO kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, unit, primary_statistic, median, mean, min)
VALUES
('primary', 'p1', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-02T00:00:00Z', 'ns', NULL, '30', '20', '10'),
('primary', 'p2', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-02T00:00:00Z', 'ns', ' ', NULL, '20', '10'),
('primary', 'p3', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-02T00:00:00Z', 'ns', NULL, NULL, NULL, '10'),
('primary', 'p4', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-02T00:00:00Z', 'ns', 'min', '30', '20', '10'),
('primary', 'p5', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-02T00:00:00Z', 'ns', ' mean ', '30', '20', '10');
SELECT kernel, primary_statistic, latency_ns_primary FROM kernelindex.run_facts
WHERE harness = 'primary' ORDER BY kernel;

-- Labels, release and harness_version; status; a workload's label made
-- from its parameters, or given.
INSERT INTO kernelindex.run_rows (harness, harness_version, kernel, implementation, gpu, observed_at, unit, median, labels, release, status, workload, workload_label)
VALUES
('labelled', '2.1', 'k', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-03T00:00:00Z', 'ns', '5',
 '{"branch": "main", "release": "0.9"}', '0.9', 'failed', '{"N": 1024, "dtype": "fp16", "causal": true, "shape": [2, 3]}', NULL),
('labelled', NULL, 'k', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-04-03T00:00:01Z', 'ns', '6',
 '{}', NULL, NULL, '{"N": 2048}', 'N=2k');
SELECT observed_at, status, release, workload_label, kernelindex.run_document(run_digest::kidx_digest) #> '{run,metadata,labels}' AS labels
FROM kernelindex.run_facts WHERE harness = 'labelled' ORDER BY observed_at;
SELECT document #> '{spec,parameters}' AS parameters FROM kernelindex.workloads
WHERE document #>> '{spec,kernel}' = 'k' ORDER BY 1;

-- Every run stored has its document's digest.
SELECT count(*) AS runs,
	count(*) FILTER (WHERE kidx_resource_digest(kernelindex.run_document(digest) -> 'run') <> digest) AS wrong
FROM kernelindex.runs;

-- Bad rows, strict (the default): the statement fails, nothing is stored;
-- the error names the value, the column, the row and the fault; COPY's
-- CONTEXT names the line.
UPDATE pg_temp.counts_before SET runs = (SELECT count(*) FROM kernelindex.runs);
COPY kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, unit, median) FROM STDIN WITH (FORMAT csv, HEADER MATCH);
harness,kernel,implementation,gpu,observed_at,unit,median
strict,k,torch,NVIDIA A100-SXM4-80GB,2026-05-01T00:00:00Z,ms,1.5
strict,k,torch,NVIDIA A100-SXM4-80GB,2026-05-01T00:00:01Z,ms,-1.5
strict,k,torch,NVIDIA A100-SXM4-80GB,2026-05-01T00:00:02Z,ms,1.5
\.
INSERT INTO kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, unit, median)
VALUES ('strict', 'k', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-05-01T00:00:00Z', 'ms', '1.5'),
	('strict', 'k', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-05-01T00:00:01Z', 'minutes', '1.5');
INSERT INTO kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, unit)
VALUES ('strict', 'k', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-05-01T00:00:00Z', 'ms');
INSERT INTO kernelindex.run_rows (harness, kernel, implementation, gpu, unit, median)
VALUES ('strict', 'k', 'torch', 'NVIDIA A100-SXM4-80GB', 'ms', '1');
SELECT (SELECT count(*) FROM kernelindex.runs) - runs AS new_runs FROM counts_before;
SELECT count(*) AS rejected FROM kernelindex.rejected_rows;

-- Each fault, one at a time: a good row with one column changed (NULL: the
-- column not given).  SQLSTATE, message, detail, hint.
CREATE TEMP TABLE faults (n serial, col text, val text);
INSERT INTO faults (col, val) VALUES
-- required columns: not given, empty, blank
('harness', NULL), ('harness', ''), ('kernel', '  '), ('implementation', NULL), ('gpu', ''),
('observed_at', NULL), ('unit', NULL), ('median', NULL),
-- units and metrics
('unit', 'sec'), ('unit', 'MS'), ('unit', 'Mib'), ('unit', 'MiB'), ('unit', 'bytes'),
('metric', 'peak_memory'), ('metric', 'throughput'), ('metric', 'Latency'), ('metric', 'memory'),
-- statistics
('median', '-1'), ('median', '-1e-9'), ('median', 'fast'), ('median', 'NaN'), ('median', 'nan'),
('median', 'Infinity'), ('median', '-Infinity'), ('median', 'inf'), ('median', '1e400'),
('median', '9300000000000'), ('median', '9007199254.740993'), ('median', '9223372036854.775807'),
('max', '9007199254.740993'), ('median', '1,5'), ('median', '0x10'), ('median', '1.5ms'),
('median', '+1'), ('median', '.5'), ('median', '1.'), ('median', '00.5'), ('median', '1e'),
('median', '1 000'), ('p20', 'x'), ('p80', '-0.5'), ('mean', 'Infinity'), ('stddev', '-1'),
('min', 'NaN'), ('max', '1e400'),
-- samples
('samples', '1.5'), ('samples', '1e3'), ('samples', '100.0'), ('samples', '-1'), ('samples', 'x'),
('samples', '99999999999999999999'), ('samples', '9223372036854775807'), ('samples', 'NaN'),
-- workload
('workload', '[1]'), ('workload', '"M=4096"'), ('workload', '{"M": 4096'), ('workload', 'null'),
('workload', '4096'), ('workload', '{''M'': 4096}'), ('workload', '{"M": NaN}'),
('workload', '{"M": 1, "M": 2}'), ('workload', '{"o": {"k": 1, "\u006b": 2}, "k": 3}'),
('workload', '{"M": 9007199254740993}'),
-- labels
('labels', '{"branch": 1}'), ('labels', '[]'), ('labels', '{"a": {"b": "c"}}'),
('labels', '{"a": null}'), ('labels', '{"a": true}'), ('labels', '"main"'), ('labels', '{"release": "2.0"}'),
('labels', '{"harness_version": "9"}'), ('labels', '{"a": "x", "a": "y"}'),
-- times
('observed_at', 'yesterday'), ('observed_at', 'now'), ('observed_at', '2026-02-30T00:00:00Z'),
('observed_at', '2026-13-01T00:00:00Z'), ('observed_at', '0000-01-01T00:00:00Z'),
('observed_at', '2016-12-31T23:59:60Z'), ('observed_at', '2026-01-01T24:00:00Z'),
('observed_at', '2026-01-01T00:00:00+24:00'), ('observed_at', '2026-01-01 24:00:00'),
('observed_at', '2026-01-01'), ('observed_at', '1767225600'), ('observed_at', 'infinity'),
('observed_at', '2026-01-01 00:00:00 PST'), ('observed_at', '4714-11-24 00:00:00 BC'),
('observed_at', '294277-01-01T00:00:00Z'), ('observed_at', '10000-01-01 00:00:00'),
-- the primary statistic
('primary_statistic', 'mean'), ('primary_statistic', 'min'), ('primary_statistic', 'p20'),
('primary_statistic', 'max'), ('primary_statistic', 'Median'), ('primary_statistic', 'average');
DO $$
DECLARE
	r record;
	msg text;
	det text;
	hnt text;
	base jsonb := '{"harness": "faults", "kernel": "k", "implementation": "torch", "gpu": "NVIDIA A100-SXM4-80GB",
		"observed_at": "2026-06-01T00:00:00Z", "unit": "ms", "median": "1.5", "release": "1.0",
		"harness_version": "3"}';
BEGIN
	FOR r IN SELECT * FROM faults ORDER BY n LOOP
		BEGIN
			INSERT INTO kernelindex.run_rows
			SELECT * FROM jsonb_populate_record(NULL::kernelindex.run_rows,
				CASE WHEN r.val IS NULL THEN base - r.col ELSE base || jsonb_build_object(r.col, r.val) END);
			RAISE NOTICE '% = %: stored', r.col, r.val;
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL, hnt = PG_EXCEPTION_HINT;
			RAISE NOTICE E'% = %: %\n  %\n  detail: %\n  hint: %', r.col, coalesce(r.val, 'NULL'), SQLSTATE, msg, det, hnt;
		END;
	END LOOP;
END
$$;
SELECT (SELECT count(*) FROM kernelindex.runs) - runs AS new_runs FROM counts_before;

-- Near misses: values beside a fault that are good.
INSERT INTO kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, unit, median, samples, workload, labels)
VALUES
('near', 'k', 'torch', 'NVIDIA A100-SXM4-80GB', ' 2026-06-02T00:00:00Z ', ' ms ', ' 1.5 ', ' 7 ', ' {"M": 1} ', ' {"a": "b"} '),
('near', 'k', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-06-02T00:00:01.123456+05:30', 'ms', '-0.0', '0', '{"o": {"M": 1}, "M": 2}', '{}'),
('near', 'k', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-06-02 00:00:02', 'ms', '0', '-0', NULL, NULL),
('near', 'k', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-06-02 00:00:03.5-01', 'ms', '1e-400', NULL, '{}', NULL),
('near', 'k', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-06-02t00:00:04z', 'ms', '1E+2', NULL, NULL, NULL),
('near', 'k', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-06-02T00:00:05Z', 'ms', '9007199254.740992', '9007199254740992', NULL, NULL),
('near', 'k', 'torch', 'NVIDIA A100-SXM4-80GB', '2026-06-02T00:00:06Z', 'ms', '9000000000000', NULL, NULL, NULL);
SELECT observed_at, latency_ns, latency_samples, workload_label FROM kernelindex.run_facts
WHERE harness = 'near' ORDER BY observed_at;

-- Quarantine: the good rows land, each bad row is kept verbatim (the
-- columns given, in rejected_rows.fields) with its column, value and reason.
UPDATE pg_temp.counts_before SET runs = (SELECT count(*) FROM kernelindex.runs);
SET kernelindex.on_bad_row = 'quarantine';
COPY kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, unit, median, workload, samples) FROM STDIN WITH (FORMAT csv, HEADER MATCH);
harness,kernel,implementation,gpu,observed_at,unit,median,workload,samples
quarantine,k,torch,NVIDIA A100-SXM4-80GB,2026-07-01T00:00:00Z,ms,1.5,{},10
quarantine,k,torch,NVIDIA A100-SXM4-80GB,2026-07-01T00:00:01Z,ms,NaN,{},10
quarantine,k,torch,NVIDIA A100-SXM4-80GB,2026-07-01T00:00:02Z,ms,1.5,[1],10
quarantine,,torch,NVIDIA A100-SXM4-80GB,2026-07-01T00:00:03Z,ms,1.5,{},10
quarantine,k,torch,NVIDIA A100-SXM4-80GB,2026-07-01T00:00:04Z,ms,1.5,{},10.5
quarantine,k,torch,NVIDIA A100-SXM4-80GB,2026-07-01T00:00:05Z,ms,1.5,{},10
quarantine,k,torch,NVIDIA A100-SXM4-80GB,yesterday,ms,1.5,{},10
\.
SELECT (SELECT count(*) FROM kernelindex.runs) - runs AS new_runs FROM counts_before;
SELECT source, row_number, column_name, bad_value, sqlstate, reason, fields
FROM kernelindex.rejected_rows ORDER BY id;
SELECT count(*) FILTER (WHERE kernel_name IS NOT NULL OR gpu_name IS NOT NULL) AS liger_columns_filled
FROM kernelindex.rejected_rows WHERE source = 'run_rows';
RESET kernelindex.on_bad_row;
-- Each kept row's sqlstate is the SQLSTATE the row fails with when strict.
DO $$
DECLARE
	r record;
	got text;
BEGIN
	FOR r IN SELECT * FROM kernelindex.rejected_rows WHERE source = 'run_rows' ORDER BY id LOOP
		got := NULL;
		BEGIN
			INSERT INTO kernelindex.run_rows
			SELECT * FROM pg_catalog.jsonb_populate_record(NULL::kernelindex.run_rows, r.fields);
		EXCEPTION WHEN OTHERS THEN
			got := SQLSTATE;
		END;
		IF got IS DISTINCT FROM r.sqlstate THEN
			RAISE NOTICE 'row %: kept with SQLSTATE %, fails with %', r.row_number, r.sqlstate, got;
		END IF;
	END LOOP;
END
$$;
-- There is no third mode.
SET kernelindex.on_bad_row = 'skip';

-- Unknown GPUs: one NOTICE per name and statement; stored as written.
INSERT INTO kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, unit, median)
VALUES ('gpus', 'k', 'torch', 'Acme Accelerator Z10', '2026-08-01T00:00:00Z', 'ms', '1'),
	('gpus', 'k', 'torch', 'Acme Accelerator Z10', '2026-08-01T00:00:01Z', 'ms', '1'),
	('gpus', 'k', 'torch', 'Acme Accelerator Z11', '2026-08-01T00:00:00Z', 'ms', '1');
SELECT gpu, gpu_vendor, environment_title, count(*) FROM kernelindex.run_facts
WHERE harness = 'gpus' GROUP BY 1, 2, 3 ORDER BY 1;
-- Long values are shown cut (200 bytes and "..."), in a NOTICE as in an
-- error's message and detail; they are stored whole.
INSERT INTO kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, unit, median)
VALUES ('gpus', 'k', 'torch', 'Acme ' || repeat('x', 300), '2026-08-01T00:00:00Z', 'ms', '1');
SELECT length(gpu) FROM kernelindex.run_facts WHERE harness = 'gpus' AND gpu LIKE 'Acme x%';
-- A name the catalog does not know that starts with its vendor's word:
-- stored with that vendor, and the NOTICE says so.
INSERT INTO kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, unit, median)
VALUES ('gpus', 'k', 'torch', 'NVIDIA H300 NVL', '2026-08-01T00:00:00Z', 'ms', '1'),
	('gpus', 'k', 'torch', 'AMD Instinct MI400X', '2026-08-01T00:00:00Z', 'ms', '1');
SELECT gpu, gpu_vendor, gpu_form_factor, environment_title FROM kernelindex.run_facts
WHERE harness = 'gpus' AND gpu IN ('NVIDIA H300 NVL', 'AMD Instinct MI400X') ORDER BY 1;
INSERT INTO kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, unit, median)
VALUES ('gpus', repeat('k', 300), 'torch', 'Acme Accelerator Z10', '2026-08-01T00:00:00Z', 'ms', repeat('9', 250) || 'x');

-- The COPY target is a view, and always empty.
SELECT relkind, (SELECT count(*) FROM kernelindex.run_rows) AS rows_left
FROM pg_class WHERE oid = 'kernelindex.run_rows'::regclass;

-- README's tour of another harness, exactly as README shows it (its CSV,
-- its COPY, its three queries), in a database of its own.
SELECT current_database() AS regress_db \gset
CREATE DATABASE kidx_readme_tour TEMPLATE template0;
\c kidx_readme_tour
SET client_min_messages = warning;
CREATE EXTENSION kernelindex;
RESET client_min_messages;
\copy kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, release, unit, median, p20, p80) FROM STDIN WITH (FORMAT csv, HEADER MATCH)
harness,kernel,implementation,gpu,observed_at,release,unit,median,p20,p80
mybench,softmax,torch,NVIDIA H100 80GB HBM3,2026-11-30 10:00:00,1.0,ms,0.412,0.405,0.420
mybench,softmax,triton,NVIDIA H100 80GB HBM3,2026-11-30 10:00:05,1.0,ms,0.231,0.228,0.236
mybench,softmax,torch,NVIDIA H100 80GB HBM3,2026-12-01 10:00:00,1.1,ms,0.410,0.404,0.418
mybench,softmax,triton,NVIDIA H100 80GB HBM3,2026-12-01 10:00:05,1.1,ms,0.198,0.195,0.202
\.
SELECT release, kernel, gpu, provider, round(geomean_speedup::numeric, 2) AS geomean_speedup,
       workloads, faster_outside_noise
FROM kernelindex.release_speedups WHERE kernel = 'softmax' ORDER BY release_rank;
SELECT kernel, provider, since_release, latest_release,
       round(latest_speedup::numeric, 2) AS latest_speedup, still_faster
FROM kernelindex.speedup_since WHERE kernel = 'softmax';
SELECT old_release, new_release, provider, old_latency_ms, new_latency_ms,
       round(ratio::numeric, 3) AS ratio, outside_noise
FROM kernelindex.release_changes WHERE kernel = 'softmax' ORDER BY regression_rank;
-- A harness that reports means for its latency and minima for its peak
-- memory, in two releases: the views show both runs' values of those
-- statistics (in ms and MiB too), their ratios and Welch's p-value.
\copy kernelindex.run_rows (harness, kernel, implementation, gpu, observed_at, release, metric, unit, mean, stddev, min, samples) FROM STDIN WITH (FORMAT csv, HEADER MATCH)
harness,kernel,implementation,gpu,observed_at,release,metric,unit,mean,stddev,min,samples
meanbench,gemm,torch,NVIDIA H100 80GB HBM3,2026-11-30 10:00:00,1.0,latency,us,120.5,1.5,118.0,200
meanbench,gemm,cutlass,NVIDIA H100 80GB HBM3,2026-11-30 10:00:05,1.0,latency,us,80.25,1.25,78.5,200
meanbench,gemm,torch,NVIDIA H100 80GB HBM3,2026-12-01 10:00:00,1.1,latency,us,121.0,1.5,118.5,200
meanbench,gemm,cutlass,NVIDIA H100 80GB HBM3,2026-12-01 10:00:05,1.1,latency,us,90.75,1.0,89.0,200
meanbench,gemm,torch,NVIDIA H100 80GB HBM3,2026-11-30 10:00:10,1.0,peak_memory,MiB,,,512,
meanbench,gemm,cutlass,NVIDIA H100 80GB HBM3,2026-11-30 10:00:15,1.0,peak_memory,MiB,,,256,
meanbench,gemm,torch,NVIDIA H100 80GB HBM3,2026-12-01 10:00:10,1.1,peak_memory,MiB,,,512,
meanbench,gemm,cutlass,NVIDIA H100 80GB HBM3,2026-12-01 10:00:15,1.1,peak_memory,MiB,,,320,
\.
SELECT metric, provider, release, round(speedup::numeric, 4) AS speedup, round(memory_ratio::numeric, 4) AS memory_ratio,
	latency_ms_primary, reference_latency_ms_primary, latency_ns_mean, reference_latency_ns_mean,
	reference_latency_ns_stddev, reference_latency_samples, peak_bytes_min, peak_mib_primary,
	reference_peak_mib_primary, outside_noise, round(p_value::numeric, 6) AS p_value
FROM kernelindex.speedups WHERE kernel = 'gemm' ORDER BY metric, provider, observed_at;
SELECT metric, provider, release, primary_statistic, reference_primary_statistic,
	latency_ms_primary, reference_latency_ms_primary, peak_mib_primary, reference_peak_mib_primary,
	round(ratio::numeric, 4) AS ratio
FROM kernelindex.release_runs WHERE kernel = 'gemm' ORDER BY metric, provider, release_rank;
SELECT metric, provider, old_release, new_release, old_primary_statistic, primary_statistic,
	old_value, new_value, old_latency_ms_primary, new_latency_ms_primary,
	old_peak_mib_primary, new_peak_mib_primary, round(ratio::numeric, 4) AS ratio, outside_noise,
	round(p_value::numeric, 6) AS p_value
FROM kernelindex.release_changes WHERE kernel = 'gemm' ORDER BY metric, provider;
\c :regress_db
DROP DATABASE kidx_readme_tour;
