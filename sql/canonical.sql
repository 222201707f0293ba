-- Canonical JSON (RFC 8785) and digests: kidx_canonical, kidx_canonical_digest,
-- kidx_resource_digest.
\pset null '(null)'

-- The protocol and environment of both reference records hash to exactly the
-- digests their runs carry (records from kernelindex.dev/v1alpha1).
CREATE TABLE reference (name text, run_spec jsonb, protocol jsonb, environment jsonb);
INSERT INTO reference VALUES
('sparsemax-backward-torch-rtx3090',
 '{"protocolDigest": "sha256:080e6e66e4ec75a131aa0c9121c74b8e8eed64e7b6d621d567c6a28f79548be8",
   "environmentDigest": "sha256:b12fdfab6a337672499b10212a1e986e49e4383777bd7cbb58321b09af4bf6a3"}',
 '{"kind": "BenchmarkProtocol", "spec": {"harness": {"name": "Liger-Kernel benchmark scripts", "repository": "https://github.com/linkedin/Liger-Kernel"}, "measurement": {"timer": "cuda_events", "primaryStatistic": "median"}, "comparability": {"notes": "Timed: the backward pass of the module output given a random upstream gradient, via triton.testing.do_bench with quantiles 0.5/0.2/0.8 (median with p20/p80 spread). The upstream CSV records no CUDA, driver, or torch version; the Liger release rides each run''s labels. Comparable only within one kernel, workload, timed pass, and GPU.", "family": "liger_kernel_bench"}}, "metadata": {"name": "liger-bench-do-bench-backward", "title": "Liger benchmark harness · backward pass"}, "apiVersion": "kernelindex.dev/v1alpha1"}',
 '{"kind": "ExecutionEnvironment", "spec": {"hardware": {"vendor": "nvidia", "product": "NVIDIA GeForce RTX 3090", "architecture": "sm_86"}, "software": {}}, "metadata": {"name": "liger-bench-nvidia-geforce-rtx-3090", "title": "Liger benchmark host · GeForce RTX 3090"}, "apiVersion": "kernelindex.dev/v1alpha1"}'),
('grpo-sequence-forward-torch-a100',
 '{"protocolDigest": "sha256:a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747",
   "environmentDigest": "sha256:90c9e2764222f592477cfccf3373519add5a1b881563956ad058c4f99e41b6b9"}',
 '{"kind": "BenchmarkProtocol", "spec": {"harness": {"name": "Liger-Kernel benchmark scripts", "repository": "https://github.com/linkedin/Liger-Kernel"}, "measurement": {"timer": "cuda_events", "primaryStatistic": "median"}, "comparability": {"notes": "Timed: the module forward pass, via triton.testing.do_bench with quantiles 0.5/0.2/0.8 (median with p20/p80 spread). The upstream CSV records no CUDA, driver, or torch version; the Liger release rides each run''s labels. Comparable only within one kernel, workload, timed pass, and GPU.", "family": "liger_kernel_bench"}}, "metadata": {"name": "liger-bench-do-bench-forward", "title": "Liger benchmark harness · forward pass"}, "apiVersion": "kernelindex.dev/v1alpha1"}',
 '{"kind": "ExecutionEnvironment", "spec": {"hardware": {"vendor": "nvidia", "product": "NVIDIA A100", "formFactor": "SXM4-80GB", "architecture": "sm_80"}, "software": {}}, "metadata": {"name": "liger-bench-nvidia-a100-sxm4-80gb", "title": "Liger benchmark host · A100-SXM4-80GB"}, "apiVersion": "kernelindex.dev/v1alpha1"}');

SELECT name,
       kidx_resource_digest(protocol) = (run_spec->>'protocolDigest')::kidx_digest AS protocol_matches,
       kidx_resource_digest(environment) = (run_spec->>'environmentDigest')::kidx_digest AS environment_matches
FROM reference ORDER BY name;

-- The identity is the canonical {apiVersion, kind, spec}: metadata is not part of it.
SELECT name, kidx_canonical(environment - 'metadata') FROM reference ORDER BY name;
SELECT count(*) AS same_digest FROM reference
WHERE kidx_resource_digest(protocol) = kidx_resource_digest(protocol - 'metadata')
  AND kidx_resource_digest(protocol) = kidx_resource_digest(jsonb_set(protocol, '{metadata,title}', '"other"'))
  AND kidx_resource_digest(protocol) = kidx_canonical_digest(protocol - 'metadata');

