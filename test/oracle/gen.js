#!/usr/bin/env node
// RFC 8785 oracle generator for kidx_canonical.
//
//   node gen.js [--seed 42] [--count 10000] --out DIR [--plain-numbers]
//
// Writes DIR/docs.jsonl (one JSON document per line, as PostgreSQL's jsonb
// input will read it) and DIR/expected.txt (line i = canonicalize(JSON.parse(
// line i of docs.jsonl)), computed by `canonicalize`, the JS reference
// implementation of RFC 8785).  The output is a pure function of seed and count.
//
// Constraints imposed by PostgreSQL jsonb, honoured here:
//   - no U+0000 anywhere (jsonb rejects \u0000), no lone surrogates;
//   - every number is a decimal that a double carries exactly in the sense of
//     doc/reference.md, "Canonical JSON and digests": its value equals the value of String(x) for the double x it
//     parses to (normally it *is* String(x); unless --plain-numbers is given,
//     about 6% are respelled as an equal decimal: 1E2, 100.0, 1.50, 0.1e3, -0);
//   - no NaN / Infinity;
//   - no duplicate keys (compared after unescaping);
//   - no raw LF / CR inside a line (between tokens only spaces and tabs).
'use strict';

const fs = require('fs');
const path = require('path');
const canonicalize = require('canonicalize');

// ---------------------------------------------------------------- arguments
function parseArgs(argv) {
  const a = { seed: 42, count: 10000, out: null, plainNumbers: false };
  for (let i = 2; i < argv.length; i++) {
    const k = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) throw new Error(`missing value for ${k}`);
      return argv[++i];
    };
    if (k === '--seed') a.seed = Number(v());
    else if (k === '--count') a.count = Number(v());
    else if (k === '--out') a.out = v();
    else if (k === '--plain-numbers') a.plainNumbers = true;
    else if (k === '-h' || k === '--help') {
      process.stdout.write('usage: node gen.js [--seed N] [--count N] --out DIR [--plain-numbers]\n');
      process.exit(0);
    } else throw new Error(`unknown argument ${k}`);
  }
  if (!a.out) throw new Error('--out DIR is required');
  if (!Number.isInteger(a.seed) || !Number.isInteger(a.count) || a.count < 0) {
    throw new Error('--seed and --count must be integers');
  }
  return a;
}

// ---------------------------------------------------------------- PRNG
// mulberry32: small, fast, fully determined by the 32-bit seed.
function mulberry32(seed) {
  let s = seed >>> 0;
  return function next() {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0);
  };
}

let u32; // set in main()
const rnd = () => u32() / 4294967296;              // [0,1)
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1)); // inclusive
const chance = (p) => rnd() < p;
const pick = (arr) => arr[Math.floor(rnd() * arr.length)];

// ---------------------------------------------------------------- doubles
const f64 = new Float64Array(1);
const u32v = new Uint32Array(f64.buffer); // little-endian on every Node platform we run
function fromBits(hi, lo) { u32v[1] = hi >>> 0; u32v[0] = lo >>> 0; return f64[0]; }
function nextUp(x) {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return 5e-324;
  f64[0] = x;
  let lo = u32v[0], hi = u32v[1];
  if (x > 0) { lo = (lo + 1) >>> 0; if (lo === 0) hi = (hi + 1) >>> 0; }
  else { if (lo === 0) hi = (hi - 1) >>> 0; lo = (lo - 1) >>> 0; }
  return fromBits(hi, lo);
}
const nextDown = (x) => -nextUp(-x);

const MAXD = 1.7976931348623157e308;
const TWO53 = 9007199254740992;

