/* ---------------------------------------------------------------------
 * 6. Ingestion of Liger-Kernel benchmark CSV (doc/reference.md, "Liger-Kernel ingestion")
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
COMMENT ON COLUMN kernelindex.providers.is_reference IS 'true for the implementation speedups are measured against in runs of a harness kernelindex.harnesses does not list (torch); a listed harness names its own (harnesses.reference_implementation)';
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
	liger_version text,
	fields jsonb,
	sqlstate text CHECK (sqlstate OPERATOR(pg_catalog.~) '^[0-9A-Z]{5}$')
);
COMMENT ON TABLE kernelindex.rejected_rows IS
'Rows CSV ingestion could not turn into runs, kept verbatim with the reason (only with SET kernelindex.on_bad_row = ''quarantine'')';
COMMENT ON COLUMN kernelindex.rejected_rows.id IS 'arbitrary row id';
COMMENT ON COLUMN kernelindex.rejected_rows.source IS 'which CSV format the row came in: liger (its columns below) or run_rows (in fields)';
COMMENT ON COLUMN kernelindex.rejected_rows.rejected_at IS 'start of the transaction that loaded the row';
COMMENT ON COLUMN kernelindex.rejected_rows.row_number IS 'position of the row in its COPY statement (1 = first data row; the file line is this + 1 with a header)';
COMMENT ON COLUMN kernelindex.rejected_rows.column_name IS 'the first column found at fault';
COMMENT ON COLUMN kernelindex.rejected_rows.bad_value IS 'that column''s value (cut at 200 characters)';
COMMENT ON COLUMN kernelindex.rejected_rows.reason IS 'what is wrong with the value';
COMMENT ON COLUMN kernelindex.rejected_rows.sqlstate IS 'the SQLSTATE the row fails its COPY with when kernelindex.on_bad_row is error (22P02 malformed, 22003 out of range, 22023 wrong value, 22007 bad time, 23502 missing)';
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
COMMENT ON COLUMN kernelindex.rejected_rows.fields IS 'a run_rows row''s columns, verbatim, as an object (the columns its COPY named)';
SELECT pg_catalog.pg_extension_config_dump('kernelindex.rejected_rows', '');
COMMENT ON SEQUENCE kernelindex.rejected_rows_id_seq IS 'ids of kernelindex.rejected_rows';
SELECT pg_catalog.pg_extension_config_dump('kernelindex.rejected_rows_id_seq', '');

/* --- Row checks and document builders --------------------------------- */

CREATE FUNCTION kernelindex.liger_row_fault(kernelindex.liger_rows)
RETURNS text[]
AS 'MODULE_PATHNAME', 'kidx_liger_row_fault' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.liger_row_fault(kernelindex.liger_rows) IS
'NULL for a Liger CSV row that can become a run, else {column, value, reason, sqlstate} of its first fault (checked without raising errors; sqlstate: what a COPY of the row fails with)';

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

CREATE FUNCTION kernelindex_internal.liger_begin()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_liger_begin' LANGUAGE C;
COMMENT ON FUNCTION kernelindex_internal.liger_begin() IS
'BEFORE INSERT statement trigger of kernelindex.liger_rows: begins the statement''s batch';

CREATE FUNCTION kernelindex_internal.liger_row()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_liger_row' LANGUAGE C;
COMMENT ON FUNCTION kernelindex_internal.liger_row() IS
'INSTEAD OF INSERT trigger of kernelindex.liger_rows: checks one row and keeps it with its group (a bad row fails the statement, or is quarantined)';

CREATE FUNCTION kernelindex_internal.liger_end()
RETURNS trigger
AS 'MODULE_PATHNAME', 'kidx_liger_end' LANGUAGE C;
COMMENT ON FUNCTION kernelindex_internal.liger_end() IS
'AFTER INSERT statement trigger of kernelindex.liger_rows: builds each group''s resources from the catalogs, every row''s run through the run layout, and stores them';

CREATE TRIGGER liger_begin
BEFORE INSERT ON kernelindex.liger_rows
FOR EACH STATEMENT EXECUTE FUNCTION kernelindex_internal.liger_begin();
COMMENT ON TRIGGER liger_begin ON kernelindex.liger_rows IS
'begins turning an INSERT or COPY into runs';

CREATE TRIGGER liger_row
INSTEAD OF INSERT ON kernelindex.liger_rows
FOR EACH ROW EXECUTE FUNCTION kernelindex_internal.liger_row();
COMMENT ON TRIGGER liger_row ON kernelindex.liger_rows IS
'each row is checked and kept with the rows that differ from it only in timestamp and values';

CREATE TRIGGER liger_end
AFTER INSERT ON kernelindex.liger_rows
FOR EACH STATEMENT EXECUTE FUNCTION kernelindex_internal.liger_end();
COMMENT ON TRIGGER liger_end ON kernelindex.liger_rows IS
'turns the statement''s rows into runs, stored in one set-based step';