-- RFC 8785 section 3.2.2's sample object.  Its first number,
-- 333333333.33333329, is not the decimal value of any double (the nearest
-- prints as 333333333.3333333), so kernelindex refuses it rather than change it;
-- with that number written exactly, the output is the RFC's.
SELECT kidx_canonical('{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA''\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}');
SELECT kidx_canonical('{
  "numbers": [333333333.3333333, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA''\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}');

-- RFC 8785 section 3.2.3's sorting example: UTF-16 code unit order.
SELECT kidx_canonical('{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}');

-- RFC 8785 Appendix B: IEEE 754 bit patterns and their canonical text, through
-- jsonb's decimal (the double as written by Python's repr).
CREATE TABLE rfc_numbers (bits text, written text, expected text);
INSERT INTO rfc_numbers VALUES
('0000000000000000', '0.0', '0'),
('8000000000000000', '-0.0', '0'),
('0000000000000001', '5e-324', '5e-324'),
('8000000000000001', '-5e-324', '-5e-324'),
('7fefffffffffffff', '1.7976931348623157e+308', '1.7976931348623157e+308'),
('ffefffffffffffff', '-1.7976931348623157e+308', '-1.7976931348623157e+308'),
('4340000000000000', '9007199254740992.0', '9007199254740992'),
('c340000000000000', '-9007199254740992.0', '-9007199254740992'),
('4430000000000000', '2.9514790517935283e+20', '295147905179352830000'),
('44b52d02c7e14af5', '9.999999999999997e+22', '9.999999999999997e+22'),
('44b52d02c7e14af6', '1e+23', '1e+23'),
('44b52d02c7e14af7', '1.0000000000000001e+23', '1.0000000000000001e+23'),
('444b1ae4d6e2ef4e', '9.999999999999997e+20', '999999999999999700000'),
('444b1ae4d6e2ef4f', '9.999999999999999e+20', '999999999999999900000'),
('444b1ae4d6e2ef50', '1e+21', '1e+21'),
('3eb0c6f7a0b5ed8c', '9.999999999999997e-07', '9.999999999999997e-7'),
('3eb0c6f7a0b5ed8d', '1e-06', '0.000001'),
('41b3de4355555553', '333333333.3333332', '333333333.3333332'),
('41b3de4355555554', '333333333.33333325', '333333333.33333325'),
('41b3de4355555555', '333333333.3333333', '333333333.3333333'),
('41b3de4355555556', '333333333.3333334', '333333333.3333334'),
('41b3de4355555557', '333333333.33333343', '333333333.33333343'),
('becbf647612f3696', '-3.3333333333333333e-06', '-0.0000033333333333333333'),
('43143ff3c1cb0959', '1424953923781206.2', '1424953923781206.2');
SELECT bits, written, kidx_canonical(written::jsonb) AS canonical,
       kidx_canonical(written::jsonb) = expected AS ok
FROM rfc_numbers ORDER BY bits;
-- PostgreSQL prints the double nearest 1e23 (an exact tie between two
-- decimals) as 9.999999999999999e+22, which is not the value that double
-- prints back as in ECMAScript (1e+23): to_jsonb(float8) of it is refused.
SELECT '1e23'::float8::text AS postgres_text, kidx_canonical('1e23') AS canonical;
SELECT kidx_canonical(to_jsonb('1e23'::float8));
SELECT count(*) AS agree_via_float8 FROM rfc_numbers
WHERE bits <> '44b52d02c7e14af6' AND kidx_canonical(to_jsonb(written::float8)) = expected;

-- Formatting boundaries.
SELECT x, kidx_canonical(x::jsonb)
FROM unnest(ARRAY['-0', '0.0', '100', '1E2', '1.50', '123456789012345680000', '1e20', '1e21',
                  '0.0000001', '1e-7', '0.000001', '1.5e-7', '-1e-7', '9007199254740991',
                  '9007199254740992', '2.628607988357544', '94.83366394042969',
                  '2.2250738585072014e-308', '5e-324']) AS x;