// Fixed values at the ECMAScript formatting boundaries and other edges.
const BOUNDARY = (() => {
  const b = [
    0, -0, 1, -1, 2, 10, 100, 0.5, 0.1, 0.2, 0.3, 0.30000000000000004, 1 / 3, 2 / 3,
    2.628607988357544, 2.629631996154785, 2.6306560039520264, 94.83366394042969,
    // 1e21: last integer-notation power and first exponent-notation one
    1e21, nextDown(1e21), nextUp(1e21), 1e20, nextUp(1e20), 1e22, 999999999999999900000,
    123456789012345680000, 1.2345678901234568e21, 9.999999999999999e20,
    // 1e-7 / 1e-6: where toString switches between 0.00000x and xe-7
    1e-7, nextDown(1e-7), nextUp(1e-7), 1e-6, nextDown(1e-6), nextUp(1e-6),
    1.5e-7, 9.99e-7, 9.999999999999998e-8, 1.234e-6, 0.000001, 0.0000012345678901234567, 1e-5,
    // subnormals, min normal, largest double
    5e-324, 1e-323, 1.5e-323, 2.5e-323, nextUp(1e-323), 2.225073858507201e-308,
    2.2250738585072014e-308, nextUp(2.2250738585072014e-308), 4.9406564584124654e-324,
    1e-310, 1.2345e-315, MAXD, nextDown(MAXD), 1e308, 8.98846567431158e307,
    // integers around 2^53 that a double carries exactly
    TWO53, TWO53 - 1, TWO53 - 2, TWO53 + 2, TWO53 + 4, 2 * TWO53, 4 * TWO53 + 8,
    2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 52, 2 ** 52 + 1, 2 ** 60, 2 ** 63, 2 ** 64,
    1e15, 1e16, 1e17, 123456789012345, 1234567890123456, 12345678901234568,
    // shortest-digit edge cases (Ryu / Grisu torture values)
    5e-310, 1.7976931348623157e300, 2.2250738585072011e-308, 9007199254740993 - 1,
    0.1 + 0.7, 1.1 * 1.1, 4.35, 4.345, 1.005, 123e-20, 1.7e-7, 9.5367431640625e-7,
    0.000001 * 3, 1e23, 8.41e21, 5.0e-324 * 3, 2 ** -1074 * 12345, 2 ** -1022, 2 ** 1023,
    29.999999999999996, 1.0000000000000002, 0.9999999999999999, 1e-100, 1e100, 1e-300,
  ];
  const out = [];
  for (const x of b) { out.push(x); if (x !== 0) out.push(-x); }
  return out;
})();

// "Tie" doubles: the shortest decimal D*10^e lies exactly on the midpoint
// between two doubles (and parses, ties-to-even, to this one).  ECMAScript
// prints D*10^e (1e+23, 8.41e+21, 590310000000000000000); an algorithm that
// does not accept interval bounds prints a longer string -- PostgreSQL's own
// float8out does: 1e23::float8::text = '9.999999999999999e+22'.
const TIES = (() => {
  const t = [];
  const f = new Float64Array(1);
  const b = new BigUint64Array(f.buffer);
  for (let e = 15; e <= 40; e++) {
    const p = 10n ** BigInt(e);
    for (let D = 1; D <= 999; D++) {
      if (D % 10 === 0) continue;
      const x = BigInt(D) * p;
      if (x < 2n ** 53n) continue;
      const d = Number(x);
      f[0] = d; b[0] += 1n;
      const ulp = BigInt(f[0]) - BigInt(d);
      const diff = x > BigInt(d) ? x - BigInt(d) : BigInt(d) - x;
      if (2n * diff === ulp) t.push(d);
    }
  }
  return t;
})();

function randomBitsDouble() {
  for (;;) {
    const x = fromBits(u32(), u32());
    if (Number.isFinite(x)) return x;
  }
}

function randomNumber() {
  for (;;) {
    const x = randomNumber1();
    if (Number.isFinite(x)) return x;
  }
}

function randomNumber1() {
  const r = rnd();
  if (r < 0.19) return pick(BOUNDARY);
  if (r < 0.22) return (chance(0.5) ? -1 : 1) * pick(TIES);
  if (r < 0.42) return int(-100, 100);                      // small ints
  if (r < 0.50) return int(-2147483648, 2147483647);
  if (r < 0.56) return (chance(0.5) ? -1 : 1) * Math.floor(rnd() * TWO53); // exact ints < 2^53
  if (r < 0.70) return randomBitsDouble();                   // random bit patterns
  if (r < 0.80) {                                            // mantissa . 10^e
    const digits = int(1, 17);
    let m = String(int(1, 9));
    for (let i = 1; i < digits; i++) m += String(int(0, 9));
    const x = Number(`${chance(0.2) ? '-' : ''}${m}e${int(-340, 310)}`);
    return Number.isFinite(x) ? x : 1e300;
  }
  if (r < 0.90) {                                            // harness-like timings
    return Math.fround(rnd() * 10 ** int(-3, 4));
  }
  if (r < 0.95) return (rnd() - 0.5) * 10 ** int(-9, 25);     // around the boundaries
  const b = pick(BOUNDARY);                                  // neighbours of boundaries
  return chance(0.5) ? nextUp(b) : nextDown(b);
}

