#!/usr/bin/env node
/*
 * gen_v8_doubles.js
 *		Print doubles with V8's Number.prototype.toString of each, one per
 *		line as "<16 hex digits of the IEEE-754 bits> <String(x)>", for the
 *		unit test's comparison of jcs_format_double against V8.
 *
 * Usage: node gen_v8_doubles.js [--special-only] [random-count] [seed]
 *
 * The special part (deterministic, always first) covers RFC 8785's number
 * table, every power of two and its neighbours, powers of ten and their
 * neighbours, the 1e21 / 1e-7 notation thresholds, integers around 2^53,
 * the extremes, and a fixed sample of subnormals.  The random part mixes
 * uniformly random bit patterns, doubles parsed from short random decimals,
 * random subnormals and large random integers.
 */
'use strict';

const args = process.argv.slice(2);
const specialOnly = args[0] === '--special-only';

if (specialOnly)
	args.shift();

const randomCount = args.length > 0 ? parseInt(args[0], 10) : 1000000;
let seed = args.length > 1 ? (parseInt(args[1], 10) >>> 0) : 20240611;

const buf = new ArrayBuffer(8);
const dv = new DataView(buf);
const lines = [];
let pending = [];

/* deterministic 32-bit PRNG (mulberry32) */
function rnd32()
{
	seed = (seed + 0x6D2B79F5) >>> 0;
	let t = seed;

	t = Math.imul(t ^ (t >>> 15), t | 1);
	t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
	return ((t ^ (t >>> 14)) >>> 0);
}

function hex32(v)
{
	return (v >>> 0).toString(16).padStart(8, '0');
}

/* emit the double whose bits are hi:lo, skipping NaN and infinities */
function emitBits(hi, lo)
{
	hi >>>= 0;
	lo >>>= 0;
	if (((hi >>> 20) & 0x7ff) === 0x7ff)
		return;
	dv.setUint32(0, hi);
	dv.setUint32(4, lo);
	const x = dv.getFloat64(0);

	pending.push(hex32(hi) + hex32(lo) + ' ' + String(x));
	if (pending.length >= 65536)
		flush();
}

function emitDouble(x)
{
	if (!Number.isFinite(x))
		return;
	dv.setFloat64(0, x);
	emitBits(dv.getUint32(0), dv.getUint32(4));
}

/* emit x and its neighbours up to k ulps either side (same sign) */
function emitNeighbours(x, k)
{
	if (!Number.isFinite(x))
		return;
	dv.setFloat64(0, x);
	const b = (BigInt(dv.getUint32(0)) << 32n) | BigInt(dv.getUint32(4));

	for (let d = -k; d <= k; d++)
	{
		const v = b + BigInt(d);

		if (v < 0n || (v >> 63n) !== (b >> 63n))
			continue;
		emitBits(Number(v >> 32n), Number(v & 0xffffffffn));
	}
}

function flush()
{
	if (pending.length > 0)
		process.stdout.write(pending.join('\n') + '\n');
	pending = [];
}

/* ---- special, deterministic part ---- */

/* RFC 8785 Appendix B */
const rfc = [
	'0000000000000000', '8000000000000000', '0000000000000001',
	'8000000000000001', '7fefffffffffffff', 'ffefffffffffffff',
	'4340000000000000', 'c340000000000000', '4430000000000000',
	'44b52d02c7e14af5', '44b52d02c7e14af6', '44b52d02c7e14af7',
	'444b1ae4d6e2ef4e', '444b1ae4d6e2ef4f', '444b1ae4d6e2ef50',
	'3eb0c6f7a0b5ed8c', '3eb0c6f7a0b5ed8d', '41b3de4355555553',
	'41b3de4355555554', '41b3de4355555555', '41b3de4355555556',
	'41b3de4355555557', 'becbf647612f3696', '43143ff3c1cb0959'
];

for (const h of rfc)
	emitBits(parseInt(h.slice(0, 8), 16), parseInt(h.slice(8), 16));

/* every power of two, with 2 ulps either side, both signs */
for (let e = -1074; e <= 1023; e++)
{
	const x = Math.pow(2, e);

	emitNeighbours(x, 2);
	emitDouble(-x);
}

/* powers of ten and their neighbours */
for (let e = -324; e <= 308; e++)
	emitNeighbours(Number('1e' + e), 3);

/* notation thresholds */
for (const s of ['1e21', '1e-7', '1e-6', '1e20', '999999999999999900000',
				 '0.0000001', '0.000001', '123456789012345680000'])
	emitNeighbours(Number(s), 50);

/* integers around 2^53 and beyond */
for (let i = -1000; i <= 1000; i++)
	emitDouble(9007199254740992 + i * 2);
for (let e = 53; e <= 90; e++)
	emitNeighbours(Math.pow(2, e), 20);

/* extremes */
emitNeighbours(Number.MAX_VALUE, 10);
emitNeighbours(Number.MIN_VALUE, 10);
emitNeighbours(2.2250738585072014e-308, 10);	/* smallest normal */

/* a fixed sample of subnormals */
for (let i = 0; i < 2000; i++)
	emitBits(rnd32() & 0x000fffff, rnd32());

/* small integers and simple fractions */
for (let i = 0; i < 1000; i++)
{
	emitDouble(i);
	emitDouble(-i);
	emitDouble(i / 8);
	emitDouble(i / 10);
	emitDouble(i / 1000);
}

/* values like the reference records carry */
for (const s of ['2.628607988357544', '2.629631996154785', '94.83366394042969',
				 '0.1', '0.2', '0.3', '0.30000000000000004', '1e-05', '3'])
	emitNeighbours(Number(s), 5);

if (!specialOnly)
{
	for (let i = 0; i < randomCount; i++)
	{
		const kind = i % 8;

		if (kind < 4)
		{
			/* uniformly random bit pattern */
			emitBits(rnd32(), rnd32());
		}
		else if (kind < 6)
		{
			/* double parsed from a short random decimal */
			const nd = 1 + (rnd32() % 17);
			let s = String(1 + (rnd32() % 9));

			for (let j = 1; j < nd; j++)
				s += String(rnd32() % 10);
			const ex = (rnd32() % 61) - 30 - nd;
			const x = Number(s + 'e' + ex);

			emitDouble((rnd32() & 1) ? -x : x);
		}
		else if (kind === 6)
		{
			/* random subnormal or tiny normal */
			emitBits(rnd32() & 0x001fffff, rnd32());
		}
		else
		{
			/* large random integers, 2^53 .. 2^80 */
			const e = 53 + (rnd32() % 28);

			emitBits(((0x3ff + e) << 20) | (rnd32() & 0xfffff), rnd32());
		}
	}
}
flush();
