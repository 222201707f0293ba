-- Edge cases of test/sql/liger_catalog.sh: catalog rows users add (with and
-- without templates, defaults, x names that differ from label_x_name, long
-- names, unicode), and rows, labels and slugs the upstream file does not
-- have.  Sources:
--   edge        rows every builder accepts, C and SQL (also set-based and
--               through liger_series)
--   edge_fail   rows some builder refuses, C and SQL with the same SQLSTATE
--   edge_null   rows with SQL NULL in any column
--   edge_locale rows whose fate depends on the locale's white space
-- Strings outside LATIN1 only in UTF-8 databases (psql variable utf8).
SELECT pg_catalog.getdatabaseencoding() = 'UTF8' AS utf8 \gset

INSERT INTO kernelindex.kernels (name, title, label_template, label_x_name, label_defaults) VALUES
-- every kind of placeholder, defaults of every type
('lc_tpl', 'LC template', 'n{N}-{mode}-{dtype}-{A*B}-{}-{a*b*c}-{*x}-{missing}-{flag}', 'N',
 '{"mode": "fast", "A": 2, "d": [1, 2], "s": "x", "flag": true, "nested": {"k": [1, "a/b"]}}'),
('lc_tpl_nox', 'LC template without an x name', 'size{S}', NULL, '{}'),
('lc_tpl_empty', 'LC empty template', '', 'N', '{}'),
('lc_tpl_braces', 'LC braces', '{a{b}c}}{{d}{', 'b', '{"d": 1}'),
('lc_tpl_literal', 'LC literal template', 'fixed', 'N', '{"k": 1}'),
('lc_tpl_x', 'LC x', 'v{V}-{dtype}', 'V', '{"B": 4}'),
('lc_tpl_product', 'LC product', 'p{B*T}-{V}', 'V', '{"B": 4, "T": 512}'),
('lc_generic', 'LC generic', NULL, NULL, '{}'),
('lc_generic_xname', 'LC generic with x name', NULL, 'N', '{"N": 1}'),
('lc_long_' || repeat('k', 120), repeat('Long title ', 15), 'x{N}-' || repeat('y', 120), 'N', '{}'),
('sparsemax_like', 'Sparse/max (like) é', 'features{V}-tokens{B*T}-{dtype}', 'V', '{"B": 4, "T": 512, "dim": -1}');

INSERT INTO kernelindex.providers (name, title, is_reference) VALUES
('lc_prov', 'LC Provider', false),
('lc_prov_long_' || repeat('p', 120), repeat('P', 120), false),
('LC Mixed_Case.Provider', 'Mixed é', false);

INSERT INTO kernelindex.gpus (name, vendor, product, form_factor, architecture, title) VALUES
('LC GPU', 'lcvendor', 'LC Product', NULL, NULL, NULL),
('LC GPU titled', 'amd', 'LC X', 'OAM', 'lc_arch', 'Titled é'),
('LC GPU empty title', 'nvidia', 'LC Y', '', '', ''),
('Intel(R) LC Accelerator', 'intel', 'Intel LC', NULL, 'xe-lc', NULL),
('LC ' || repeat('G', 150), 'nvidia', 'LC long', NULL, NULL, NULL);

INSERT INTO kernelindex.liger_passes (name, timed) VALUES
('lc_pass', 'a pass users added, with "quotes" and é'),
('LC Pass/Odd', 'an odd pass');

-- Rows every builder accepts.
INSERT INTO lc_rows (src, kernel_name, kernel_provider, kernel_operation_mode, metric_name, x_name, x_label,
	x_value, extra_benchmark_config_str, gpu_name, liger_version) VALUES
('edge', 'sparsemax', 'torch', 'forward', 'speed', 'V', 'feature size', '16384',
 '{"B": 4, "T": 512, "dim": -1, "dtype": "torch.float32"}', 'NVIDIA A100-SXM4-80GB', '0.5.8'),