// Respell String(x) as another JSON number with exactly the same decimal value.
function respell(x) {
  let s = String(x);
  if (Object.is(x, -0)) return pick(['-0', '-0.0', '-0e0', '-0E+5', '-0.000e-3']);
  if (x === 0) return pick(['0.0', '0e0', '0E-10', '0.00']);
  let sign = '';
  if (s[0] === '-') { sign = '-'; s = s.slice(1); }
  // digits and decimal exponent: value = 0.DIGITS * 10^exp
  let mant = s, e = 0;
  const ei = s.indexOf('e');
  if (ei >= 0) { mant = s.slice(0, ei); e = Number(s.slice(ei + 1)); }
  let dot = mant.indexOf('.');
  let intPart = dot < 0 ? mant : mant.slice(0, dot);
  let frac = dot < 0 ? '' : mant.slice(dot + 1);
  let digits = (intPart + frac).replace(/^0+/, '');
  const lead = (intPart + frac).length - digits.length;
  let exp = intPart.length + e - lead; // value = 0.digits * 10^exp
  digits = digits.replace(/0+$/, '');
  const form = int(0, 4);
  if (form === 0) { // d.ddd000E+xx  (scientific, uppercase, padded)
    const m = digits[0] + '.' + (digits.slice(1) || '0') + '0'.repeat(int(0, 3));
    const ex = exp - 1;
    return `${sign}${m}${pick(['E', 'e'])}${ex >= 0 ? pick(['+', '']) : ''}${ex}`;
  }
  if (form === 1) { // 0.ddd e exp
    return `${sign}0.${digits}e${exp >= 0 ? '+' : ''}${exp}`;
  }
  if (form === 2) { // ddd e (exp-len)
    const ex = exp - digits.length;
    return `${sign}${digits}${pick(['e', 'E'])}${ex}`;
  }
  if (form === 3 && exp >= -30 && exp <= 40) { // plain decimal with trailing zeros
    let t;
    if (exp <= 0) t = '0.' + '0'.repeat(-exp) + digits;
    else if (exp >= digits.length) t = digits + '0'.repeat(exp - digits.length);
    else t = digits.slice(0, exp) + '.' + digits.slice(exp);
    if (!t.includes('.')) t += '.';
    t += '0'.repeat(int(1, 4));
    return sign + t;
  }
  // form 4: with exponent and fraction digits shifted
  const k = int(1, 3);
  const ex = exp - digits.length - k;
  return `${sign}${digits}${'0'.repeat(k)}e${ex}`;
}

let plainNumbers = false;
function numberText(x) {
  if (!plainNumbers && chance(0.06)) return respell(x);
  return String(x); // JS shortest round-trip = ECMAScript Number::toString
}

// ---------------------------------------------------------------- strings
// Code points grouped by what they exercise.
const CTRL = [];
for (let c = 1; c < 0x20; c++) CTRL.push(c);
CTRL.push(0x7f);
const SPECIAL = [0x22, 0x5c, 0x2f, 0x7f, 0x2028, 0x2029, 0x85, 0xa0, 0xfeff, 0x200b, 0x20ac];
const HIGHBMP = [0xe000, 0xe001, 0xf8ff, 0xfb33, 0xfb1d, 0xff21, 0xff5e, 0xfffd, 0xfffe, 0xffff,
  0xfe0f, 0xfdd0, 0xfffc];
const ASTRAL = [0x10000, 0x10001, 0x1f600, 0x1f601, 0x1f4a9, 0x1d11e, 0x20000, 0x2a6d6,
  0x1f1fa, 0x1f1f8, 0xe0001, 0xf0000, 0x10fffd, 0x10fffe, 0x10ffff, 0x1f9d1];