-- Numbers a double cannot carry exactly, or at all: 22003 with a hint.
SELECT kidx_canonical('9007199254740993');
SELECT kidx_canonical('[1, {"a": 0.30000000000000001}]');
SELECT kidx_canonical('1e400');
SELECT kidx_canonical('-1e400');
SELECT kidx_canonical('1e-400');
SELECT kidx_canonical('2.4703282292062328e-324');
SELECT kidx_canonical('4.9406564584124654e-324');
SELECT kidx_canonical('0.1000000000000000055511151231257827021181583404541015625');
SELECT kidx_canonical(('0.' || repeat('3', 100))::jsonb);
SELECT kidx_canonical('12345678901234567890123456789012345678901234567890.5');
SELECT kidx_canonical_digest('{"x": 9007199254740993}');
-- The message names the refused number's JSON path; with several, the first
-- in canonical order ("a" before "b", whatever jsonb's own order).
SELECT kidx_canonical('{"bb": [1, 1e400], "a": {"x y": [2, {"é": 1e-400}]}}');
SELECT kidx_canonical_digest('{"bb": [1, 1e400], "a": 1}');

-- Strings: only '"', '\' and control characters are escaped; DEL, '/', U+2028
-- and everything else are written as UTF-8.
SELECT kidx_canonical(to_jsonb(string_agg(chr(c), '' ORDER BY c))) FROM generate_series(1, 31) AS c;
SELECT kidx_canonical(to_jsonb(E'quote " backslash \\ slash / del \x7f é € 😀 \u2028 \uffff'::text)) AS c, encode(convert_to(kidx_canonical(to_jsonb(E'\x7f\u2028'::text)), 'UTF8'), 'hex') AS bytes;
SELECT kidx_canonical('{"a\u0001b": "\b\f\n\r\t"}');

-- Scalars, empty containers, nesting, NULL.
SELECT x, kidx_canonical(x::jsonb)
FROM unnest(ARRAY['null', 'true', 'false', '"s"', '1.5', '[]', '{}', '[[]]', '{"a":{}}',
                  '[1, [2, [3, {"b": [], "a": null}]]]', '{"b": 1, "a": 2, "aa": 3, "": 4}']) AS x;
SELECT kidx_canonical(NULL), kidx_canonical_digest(NULL), kidx_resource_digest(NULL);

-- Deep nesting works; deeper than the stack allows is a clean error.
CREATE TABLE deep AS
SELECT (repeat('[', 5000) || '1' || repeat(']', 5000))::jsonb AS j;
SELECT length(kidx_canonical(j)), kidx_canonical_digest(j) = sha256(convert_to(kidx_canonical(j), 'UTF8'))::kidx_digest AS digest_ok FROM deep;
SET max_stack_depth = '100kB';
SELECT kidx_canonical(j) IS NOT NULL FROM deep;
SELECT kidx_canonical_digest(j) IS NOT NULL FROM deep;
RESET max_stack_depth;

-- The streamed digest equals SHA-256 of the canonical text, for documents
-- smaller and larger than the 4 kB hashing buffer.
SELECT n, kidx_canonical_digest(doc) = sha256(convert_to(kidx_canonical(doc), 'UTF8'))::kidx_digest AS same
FROM (SELECT n, jsonb_object_agg('k' || i, repeat('é', i)) AS doc
      FROM generate_series(1, 200) AS n, generate_series(1, n) AS i
      WHERE n IN (1, 10, 60, 200) GROUP BY n) s ORDER BY n;
SELECT kidx_canonical_digest('{}'), kidx_canonical_digest('null'), kidx_canonical_digest('"é"');

-- kidx_resource_digest refuses what is not a resource, naming what is wrong.
SELECT kidx_resource_digest('[1]');
SELECT kidx_resource_digest('"BenchmarkRun"');
SELECT kidx_resource_digest('{"kind": "BenchmarkRun", "spec": {}}');
SELECT kidx_resource_digest('{"apiVersion": "kernelindex.dev/v1alpha1", "kind": 7, "spec": {}}');
SELECT kidx_resource_digest('{"apiVersion": "kernelindex.dev/v1alpha1", "kind": "BenchmarkRun"}');
SELECT kidx_resource_digest('{"apiVersion": "kernelindex.dev/v1alpha1", "kind": "BenchmarkRun", "spec": []}');
SELECT kidx_resource_digest('{"apiVersion": "kernelindex.dev/v1alpha1", "kind": "BenchmarkRun", "spec": {"v": 1e400}}');
SELECT kidx_resource_digest('{"apiVersion": "kernelindex.dev/v1alpha1", "kind": "BenchmarkRun", "spec": {}}');

DROP TABLE reference, rfc_numbers, deep;