('edge', 'sparsemax', 'liger', 'full', 'memory', 'V', NULL, '16384',
 '{"B": 4.0, "T": 512, "dim": -1, "dtype": "torch.bfloat16"}', 'LC GPU', ''),
('edge', 'sparsemax', 'liger', 'backward', 'speed', 'V', '', '1e3',
 '{"B": 8, "T": 256, "dim": 0, "dtype": "torch.float8_e4m3fn", "extra": "x/y"}', 'LC GPU titled', NULL),
-- config keys shadowing x: another value, the same value, an equal number, a string
('edge', 'sparsemax', 'torch', 'forward', 'speed', 'V', 'feature size', '16384', '{"V": 4096, "dtype": "torch.int8"}', 'Tesla T4', '1'),
('edge', 'sparsemax', 'torch', 'forward', 'speed', 'V', 'feature size', '16384', '{"V": 16384}', 'Tesla T4', '1'),
('edge', 'sparsemax', 'torch', 'forward', 'speed', 'V', 'feature size', '16384', '{"V": 16384.0}', 'Tesla T4', '1'),
('edge', 'sparsemax', 'torch', 'forward', 'speed', 'V', 'feature size', '16384', '{"V": "16384"}', 'Tesla T4', '1'),
('edge', 'lc_generic', 'torch', 'forward', 'speed', 'V', 'v', '3', '{"V": 4, "a": 1}', 'Tesla T4', '1'),
-- x name other than the template's
('edge', 'sparsemax', 'torch', 'forward', 'speed', 'T', 'tokens', '2048', '{"B": 4, "V": 1024, "dim": -1, "dtype": "torch.float32"}', 'NVIDIA B200', '1'),
('edge', 'lc_tpl_x', 'lc_prov', 'lc_pass', 'speed', 'N', 'n', '7', '{"V": 3, "dtype": "torch.complex64", "B": 4}', 'LC GPU', '1'),
('edge', 'lc_tpl_nox', 'lc_prov', 'LC Pass/Odd', 'memory', 'S', 's', '9', '{}', 'LC GPU', '1'),
('edge', 'lc_tpl_nox', 'lc_prov', 'warmup', 'speed', 'Q', 's', '9', '{"S": 2}', 'LC GPU', '1'),
-- every placeholder kind, inputs missing, of other types, equal to defaults or not
('edge', 'lc_tpl', 'torch', 'forward', 'speed', 'N', 'n', '5',
 '{"mode": "fast", "dtype": "torch.float16", "A": 2, "B": 3, "a*b*c": 1, "*x": "y", "flag": true, "d": [1, 2], "s": "x", "nested": {"k": [1, "a/b"]}}', 'LC GPU', '1'),
('edge', 'lc_tpl', 'torch', 'forward', 'speed', 'N', 'n', '5',
 '{"mode": "slow", "dtype": "float32", "A": 0.5, "B": 0.25, "": "empty key", "flag": false, "d": [2, 1], "s": "y", "nested": {"k": [1, "a/b"], "j": null}}', 'LC GPU', '1'),
('edge', 'lc_tpl', 'torch', 'forward', 'speed', 'N', 'n', 'not a number',
 '{"mode": 3, "dtype": 16, "A": "2", "B": 3, "flag": null, "missing": null}', 'LC GPU', '1'),
('edge', 'lc_tpl', 'torch', 'forward', 'speed', 'N', 'n', '5',
 '{"mode": {"x": 1}, "dtype": ["torch.float32"], "A": true, "N": 6, "zz": "torch.int4", "mode2": "torch.uint8_x1"}', 'LC GPU', '1'),