const BMPMID = [0xe9, 0xdf, 0xfc, 0x3a9, 0x416, 0x5d0, 0x627, 0x915, 0x4e2d, 0x6587, 0xac00,
  0x3042, 0x30a2, 0xd7ff, 0xd7a3, 0x2603, 0x1e9e, 0x0301];

function randomCodePoint() {
  const r = rnd();
  if (r < 0.45) return int(0x20, 0x7e);        // printable ASCII (incl " and \)
  if (r < 0.55) return pick(CTRL);
  if (r < 0.62) return pick(SPECIAL);
  if (r < 0.72) return pick(HIGHBMP);
  if (r < 0.82) return pick(ASTRAL);
  if (r < 0.88) return pick(BMPMID);
  if (r < 0.94) {                              // any BMP scalar except surrogates/NUL
    for (;;) { const c = int(1, 0xffff); if (c < 0xd800 || c > 0xdfff) return c; }
  }
  return int(0x10000, 0x10ffff);               // any astral
}

function randomString(maxLen) {
  const n = int(0, maxLen);
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCodePoint(randomCodePoint());
  return s;
}

// Key pools that share prefixes and straddle the UTF-16 vs UTF-8/code point
// order difference: astral (D800..DFFF units) sorts *before* U+E000..U+FFFF in
// UTF-16 but after it in UTF-8 bytes / code points.
const KEY_STEMS = ['', 'a', 'ab', 'b', 'aa', 'A', 'Z', '_', '1', '10', '2', 'key', 'k\u00e9y',
  '\u00e9', 'z', '~', '\u007f', '\u0080'];
const KEY_TAILS = ['', 'a', 'b', '\u0001', '\u001f', ' ', '"', '\\', '\u007f', '\u00ff', '\ue000',
  '\ufb33', '\ufffd', '\uffff', '\u{10000}', '\u{1f600}', '\u{10ffff}', '\u{1f601}', '\u2028',
  '\ud7ff', '0', '00', 'aa', '\u{1f600}\u{1f600}', '\ufb33a', '\u{10000}a'];

function randomKey() {
  const r = rnd();
  if (r < 0.55) return pick(KEY_STEMS) + pick(KEY_TAILS) + (chance(0.3) ? pick(KEY_TAILS) : '');
  if (r < 0.75) return randomString(6);
  const names = ['apiVersion', 'kind', 'metadata', 'spec', 'name', 'title', 'labels', 'status',
    'timing', 'latencyNs', 'median', 'observedAt', 'measurements', 'unit', 'value', 'metric',
    'statistic', 'sourceNative', 'externalId', 'protocolDigest', 'workloadDigest'];
  return pick(names) + (chance(0.3) ? pick(KEY_TAILS) : '');
}

// ---------------------------------------------------------------- values
// Values are built as a small AST so that the serializer controls member
// order and escaping: {t:'o', m:[[k,v],...]} | {t:'a', v:[...]} | {t:'s', v}
// | {t:'n', v} | {t:'l', v: true|false|null}.
function scalar() {
  const r = rnd();
  if (r < 0.45) return { t: 'n', v: randomNumber() };
  if (r < 0.85) return { t: 's', v: randomString(chance(0.05) ? 60 : 10) };
  return { t: 'l', v: pick([true, false, null]) };
}

function object(depth, width) {
  const seen = new Set();
  const m = [];
  for (let i = 0; i < width; i++) {
    let k = randomKey();
    let tries = 0;
    while (seen.has(k)) { k = randomKey() + String(tries++); }
    seen.add(k);
    m.push([k, value(depth + 1)]);
  }
  return { t: 'o', m };
}

function value(depth) {
  const r = rnd();
  if (depth > 6 || r < 0.5 + 0.08 * depth) return scalar();
  if (r < 0.78 + 0.03 * depth) return object(depth, int(0, 6));
  const n = int(0, 6);
  const v = [];
  for (let i = 0; i < n; i++) v.push(value(depth + 1));
  return { t: 'a', v };
}

