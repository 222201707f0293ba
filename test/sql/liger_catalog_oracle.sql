-- The SQL builders of Liger resource documents and workload labels as
-- kernelindex 0.1.0 defined them in src/sql/50-liger.sql (commit 566b5bf),
-- kept as the oracle of test/sql/liger_catalog.sh: verbatim, except that
-- they live in schema liger_oracle (and call each other there) and name the
-- extension's schema through the psql variable extschema.  They read the
-- extension's catalogs, kernelindex.gpus, kernels, providers and
-- liger_passes, as the C builders do.
--
--   psql -v extschema=public -f test/sql/liger_catalog_oracle.sql
--
-- Do not change them: the C builders (src/liger_catalog.c) must give what
-- these gave.

CREATE SCHEMA liger_oracle;

CREATE FUNCTION liger_oracle.liger_slug(s text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.btrim(pg_catalog.regexp_replace(pg_catalog.lower(s), '[^a-z0-9]+', '-', 'g'), '-');
COMMENT ON FUNCTION liger_oracle.liger_slug(text) IS
'lowercase, every run of characters other than a-z and 0-9 turned into one hyphen, no hyphen at either end';

CREATE FUNCTION liger_oracle.liger_label_value(v jsonb)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE
	WHEN pg_catalog.jsonb_typeof(v) = 'string'
		AND (v OPERATOR(pg_catalog.#>>) '{}') ~ '^[A-Za-z_][A-Za-z0-9_.]*$'
		AND (v OPERATOR(pg_catalog.#>>) '{}') NOT IN ('true', 'false', 'null')
	THEN v OPERATOR(pg_catalog.#>>) '{}'
	ELSE pg_catalog.replace(:"extschema".kidx_canonical(v), '/', '\u002f')
END;
COMMENT ON FUNCTION liger_oracle.liger_label_value(jsonb) IS
'a JSON value as written in a workload label: numbers canonically, identifier-like strings bare, anything else as canonical JSON (slash escaped)';

CREATE FUNCTION liger_oracle.liger_dtype_label(s text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE
	WHEN s ~ '^torch\.float[0-9]' THEN 'fp' || pg_catalog.substr(s, 12)
	WHEN s ~ '^torch\.bfloat[0-9]' THEN 'bf' || pg_catalog.substr(s, 13)
	ELSE pg_catalog.regexp_replace(s, '^torch\.', '')
END;
COMMENT ON FUNCTION liger_oracle.liger_dtype_label(text) IS
'short dtype for labels: torch.float32 -> fp32, torch.bfloat16 -> bf16, torch.int8 -> int8';

CREATE FUNCTION liger_oracle.liger_label_placeholder(p text, inputs jsonb)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE
	WHEN p ~ '^[^*]+\*[^*]+$' THEN
		CASE WHEN pg_catalog.jsonb_typeof(inputs OPERATOR(pg_catalog.->) pg_catalog.split_part(p, '*', 1)) = 'number'
			AND pg_catalog.jsonb_typeof(inputs OPERATOR(pg_catalog.->) pg_catalog.split_part(p, '*', 2)) = 'number'
		THEN :"extschema".kidx_canonical(pg_catalog.to_jsonb(
			(inputs OPERATOR(pg_catalog.->>) pg_catalog.split_part(p, '*', 1))::numeric
			OPERATOR(pg_catalog.*) (inputs OPERATOR(pg_catalog.->>) pg_catalog.split_part(p, '*', 2))::numeric))
		ELSE 'na' END
	WHEN pg_catalog.jsonb_typeof(inputs OPERATOR(pg_catalog.->) p) = 'string' THEN
		liger_oracle.liger_dtype_label(inputs OPERATOR(pg_catalog.->>) p)
	WHEN inputs OPERATOR(pg_catalog.?) p THEN :"extschema".kidx_canonical(inputs OPERATOR(pg_catalog.->) p)
	ELSE 'na'
END;
COMMENT ON FUNCTION liger_oracle.liger_label_placeholder(text, jsonb) IS
'value of one label-template placeholder ({K} or {A*B}) for the given inputs';

CREATE FUNCTION liger_oracle.liger_workload_label(kernel text, x_name text, x_value jsonb, config jsonb)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
SET enable_nestloop = on
AS $fn$
BEGIN
	RETURN (WITH k AS (
		SELECT kc.label_template, kc.label_x_name, kc.label_defaults,
			config OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object(x_name, x_value) AS inputs
		FROM kernelindex.kernels kc
		WHERE kc.name OPERATOR(pg_catalog.=) kernel AND kc.label_template IS NOT NULL
	), lone AS (
		SELECT m.m[1] AS key
		FROM k, pg_catalog.regexp_matches(k.label_template, '\{([^{}*]+)\}', 'g') AS m(m)
	), rendered AS (
		SELECT pg_catalog.string_agg(s.part, '' ORDER BY s.ord) AS label
		FROM (
			SELECT t.ord * 2 AS ord, t.lit AS part
			FROM k, pg_catalog.regexp_split_to_table(k.label_template, '\{[^{}]*\}') WITH ORDINALITY AS t(lit, ord)
			UNION ALL
			SELECT m.ord * 2 + 1, liger_oracle.liger_label_placeholder(m.m[1], k.inputs)
			FROM k, pg_catalog.regexp_matches(k.label_template, '\{([^{}]*)\}', 'g') WITH ORDINALITY AS m(m, ord)
		) s
	), extra AS (
		SELECT pg_catalog.string_agg(',' || liger_oracle.liger_label_value(pg_catalog.to_jsonb(e.key)) || '='
				|| COALESCE(liger_oracle.liger_label_value(k.inputs OPERATOR(pg_catalog.->) e.key), ''),
				'' ORDER BY e.key COLLATE "C") AS suffix
		FROM k, (SELECT j.key FROM k, pg_catalog.jsonb_object_keys(k.inputs) AS j(key)
				UNION SELECT d.key FROM k, pg_catalog.jsonb_object_keys(k.label_defaults) AS d(key)) e
		WHERE NOT (e.key IN (SELECT lone.key FROM lone)
				AND (pg_catalog.jsonb_typeof(k.inputs OPERATOR(pg_catalog.->) e.key) = 'number'
					OR (k.inputs OPERATOR(pg_catalog.->>) e.key) ~ '^torch\.(float|bfloat|int|uint|complex)[0-9]+(_[a-z0-9]+)?$'))
			AND (k.inputs OPERATOR(pg_catalog.->) e.key) IS DISTINCT FROM (k.label_defaults OPERATOR(pg_catalog.->) e.key)
	)
	SELECT COALESCE(
		(SELECT rendered.label
			|| CASE WHEN k.label_x_name IS DISTINCT FROM x_name
				THEN ',x=' || liger_oracle.liger_label_value(pg_catalog.to_jsonb(x_name)) ELSE '' END
			|| CASE WHEN (config OPERATOR(pg_catalog.?) x_name) AND (config OPERATOR(pg_catalog.->) x_name) IS DISTINCT FROM x_value
				THEN ',' || liger_oracle.liger_label_value(pg_catalog.to_jsonb(x_name)) || '@config='
					|| liger_oracle.liger_label_value(config OPERATOR(pg_catalog.->) x_name) ELSE '' END
			|| COALESCE(extra.suffix, '')
		 FROM k, rendered, extra),
		liger_oracle.liger_label_value(pg_catalog.to_jsonb(x_name)) || '=' || liger_oracle.liger_label_value(x_value)
		|| COALESCE((SELECT pg_catalog.string_agg(',' || liger_oracle.liger_label_value(pg_catalog.to_jsonb(j.key)) || '='
						|| liger_oracle.liger_label_value(j.value), '' ORDER BY j.key COLLATE "C")
					FROM pg_catalog.jsonb_each(config) AS j), '')));
END;
$fn$;
COMMENT ON FUNCTION liger_oracle.liger_workload_label(text, text, jsonb, jsonb) IS
'workload label of a Liger row: the kernel''s template (kernelindex.kernels) plus every input it leaves ambiguous, or the generic x=v,key=value,... label; two different workloads of a kernel never share a label';

CREATE FUNCTION liger_oracle.liger_x_value(x text)
RETURNS jsonb
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN x ~ '^\s*-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?\s*$'
	THEN pg_catalog.to_jsonb(x::numeric) ELSE pg_catalog.to_jsonb(x) END;
COMMENT ON FUNCTION liger_oracle.liger_x_value(text) IS
'x_value as JSON: a number when it is written as one, else a string';

CREATE FUNCTION liger_oracle.liger_harness()
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN '{"name": "Liger-Kernel benchmark scripts", "repository": "https://github.com/linkedin/Liger-Kernel"}'::jsonb;
COMMENT ON FUNCTION liger_oracle.liger_harness() IS
'the harness object of Liger protocol and implementation documents';

CREATE FUNCTION liger_oracle.liger_protocol(metric text, pass text)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT CASE WHEN metric = 'memory' THEN
		pg_catalog.jsonb_build_object(
			'apiVersion', 'kernelindex.dev/v1alpha1',
			'kind', 'BenchmarkProtocol',
			'metadata', pg_catalog.jsonb_build_object(
				'name', 'liger-bench-peak-memory-' || liger_oracle.liger_slug(pass),
				'title', 'Liger benchmark harness · ' || pass || ' pass peak memory'),
			'spec', pg_catalog.jsonb_build_object(
				'harness', liger_oracle.liger_harness(),
				'measurement', '{"method": "torch.cuda.max_memory_allocated", "unit": "bytes", "primaryStatistic": "median"}'::jsonb,
				'comparability', pg_catalog.jsonb_build_object(
					'family', 'liger_kernel_bench_memory',
					'notes', 'Measured: peak GPU memory allocated through PyTorch (torch.cuda.max_memory_allocated, peak statistics reset before each repetition) while running '
						|| COALESCE(p.timed, 'the pass the upstream harness calls "' || pass || '"')
						|| ', over repeated runs with quantiles 0.5/0.2/0.8 (median with p20/p80 spread). Liger writes MiB; stored as exact bytes (x 1048576). The upstream CSV records no CUDA, driver, or torch version; the Liger release rides each run''s labels. Comparable only within one kernel, workload, measured pass, and GPU.')))
	ELSE
		pg_catalog.jsonb_build_object(
			'apiVersion', 'kernelindex.dev/v1alpha1',
			'kind', 'BenchmarkProtocol',
			'metadata', pg_catalog.jsonb_build_object(
				'name', 'liger-bench-do-bench-' || liger_oracle.liger_slug(pass),
				'title', 'Liger benchmark harness · ' || pass || ' pass'),
			'spec', pg_catalog.jsonb_build_object(
				'harness', liger_oracle.liger_harness(),
				'measurement', '{"timer": "cuda_events", "primaryStatistic": "median"}'::jsonb,
				'comparability', pg_catalog.jsonb_build_object(
					'family', 'liger_kernel_bench',
					'notes', 'Timed: '
						|| COALESCE(p.timed, 'the pass the upstream harness calls "' || pass || '"')
						|| ', via triton.testing.do_bench with quantiles 0.5/0.2/0.8 (median with p20/p80 spread). The upstream CSV records no CUDA, driver, or torch version; the Liger release rides each run''s labels. Comparable only within one kernel, workload, timed pass, and GPU.')))
	END
	FROM (SELECT 1) one LEFT JOIN kernelindex.liger_passes p ON p.name OPERATOR(pg_catalog.=) pass;
END;
COMMENT ON FUNCTION liger_oracle.liger_protocol(text, text) IS
'BenchmarkProtocol document for Liger rows of a metric (speed or memory) and operation mode (kernelindex.liger_passes; an unknown mode gets a generic note)';

CREATE FUNCTION liger_oracle.liger_environment(gpu text)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT pg_catalog.jsonb_build_object(
		'apiVersion', 'kernelindex.dev/v1alpha1',
		'kind', 'ExecutionEnvironment',
		'metadata', pg_catalog.jsonb_build_object(
			'name', pg_catalog.rtrim(pg_catalog.left('liger-bench-' || liger_oracle.liger_slug(gpu), 100), '-'),
			'title', 'Liger benchmark host · ' || COALESCE(g.title,
				pg_catalog.regexp_replace(gpu, '^(NVIDIA|AMD|Intel(\(R\))?)\s+', '', 'i'))),
		'spec', pg_catalog.jsonb_build_object(
			'hardware', pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
				'vendor', COALESCE(g.vendor, CASE
					WHEN gpu ~* '^(nvidia|tesla|quadro|geforce)' THEN 'nvidia'
					WHEN gpu ~* '^(amd|radeon)' THEN 'amd'
					WHEN gpu ~* '^intel' THEN 'intel' END),
				'product', COALESCE(g.product, gpu),
				'formFactor', g.form_factor,
				'architecture', g.architecture)),
			'software', '{}'::jsonb))
	FROM (SELECT 1) one LEFT JOIN kernelindex.gpus g ON g.name OPERATOR(pg_catalog.=) gpu;
END;
COMMENT ON FUNCTION liger_oracle.liger_environment(text) IS
'ExecutionEnvironment document for a GPU name (kernelindex.gpus; an unknown GPU gets its name as product and the vendor its name shows)';

CREATE FUNCTION liger_oracle.liger_implementation(kernel text, provider text)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT pg_catalog.jsonb_build_object(
		'apiVersion', 'kernelindex.dev/v1alpha1',
		'kind', 'Implementation',
		'metadata', pg_catalog.jsonb_build_object(
			'name', pg_catalog.rtrim(pg_catalog.left('liger-impl-' || liger_oracle.liger_slug(kernel) || '-' || liger_oracle.liger_slug(provider), 100), '-'),
			'title', COALESCE(k.title, kernel) || ' · ' || COALESCE(p.title, provider)),
		'spec', pg_catalog.jsonb_build_object(
			'harness', liger_oracle.liger_harness(),
			'kernel', kernel,
			'provider', provider))
	FROM (SELECT 1) one
	LEFT JOIN kernelindex.kernels k ON k.name OPERATOR(pg_catalog.=) kernel
	LEFT JOIN kernelindex.providers p ON p.name OPERATOR(pg_catalog.=) provider;
END;
COMMENT ON FUNCTION liger_oracle.liger_implementation(text, text) IS
'Implementation document of a Liger kernel provider: spec {harness, kernel, provider}';

CREATE FUNCTION liger_oracle.liger_workload(kernel text, x_name text, x_label text, x_value text, config text)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT pg_catalog.jsonb_build_object(
		'apiVersion', 'kernelindex.dev/v1alpha1',
		'kind', 'Workload',
		'metadata', pg_catalog.jsonb_build_object(
			'name', pg_catalog.rtrim(pg_catalog.left('liger-workload-' || liger_oracle.liger_slug(kernel) || '-' || liger_oracle.liger_slug(l.label), 100), '-'),
			'title', COALESCE(k.title, kernel) || ' · ' || l.label,
			'labels', pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object('label', l.label, 'x_label', x_label))),
		'spec', pg_catalog.jsonb_build_object(
			'source', 'liger-kernel-bench',
			'kernel', kernel,
			'x', pg_catalog.jsonb_build_object('name', x_name, 'value', liger_oracle.liger_x_value(x_value)),
			'config', config::jsonb))
	FROM (SELECT liger_oracle.liger_workload_label(kernel, x_name, liger_oracle.liger_x_value(x_value), config::jsonb) AS label OFFSET 0) l
	LEFT JOIN kernelindex.kernels k ON k.name OPERATOR(pg_catalog.=) kernel;
END;
COMMENT ON FUNCTION liger_oracle.liger_workload(text, text, text, text, text) IS
'Workload document of a Liger row: spec {source, kernel, x {name, value}, config}; metadata.labels.label is the workload label';

CREATE FUNCTION liger_oracle.liger_series(kernel text[], provider text[], pass text[], metric text[],
	x_name text[], x_label text[], x_value text[], config text[], gpu text[], version text[])
RETURNS TABLE (ord bigint, protocol jsonb, workload jsonb, environment jsonb, implementation jsonb,
	template jsonb, name_stem text, name_cut integer, external_id_stem text, native_unit text)
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
	WITH g AS (
		SELECT * FROM ROWS FROM (pg_catalog.unnest(kernel), pg_catalog.unnest(provider), pg_catalog.unnest(pass),
			pg_catalog.unnest(metric), pg_catalog.unnest(x_name), pg_catalog.unnest(x_label), pg_catalog.unnest(x_value),
			pg_catalog.unnest(config), pg_catalog.unnest(gpu), pg_catalog.unnest(version))
			WITH ORDINALITY AS g(kernel, provider, pass, metric, x_name, x_label, x_value, config, gpu, version, ord)
	), wl AS MATERIALIZED (
		SELECT d.kernel, d.x_name, d.x_label, d.x_value, d.config,
			liger_oracle.liger_workload(d.kernel, d.x_name, d.x_label, d.x_value, d.config) AS doc
		FROM (SELECT DISTINCT g.kernel, g.x_name, g.x_label, g.x_value, g.config FROM g) d
	), env AS MATERIALIZED (
		SELECT d.gpu, liger_oracle.liger_environment(d.gpu) AS doc
		FROM (SELECT DISTINCT g.gpu FROM g) d
	), prot AS MATERIALIZED (
		SELECT d.metric, d.pass, liger_oracle.liger_protocol(d.metric, d.pass) AS doc
		FROM (SELECT DISTINCT g.metric, g.pass FROM g) d
	), impl AS MATERIALIZED (
		SELECT d.kernel, d.provider, liger_oracle.liger_implementation(d.kernel, d.provider) AS doc,
			COALESCE(k.title, d.kernel) AS kernel_title
		FROM (SELECT DISTINCT g.kernel, g.provider FROM g) d
		LEFT JOIN kernelindex.kernels k ON k.name OPERATOR(pg_catalog.=) d.kernel
	)
	SELECT g.ord, prot.doc, wl.doc, env.doc, impl.doc,
		pg_catalog.jsonb_build_object(
			'apiVersion', 'kernelindex.dev/v1alpha1',
			'kind', 'BenchmarkRun',
			'metadata', pg_catalog.jsonb_build_object(
				'title', impl.kernel_title OPERATOR(pg_catalog.||) ' · ' OPERATOR(pg_catalog.||) g.provider
					OPERATOR(pg_catalog.||) ' · ' OPERATOR(pg_catalog.||) g.pass
					OPERATOR(pg_catalog.||) CASE WHEN m.mem THEN ' · memory' ELSE '' END,
				'labels', pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
					'liger_version', NULLIF(g.version, '')))),
			'spec', pg_catalog.jsonb_build_object(
				'status', 'passed',
				'measurements', CASE WHEN m.mem
					THEN '[{"unit": "bytes", "metric": "peakMemory", "statistic": "p20"}, {"unit": "bytes", "metric": "peakMemory", "statistic": "p80"}]'::jsonb
					ELSE '[{"unit": "ns", "metric": "latency", "statistic": "p20"}, {"unit": "ns", "metric": "latency", "statistic": "p80"}]'::jsonb END,
				'sourceNative', pg_catalog.jsonb_build_object(
					'source', 'liger-kernel-bench',
					'metrics', '{}'::jsonb,
					'benchmark', g.kernel OPERATOR(pg_catalog.||) '/' OPERATOR(pg_catalog.||) g.pass
						OPERATOR(pg_catalog.||) m.part))
				OPERATOR(pg_catalog.||) CASE WHEN m.mem
					THEN '{"memory": {"peakBytes": {}, "primaryStatistic": "median"}}'::jsonb
					ELSE '{"timing": {"latencyNs": {}, "primaryStatistic": "median"}}'::jsonb END),
		'liger-' OPERATOR(pg_catalog.||) liger_oracle.liger_slug(g.kernel)
			OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||) liger_oracle.liger_slug(g.pass)
			OPERATOR(pg_catalog.||) CASE WHEN m.mem THEN '-memory' ELSE '' END
			OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||) liger_oracle.liger_slug(g.provider)
			OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||) liger_oracle.liger_slug(g.gpu)
			OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||) liger_oracle.liger_slug(wl.doc OPERATOR(pg_catalog.#>>) '{metadata,labels,label}')
			OPERATOR(pg_catalog.||) '-',
		100,
		g.kernel OPERATOR(pg_catalog.||) '/' OPERATOR(pg_catalog.||) g.pass OPERATOR(pg_catalog.||) m.part
			OPERATOR(pg_catalog.||) '/' OPERATOR(pg_catalog.||) g.provider
			OPERATOR(pg_catalog.||) '/' OPERATOR(pg_catalog.||) liger_oracle.liger_slug(g.gpu)
			OPERATOR(pg_catalog.||) '/' OPERATOR(pg_catalog.||) (wl.doc OPERATOR(pg_catalog.#>>) '{metadata,labels,label}')
			OPERATOR(pg_catalog.||) '/',
		CASE WHEN m.mem THEN 'mb' ELSE 'ms' END
	FROM g
	CROSS JOIN LATERAL (SELECT g.metric OPERATOR(pg_catalog.=) 'memory' AS mem,
		CASE WHEN g.metric OPERATOR(pg_catalog.=) 'memory' THEN '/memory' ELSE '' END AS part) m
	JOIN wl ON wl.kernel OPERATOR(pg_catalog.=) g.kernel AND wl.x_name OPERATOR(pg_catalog.=) g.x_name
		AND wl.x_label IS NOT DISTINCT FROM g.x_label AND wl.x_value OPERATOR(pg_catalog.=) g.x_value
		AND wl.config OPERATOR(pg_catalog.=) g.config
	JOIN env ON env.gpu OPERATOR(pg_catalog.=) g.gpu
	JOIN prot ON prot.metric OPERATOR(pg_catalog.=) g.metric AND prot.pass OPERATOR(pg_catalog.=) g.pass
	JOIN impl ON impl.kernel OPERATOR(pg_catalog.=) g.kernel AND impl.provider OPERATOR(pg_catalog.=) g.provider
	ORDER BY g.ord;
END;
COMMENT ON FUNCTION liger_oracle.liger_series(text[], text[], text[], text[], text[], text[], text[], text[], text[], text[]) IS
'for Liger row groups given column-wise (kernel, provider, pass, metric, x name, x label, x value, config, GPU, release): per group, by position, its four resource documents and its model run series (template without per-run values, name stem cut to 100 characters, externalId stem, native unit); the set-based step of the Liger triggers';