('edge', 'lc_tpl', 'torch', 'forward', 'speed', 'N', 'n', '5', '{}', 'LC GPU', '1'),
('edge', 'lc_tpl_empty', 'torch', 'forward', 'speed', 'N', 'n', '5', '{"a": 1}', 'LC GPU', '1'),
('edge', 'lc_tpl_braces', 'torch', 'forward', 'speed', 'b', 'b', '5', '{"a{b": 1, "d": 1, "c}": 2}', 'LC GPU', '1'),
('edge', 'lc_tpl_braces', 'torch', 'forward', 'speed', 'b', 'b', '5', '{"d": 2}', 'LC GPU', '1'),
('edge', 'lc_tpl_literal', 'torch', 'forward', 'speed', 'N', 'n', '5', '{"k": 1, "j": 2}', 'LC GPU', '1'),
('edge', 'lc_tpl_product', 'torch', 'forward', 'speed', 'V', 'v', '5', '{"B": 4, "T": 512}', 'LC GPU', '1'),
('edge', 'lc_tpl_product', 'torch', 'forward', 'speed', 'V', 'v', '5', '{"B": 1.5, "T": 0.125}', 'LC GPU', '1'),
('edge', 'lc_tpl_product', 'torch', 'forward', 'speed', 'V', 'v', '5', '{"B": 4}', 'LC GPU', '1'),
('edge', 'lc_tpl_product', 'torch', 'forward', 'speed', 'V', 'v', '5', '{"B": 4, "T": "512"}', 'LC GPU', '1'),
('edge', 'lc_tpl_product', 'torch', 'forward', 'speed', 'V', 'v', '5', '{"B": 1e10, "T": 1e10}', 'LC GPU', '1'),
('edge', 'lc_tpl_product', 'torch', 'forward', 'speed', 'B', 'b', '5', '{"T": 512}', 'LC GPU', '1'),
('edge', 'lc_generic_xname', 'torch', 'forward', 'speed', 'N', 'n', '1', '{"N": 1}', 'LC GPU', '1'),
-- x values: numbers written in every way, strings, white space
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '0.10', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '-0', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1E+3', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1.5e-7', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '0123', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '00', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', ' 5 ', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', E'\t5\n', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '5.', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1e', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '+1', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', 'a/b c', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', 'true', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', 'null', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', 'x.y_z', '{}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', 'é', '{}', 'NVIDIA H100 80GB HBM3', '1'),
-- x names and config keys that are not identifiers; values of every type
('edge', 'rope', 'liger', 'forward', 'speed', 'a b', 't', '1', '{"true": 1, "a/b": "c/d", "x y": "z", "_ok.k": "v.w", "1a": 2}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', '', 't', '1', '{"t": true, "f": false, "n": null, "s": "null", "q": "say \"hi\"", "b": "back\\slash", "c": "\u0001ctl"}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1', '{"nested": {"b": [1, "x/y", {"c": null}], "a": 1.50}, "arr": [], "obj": {}}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1', '{"big": 1e21, "small": 1e-7, "neg": -0.0, "e": 1.5E+3, "k": 1234567890123456}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1', '{"é": "ü", "clé": 1}', 'NVIDIA H100 80GB HBM3', '1'),
-- unknown kernels, providers, passes and GPUs
('edge', 'mystery_op', 'acme', 'warmup', 'speed', 'N', 'size', '7', '{"mode": "a/b", "flag": true, "n": null, "s": "4096"}', 'Acme Accelerator X1', '1'),
('edge', 'Mystery Op/2', 'Acme Corp', 'Forward', 'memory', 'N', NULL, '7', '{}', 'nvidia lowercase', NULL),
('edge', 'mystery_op', 'acme', 'with space', 'speed', 'N', 'n', '7', '{}', 'NVIDIA   Spaces', '1'),
('edge', 'mystery_op', 'acme', '', 'memory', 'N', 'n', '7', '{}', 'GeForce RTX 9999', '1'),
('edge', 'mystery_op', 'acme', '---', 'speed', 'N', 'n', '7', '{}', 'Quadro X', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'other', 'N', 'n', '7', '{}', 'Radeon Y', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'Memory', 'N', 'n', '7', '{}', 'AMD Z', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'speed', 'N', 'n', '7', '{}', 'amdx', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'speed', 'N', 'n', '7', '{}', 'intel(r) Quux', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'speed', 'N', 'n', '7', '{}', 'Intel(R)Arc', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'speed', 'N', 'n', '7', '{}', 'INTEL   x', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'speed', 'N', 'n', '7', '{}', E'NVIDIA\tA100', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'speed', 'N', 'n', '7', '{}', 'NVIDIA', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'speed', 'N', 'n', '7', '{}', 'NVIDIA ', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'speed', 'N', 'n', '7', '{}', '', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'speed', 'N', 'n', '7', '{}', '   ', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'speed', 'N', 'n', '7', '{}', 'Unknown GPU', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'speed', 'N', 'n', '7', '{}', 'Tesla', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'speed', 'N', 'n', '7', '{}', 'Ärger GPU', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'speed', 'N', 'n', '7', '{}', 'LC GPU empty title', '1'),
('edge', 'mystery_op', 'acme', 'forward', 'speed', 'N', 'n', '7', '{}', 'Intel(R) LC Accelerator', '1'),
-- long names: cut at 100 characters, trailing hyphens gone
('edge', 'lc_long_' || repeat('k', 120), 'lc_prov_long_' || repeat('p', 120), 'forward', 'speed', 'N', 'n', '7', '{}', 'LC ' || repeat('G', 150), '1'),
('edge', repeat('k', 95) || '-----x', repeat('p', 200), repeat('pass ', 30), 'speed', 'N', 'n', '7', '{}', repeat('g', 88) || ' ' || repeat('h', 40), '1'),
('edge', repeat('k', 84), 'torch', 'forward', 'speed', 'N', 'n', '7', '{}', repeat('G', 88) || '--------------x', '1'),
('edge', repeat('k', 83), 'torch', 'forward', 'speed', 'N', 'n', '7', '{"a": "' || repeat('x', 20) || '"}', repeat('G', 87) || '-', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1', '{"long": "' || repeat('word ', 40) || '"}', 'NVIDIA H100 80GB HBM3', '1'),
('edge', 'LC Mixed_Case.Kernel', 'LC Mixed_Case.Provider', 'forward', 'speed', 'N', 'n', '7', '{}', 'LC GPU', '1');

-- Rows some builder refuses: the same SQLSTATE from C and SQL.
INSERT INTO lc_rows (src, kernel_name, kernel_provider, kernel_operation_mode, metric_name, x_name, x_label,
	x_value, extra_benchmark_config_str, gpu_name, liger_version) VALUES
('edge_fail', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1', '[1, 2]', 'X', '1'),
('edge_fail', 'sparsemax', 'liger', 'forward', 'speed', 'V', 't', '1', '[1, 2]', 'X', '1'),
('edge_fail', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1', '5', 'X', '1'),
('edge_fail', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1', 'null', 'X', '1'),
('edge_fail', 'sparsemax', 'liger', 'forward', 'speed', 'V', 't', '1', '"a string"', 'X', '1'),
('edge_fail', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1', '{bad', 'X', '1'),
('edge_fail', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1', '', 'X', '1'),
('edge_fail', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1', '{"a": 1e400}', 'X', '1'),
('edge_fail', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1', '{"k": 12345678901234567}', 'X', '1'),
('edge_fail', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1', '{"a": [0.1000000000000000000001]}', 'X', '1'),
('edge_fail', 'rope', 'liger', 'forward', 'speed', 'T', 't', '12345678901234567890', '{}', 'X', '1'),
('edge_fail', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1e400', '{}', 'X', '1'),
('edge_fail', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1e1000000', '{}', 'X', '1'),
('edge_fail', 'lc_tpl_product', 'torch', 'forward', 'speed', 'V', 'v', '5', '{"B": 1e200, "T": 1e200}', 'LC GPU', '1'),
('edge_fail', 'lc_tpl_product', 'torch', 'forward', 'speed', 'V', 'v', '5', '{"B": 123456789012, "T": 123456789012}', 'LC GPU', '1'),
('edge_fail', 'lc_tpl', 'torch', 'forward', 'speed', 'N', 'n', '5', '{"q": 1e400}', 'LC GPU', '1');

-- SQL NULL in each column, one at a time and all at once.
INSERT INTO lc_rows (src, kernel_name, kernel_provider, kernel_operation_mode, metric_name, x_name, x_label,
	x_value, extra_benchmark_config_str, gpu_name, liger_version)
SELECT 'edge_null',
	CASE WHEN i IN (1, 0) THEN NULL ELSE k END, CASE WHEN i IN (2, 0) THEN NULL ELSE 'torch' END,
	CASE WHEN i IN (3, 0) THEN NULL ELSE 'forward' END, CASE WHEN i IN (4, 0) THEN NULL ELSE 'memory' END,
	CASE WHEN i IN (5, 0) THEN NULL ELSE 'V' END, CASE WHEN i IN (6, 0) THEN NULL ELSE 'v' END,
	CASE WHEN i IN (7, 0) THEN NULL ELSE '16384' END,
	CASE WHEN i IN (8, 0) THEN NULL ELSE '{"B": 4, "T": 512, "V": 2, "dtype": "torch.float32", "z": 1}' END,
	CASE WHEN i IN (9, 0) THEN NULL ELSE 'NVIDIA A100-SXM4-80GB' END, NULL
FROM generate_series(0, 9) i, unnest(ARRAY['sparsemax', 'rope', 'lc_tpl', 'lc_tpl_nox', 'lc_tpl_product', 'unknown_k']) k
WHERE NOT (i IN (0, 5) AND k IN ('sparsemax', 'lc_tpl', 'lc_tpl_nox', 'lc_tpl_product'));
-- a NULL x name with a template: C and SQL both refuse it
INSERT INTO lc_rows (src, kernel_name, kernel_provider, kernel_operation_mode, metric_name, x_name, x_label,
	x_value, extra_benchmark_config_str, gpu_name, liger_version)
SELECT 'edge_fail', k, 'torch', 'forward', 'speed', NULL, 'v', x, c, 'NVIDIA A100-SXM4-80GB', NULL
FROM unnest(ARRAY['sparsemax', 'lc_tpl', 'lc_tpl_nox', 'lc_tpl_product']) k,
	unnest(ARRAY['16384', NULL]) x, unnest(ARRAY['{"B": 4}', NULL]) c;

-- workload_label called directly with JSON of every kind.
INSERT INTO lc_labels (src, kernel, x_name, x_value, config) VALUES
('edge', 'rope', 'T', '{"a": [1, "b/c"]}', '{"x": 1}'),
('edge', 'rope', 'T', '[1, 2]', '{}'),
('edge', 'rope', 'T', 'true', '{}'),
('edge', 'rope', 'T', 'null', '{}'),
('edge', 'rope', 'T', '"str ing"', '{}'),
('edge', 'rope', 'T', '"ident"', '{"T": "ident"}'),
('edge', 'sparsemax', 'V', '{"a": 1}', '{"B": 4, "T": 512}'),
('edge', 'sparsemax', 'V', '"torch.float32"', '{"V": "torch.float32"}'),
('edge', 'sparsemax', 'V', 'null', '{"V": null}'),
('edge', 'sparsemax', 'V', '[16384]', '{"B": [4], "T": 512}'),
('edge', 'lc_tpl', 'N', '1.0', '{"N": 1, "mode": "fast"}'),
('edge', 'lc_tpl', 'dtype', '"torch.float32"', '{"N": 1}'),
('edge', 'lc_tpl', 'A', '3', '{"B": 5}'),
('edge', 'lc_tpl_product', 'B', '"4"', '{"T": 2}'),
('edge', 'unknown_k', 'x', '1', NULL),
('edge_null', 'sparsemax', 'V', NULL, '{"B": 4, "T": 512}'),
('edge_null', 'sparsemax', 'V', '1', NULL),
('edge_null', 'sparsemax', 'V', NULL, NULL),
('edge_null', 'rope', 'T', NULL, '{}'),
('edge_null', 'rope', NULL, '1', '{}'),
('edge_null', NULL, 'T', '1', '{"a": 1}'),
('edge_fail', 'rope', 'T', '1', '[1, {"a": 2}]'),
('edge_fail', 'sparsemax', 'V', '1', '[1, {"a": 2}]'),
('edge_fail', 'rope', 'T', '1', '"x"'),
('edge_fail', 'rope', 'T', '1', '7'),
('edge_fail', 'sparsemax', 'V', '1', 'null'),
('edge_fail', 'rope', 'T', '1e400', '{}'),
('edge_fail', 'rope', 'T', '[1e400]', '{}'),
('edge_fail', 'sparsemax', 'V', '{"a": 1e400}', '{}');

-- Slugs of strings the rows do not have.
INSERT INTO lc_slugs (src, s) VALUES
('edge', 'NVIDIA A100-SXM4-80GB'), ('edge', 'ÄÖÜ Straße'), ('edge', '---'), ('edge', ''),
('edge', '   a   '), ('edge', 'A--B__C..d'), ('edge', 'ÿ'), ('edge', 'MIXED Case 42'),
('edge', repeat('Ab-', 50)), ('edge', E'tab\there\nnewline'), ('edge', 'µ');

\if :utf8
INSERT INTO kernelindex.kernels (name, title, label_template, label_x_name, label_defaults) VALUES
('lc_tpl_utf8', 'Ünïcødé kernel ✓', 'größe{N}-{dtype}-{ключ}', 'N', '{"ключ": "значение"}');
INSERT INTO kernelindex.providers (name, title) VALUES ('lc_prov_utf8', 'Provider ✓ 🎉');
INSERT INTO kernelindex.gpus (name, vendor, product, form_factor, architecture, title) VALUES
('LC GPU ✓', 'lcvendor', 'LC Product ✓', '∞GB', NULL, NULL);
INSERT INTO kernelindex.liger_passes (name, timed) VALUES ('lc_pass ✓', 'a pass ✓');
INSERT INTO lc_rows (src, kernel_name, kernel_provider, kernel_operation_mode, metric_name, x_name, x_label,
	x_value, extra_benchmark_config_str, gpu_name, liger_version) VALUES
('edge', 'lc_tpl_utf8', 'lc_prov_utf8', 'lc_pass ✓', 'speed', 'N', 'größe', '5', '{"dtype": "torch.float32", "ключ": "значение"}', 'LC GPU ✓', '1'),
('edge', 'lc_tpl_utf8', 'lc_prov_utf8', 'lc_pass ✓', 'memory', 'N', 'größe', '5', '{"dtype": "torch.float32", "ключ": "другое", "emoji": "🎉/✓"}', 'LC GPU ✓', '1'),
('edge', 'ядро', 'поставщик', 'проход', 'speed', 'ключ', 'метка', 'значение', '{"ключ": "я", "🎉": "✓"}', 'ＮＶＩＤＩＡ Ｘ', '1'),
('edge_locale', 'rope', 'liger', 'forward', 'speed', 'T', 't', E'5\u00a0', '{}', E'NVIDIA\u00a0A100', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1', '{}', 'İntel x', '1'),
('edge', 'rope', 'liger', 'forward', 'speed', 'T', 't', '1', '{}', 'K Kelvin', '1'),
('edge', repeat('ü', 120), repeat('✓', 60), repeat('é', 99), 'speed', 'N', 'n', '7', '{}', repeat('Ω', 120), '1'),
('edge_fail', 'rope', 'liger', 'forward', 'speed', 'T', 't', E'\u2003 5', '{}', E'NVIDIA\u2003A100', '1'),
('edge_fail', 'rope', 'liger', 'forward', 'speed', 'T', 't', E'5\u3000', '{}', 'X', '1');
INSERT INTO lc_slugs (src, s) VALUES
('edge', 'K Kelvin'), ('edge', 'İstanbul'), ('edge', 'ẞ'), ('edge', 'Ω ohm'), ('edge', 'ǅ'),
('edge', 'émoji 🎉 x'), ('edge', 'ＡＢＣ'), ('edge', E'\u2003space\u2003'), ('edge', 'ﬁ ligature'),
('edge', 'I ı İ i');
\endif