// Object whose keys all come from one family, to exercise ordering hard.
function orderingObject() {
  const stems = ['', 'a', 'ab', 'x\u{1f600}', '\ufb33', '\u{10000}'];
  const stem = pick(stems);
  const seen = new Set();
  const m = [];
  const n = int(5, 40);
  for (let i = 0; i < n; i++) {
    const k = stem + pick(KEY_TAILS) + (chance(0.4) ? pick(KEY_TAILS) : '');
    if (seen.has(k)) continue;
    seen.add(k);
    m.push([k, chance(0.7) ? { t: 'n', v: int(0, 999) } : scalar()]);
  }
  return { t: 'o', m };
}

function deep(levels) {
  let v = scalar();
  for (let i = 0; i < levels; i++) {
    const r = rnd();
    if (r < 0.45) v = { t: 'a', v: chance(0.3) ? [v, scalar()] : [v] };
    else if (r < 0.9) v = { t: 'o', m: [[randomKey(), v]] };
    else {
      const o = object(99, int(1, 2));
      const keys = new Set(o.m.map((p) => p[0]));
      let k = randomKey();
      while (keys.has(k)) k += 'x';
      o.m.push([k, v]);
      v = o;
    }
  }
  return v;
}

function wide() {
  if (chance(0.5)) {
    const n = int(100, 400);
    const v = [];
    for (let i = 0; i < n; i++) v.push(chance(0.9) ? scalar() : value(6));
    return { t: 'a', v };
  }
  const o = object(6, int(100, 300));
  return o;
}

// Shaped like the reference records (kernelindex.dev/v1alpha1 bundles).
function recordLike() {
  const ms = () => Math.fround(rnd() * 10 ** int(-2, 3));
  const ns = () => Math.round(rnd() * 1e9);
  const d = () => 'sha256:' + Array.from({ length: 64 }, () => '0123456789abcdef'[int(0, 15)]).join('');
  const j = (o) => ({ t: 'o', m: Object.entries(o).map(([k, v]) => [k, toAst(v)]) });
  const run = {
    kind: 'BenchmarkRun',
    spec: {
      status: 'passed',
      timing: { latencyNs: { median: ns() }, primaryStatistic: 'median' },
      observedAt: new Date(1.7e12 + int(0, 1e9) * 1000).toISOString(),
      measurements: [
        { unit: 'ns', value: ns(), metric: 'latency', statistic: 'p20' },
        { unit: 'ns', value: ns(), metric: 'latency', statistic: 'p80' },
      ],
      sourceNative: {
        source: 'liger-kernel-bench',
        metrics: { ms_20: ms(), ms_50: ms(), ms_80: ms() },
        benchmark: 'sparsemax/backward',
        externalId: 'sparsemax/backward/torch/nvidia-geforce-rtx-3090/features16384-tokens2048-fp32/' + int(0, 1e6),
      },
      protocolDigest: d(), workloadDigest: d(), environmentDigest: d(), implementationDigest: d(),
    },
    metadata: { name: 'liger-sparsemax-' + int(0, 1e6), title: 'Sparsemax \u00b7 torch \u00b7 backward',
      labels: { liger_version: '0.5.' + int(0, 9) } },
    apiVersion: 'kernelindex.dev/v1alpha1',
  };
  return j({ run, environment: { kind: 'ExecutionEnvironment', spec: { hardware: { vendor: 'nvidia',
    product: 'NVIDIA A100', formFactor: 'SXM4-80GB', architecture: 'sm_80' }, software: {} },
    metadata: { name: 'liger-bench-nvidia-a100-sxm4-80gb', title: 'Liger benchmark host \u00b7 A100-SXM4-80GB' },
    apiVersion: 'kernelindex.dev/v1alpha1' } });
}

function toAst(v) {
  if (v === null || typeof v === 'boolean') return { t: 'l', v };
  if (typeof v === 'number') return { t: 'n', v };
  if (typeof v === 'string') return { t: 's', v };
  if (Array.isArray(v)) return { t: 'a', v: v.map(toAst) };
  return { t: 'o', m: Object.entries(v).map(([k, x]) => [k, toAst(x)]) };
}

