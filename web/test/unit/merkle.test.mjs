// The browser's inclusion-proof check against the known answers of
// domain/betroot (TestKnownAnswer) and docs/fairness.md section 11, and
// proofs built here for trees of every size up to 20.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { load } from './bundle.mjs';

const m = await load('verify/merkle.ts');
const H = (...b) => createHash('sha256').update(Buffer.concat(b.map((x) => Buffer.from(x)))).digest();
const leaves = (n) => Array.from({ length: n }, (_, i) => ({ id: 10 + 3 * i, round: 2, market: 'WIN', selection: String.fromCharCode(49 + (i % 6)), stake: 10000 + i }));
const split = (n) => { let k = 1; while (k * 2 < n) k *= 2; return k; };
const mth = (h) => h.length === 1 ? h[0] : H([1], mth(h.slice(0, split(h.length))), mth(h.slice(split(h.length))));
const path = (i, h) => {
  if (h.length <= 1) return [];
  const k = split(h.length);
  return i < k ? [...path(i, h.slice(0, k)), mth(h.slice(k))] : [...path(i - k, h.slice(k)), mth(h.slice(0, k))];
};

test('leaf bytes and root equal domain/betroot', async () => {
  assert.equal(Buffer.from(m.leafBytes({ id: 42, round: 1, market: 'WIN', selection: '3', stake: 10000 })).toString('hex'),
    '706f6b6572746f74652f6265742f7631000000000000002a010357494e01330000000000002710');
  const hs = await Promise.all(leaves(3).map(async (l) => Buffer.from(await m.leafHash(l))));
  assert.equal(mth(hs).toString('hex'), '93b5016610b4c29fc907aff913a1e4877f2beca1b511f0d15a667df58b719013');
});

test('every bet of trees of 1..20 proves; tampering fails', async () => {
  for (let n = 1; n <= 20; n++) {
    const ls = leaves(n);
    const hs = await Promise.all(ls.map(async (l) => Buffer.from(await m.leafHash(l))));
    const root = mth(hs).toString('hex');
    for (let i = 0; i < n; i++) {
      const proof = { root, index: i, size: n, path: path(i, hs).map((b) => b.toString('hex')) };
      assert.deepEqual(await m.checkInclusion(ls[i], proof, root), { ok: true }, `n=${n} i=${i}`);
      assert.equal((await m.checkInclusion({ ...ls[i], stake: ls[i].stake + 1 }, proof, root)).ok, false, 'inflated stake');
      assert.equal((await m.checkInclusion(ls[i], proof, '00'.repeat(32))).ok, false, 'another root than the one seen');
      if (n > 1) assert.equal((await m.checkInclusion(ls[i], { ...proof, index: (i + 1) % n })).ok, false, 'wrong index');
      if (proof.path.length) assert.equal((await m.checkInclusion(ls[i], { ...proof, path: proof.path.map((p) => p.toUpperCase()) })).ok, false, 'upper-case hex');
    }
  }
});

test('version-2 leaves (fair deal 4) equal domain/betroot (TestLeafV2KnownAnswer)', async () => {
  assert.equal(await m.betRef(42), 'd86694c9457097cdaecc10d8d86dccdce9fe0b28999b1755f9bd8e34c3643800');
  const pub = { ref: await m.betRef(42), round: 1, market: 'WIN', selection: '3', stake: 10000, placedAt: new Date(1764950400123).toISOString() };
  assert.equal(Buffer.from(m.leafBytesV2(pub)).toString('hex'),
    '706f6b6572746f74652f6265742f7632d86694c9457097cdaecc10d8d86dccdce9fe0b28999b1755f9bd8e34c3643800010357494e013300000000000027100000019aef3ddc7b');
  const own = Buffer.from(await m.leafHash({ id: 42, round: 1, market: 'WIN', selection: '3', stake: 10000, version: 2, placedAt: '2025-12-05T16:00:00.123456Z' }));
  assert.deepEqual(own, Buffer.from(await m.publicLeafHash(pub)), 'a time with microseconds is the same millisecond');
  assert.equal(await m.publicLeafHash({ ...pub, ref: 'zz' }), null, 'a reference that is not hex');
  assert.notDeepEqual(Buffer.from(await m.publicLeafHash({ ...pub, placedAt: new Date(1764950400124).toISOString() })), own, 'the time is in the leaf');
});