// ---------------------------------------------------------------- serializer
const SHORT_ESC = { 0x22: '\\"', 0x5c: '\\\\', 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r' };
const hex4 = (u) => {
  const h = u.toString(16).padStart(4, '0');
  return '\\u' + (chance(0.5) ? h : h.toUpperCase());
};

function strText(s) {
  let out = '"';
  for (const ch of s) {               // iterates by code point
    const c = ch.codePointAt(0);
    if (c < 0x20 || c === 0x22 || c === 0x5c) {
      out += (SHORT_ESC[c] && chance(0.7)) ? SHORT_ESC[c] : hex4(c);
    } else if (c === 0x2f && chance(0.3)) {
      out += '\\/';
    } else if (chance(0.08)) {        // gratuitous \u escape (pairs for astral)
      if (c > 0xffff) {
        const v = c - 0x10000;
        out += hex4(0xd800 + (v >> 10)) + hex4(0xdc00 + (v & 0x3ff));
      } else out += hex4(c);
    } else out += ch;
  }
  return out + '"';
}

const ws = () => (chance(0.9) ? '' : pick([' ', '  ', '\t', ' \t ']));

function ser(v) {
  switch (v.t) {
    case 'n': return numberText(v.v);
    case 's': return strText(v.v);
    case 'l': return String(v.v);
    case 'a': return '[' + ws() + v.v.map((x) => ser(x)).join(ws() + ',' + ws()) + ws() + ']';
    case 'o': {
      const m = v.m.slice();
      for (let i = m.length - 1; i > 0; i--) { const j = int(0, i); [m[i], m[j]] = [m[j], m[i]]; }
      return '{' + ws() + m.map(([k, x]) => strText(k) + ws() + ':' + ws() + ser(x)).join(ws() + ',' + ws()) + ws() + '}';
    }
    default: throw new Error('bad node');
  }
}

// ---------------------------------------------------------------- documents
// A few fixed documents first, so that every run with count >= their number
// covers the named edges regardless of the seed.
function fixedDocs() {
  const F = [
    '{}', '[]', 'true', 'false', 'null', '0', '-0', '""', '[{},[],""]',
    '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}',
    '{"numbers":[333333333.3333333,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    '[1e23,8.41e21,590310000000000000000,5e22,9.5e21,-1e23,1e21,999999999999999900000,1.0000000000000001e+21,1e-7,9.999999999999998e-8,1.0000000000000001e-7,1e-6,9.999999999999997e-7,0.0000010000000000000002,5e-324,1.7976931348623157e+308,9007199254740992,-9007199254740992,2.628607988357544]',
    '{"\\ue000":1,"\\ud800\\udc00":2,"\\udbff\\udfff":3,"\\ufffd":4,"\\ud83d\\ude00":5,"\\ufb33":6,"\\uffff":7,"b":8,"aa":9,"":10,"a":11}',
    '{"a":1,"a\\u0001":2,"a\\u001f":3,"a ":4,"a\\"":5,"a\\\\":6,"a\\u007f":7,"a\\ue000":8,"a\\ud83d\\ude00":9,"ab":10}',
    '[-0,-0.0,-0e-5,0e10,0.000,1E2,1e+2,100.0,1.50,0.1e1,10e-1,1.0E-7,0.000001000,4.35e0,1e0,12E-1,5E-324,17976931348623157e292]',
    '{"2":0,"10":1,"1":2,"01":3,"-1":4,"1.5":5,"__proto__":6,"toJSON":7,"constructor":8,"":9}',
    '"\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\\u007f\\"\\\\/\\u2028\\u2029"',
  ];
  return F;
}

function document(i) {
  const r = rnd();
  let v;
  if (r < 0.06) v = scalar();                        // top-level scalar
  else if (r < 0.10) v = pick([{ t: 'o', m: [] }, { t: 'a', v: [] }, { t: 'a', v: [{ t: 'o', m: [] }, { t: 'a', v: [] }] }]);
  else if (r < 0.30) v = orderingObject();
  else if (r < 0.35) v = deep(chance(0.3) ? int(150, 200) : int(10, 150));
  else if (r < 0.38) v = wide();
  else if (r < 0.50) v = recordLike();
  else if (r < 0.62) {                                // array of numbers
    const n = int(1, 40);
    v = { t: 'a', v: Array.from({ length: n }, () => ({ t: 'n', v: randomNumber() })) };
  } else v = object(0, int(1, 12));
  return { line: ser(v), tree: v };
}

// The value a generated tree means, as JSON.parse would build it (keys as
// own enumerable properties, "__proto__" included).
function fromTree(v) {
  switch (v.t) {
    case 'a': return v.v.map(fromTree);
    case 'o': {
      const o = {};
      for (const [k, x] of v.m) {
        Object.defineProperty(o, k, { value: fromTree(x), enumerable: true, writable: true, configurable: true });
      }
      return o;
    }
    default: return v.v;
  }
}

// ---------------------------------------------------------------- self-check
// Every number token must have the same decimal value as String(Number(tok)),
// i.e. be a value the double carries exactly in the sense of doc/reference.md,
// "Canonical JSON and digests".
function decKey(tok) {
  let s = tok.replace(/^-/, '');
  let e = 0;
  const ei = s.search(/[eE]/);
  if (ei >= 0) { e = Number(s.slice(ei + 1)); s = s.slice(0, ei); }
  const dot = s.indexOf('.');
  const ip = dot < 0 ? s : s.slice(0, dot);
  const fp = dot < 0 ? '' : s.slice(dot + 1);
  let d = ip + fp;
  let exp = ip.length + e;
  const z = d.length - d.replace(/^0+/, '').length;
  d = d.slice(z); exp -= z;
  d = d.replace(/0+$/, '');
  if (d === '') return '0';
  return (tok[0] === '-' ? '-' : '') + '0.' + d + 'e' + exp;
}
const NUMTOK = /"(?:[^"\\]|\\.)*"|(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;
function checkNumbers(line, lineNo) {
  let m;
  NUMTOK.lastIndex = 0;
  while ((m = NUMTOK.exec(line)) !== null) {
    if (m[1] === undefined) continue;
    const x = Number(m[1]);
    if (!Number.isFinite(x) || decKey(m[1]) !== decKey(String(x))) {
      throw new Error(`doc ${lineNo}: number ${m[1]} is not exactly the double ${String(x)}`);
    }
  }
}

// Whether a string has no lone surrogates (String.prototype.isWellFormed
// needs Node.js 20; Debian 12 ships 18).
function isWellFormed(s) {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

function main() {
  const args = parseArgs(process.argv);
  plainNumbers = args.plainNumbers;
  u32 = mulberry32(args.seed);
  fs.mkdirSync(args.out, { recursive: true });
  const docs = [];
  const exp = [];
  const fixed = fixedDocs();
  let misread = 0;
  for (let i = 0; i < args.count; i++) {
    const doc = i < fixed.length ? { line: fixed[i], tree: null } : document(i);
    const line = doc.line;
    if (/[\r\n]/.test(line)) throw new Error(`doc ${i + 1}: raw CR/LF`);
    if (line.includes('\u0000') || /\\u0000/i.test(line)) throw new Error(`doc ${i + 1}: NUL`);
    checkNumbers(line, i + 1);
    const parsed = JSON.parse(line);
    let c = canonicalize(parsed);
    // Node.js 24's JSON.parse (v24.21, Debian forky) now and then decodes an
    // escaped key as another key (a V8 bug; 20 reads the same documents
    // right): where it disagrees with the generated value, that value is
    // what the document says.
    if (doc.tree !== null) {
      const meant = canonicalize(fromTree(doc.tree));
      if (meant !== c) { misread++; c = meant; }
    }
    if (/[\r\n]/.test(c)) throw new Error(`doc ${i + 1}: raw CR/LF in canonical form`);
    // No lone surrogates made it through (would be invalid UTF-8 / rejected by jsonb).
    if (!isWellFormed(line) || !isWellFormed(c)) {
      throw new Error(`doc ${i + 1}: lone surrogate`);
    }
    docs.push(line);
    exp.push(c);
  }
  if (misread > 0) {
    process.stderr.write(`gen.js: JSON.parse of Node.js ${process.version} misread ${misread} of the generated documents; their expected form is the generated value's\n`);
  }
  fs.writeFileSync(path.join(args.out, 'docs.jsonl'), docs.length ? docs.join('\n') + '\n' : '');
  fs.writeFileSync(path.join(args.out, 'expected.txt'), exp.length ? exp.join('\n') + '\n' : '');
}

main();
