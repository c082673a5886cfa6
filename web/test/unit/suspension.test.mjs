// The browser's suspension check (SPEC 1.9): every round's chances (POCKET,
// FLOP, TURN; WIN, COMBINATION and EXPRESS) recomputed from the cards equal
// the Go verifier's on fixtures the Go side writes and checks
// (testdata/chances.json, TestChancesFixturesForTheBrowser in domain/tote),
// and a result whose pool took a bet on a selection its round opened
// suspended fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from './bundle.mjs';

const s = await load('verify/suspension.ts');
const e = await load('verify/enumerate.ts');
const fair = await load('verify/fair.ts');
const fx = JSON.parse(readFileSync(new URL('./testdata/chances.json', import.meta.url), 'utf8'));
const card = (x) => s.parseCard(x);
const boardAt = { 2: 0, 3: 3, 4: 4 };
const noPause = async () => {};
const clone = (x) => structuredClone(x);

test('the evaluator orders hands as the reference evaluator does', () => {
  // Hands of 5, 6 and 7 cards sharing their board, as the enumeration
  // compares them; a seeded generator, so a failure repeats.
  let seed = 23;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const sign = (x) => Math.sign(x);
  for (let i = 0; i < 6000; i++) {
    const deck = Array.from({ length: 52 }, (_, c) => c);
    for (let k = 0; k < 9; k++) { const j = k + rnd(52 - k); [deck[k], deck[j]] = [deck[j], deck[k]]; }
    const board = deck.slice(4, 4 + 3 + (i % 3));
    const a = [deck[0], deck[1], ...board];
    const b = [deck[2], deck[3], ...board];
    const [va, vb] = [e.valueOf(a), e.valueOf(b)];
    const [ra, rb] = [fair.evaluate(a), fair.evaluate(b)];
    assert.equal(sign(va - vb), sign(ra - rb), `${a.map(fair.cardName)} against ${b.map(fair.cardName)}`);
    assert.equal(e.categoryOfValue(va), fair.categoryOf(ra), a.map(fair.cardName).join(' '));
  }
  const cat = (x) => e.categoryOfValue(e.valueOf(x.split(' ').map(card)));
  assert.equal(cat('Ah Kh Qh Jh Th 2c 3d'), 'ROYAL_FLUSH');
  assert.equal(cat('Ah 2h 3h 4h 5h Kh Kd'), 'STRAIGHT_FLUSH');
  assert.equal(cat('Ac 2d 3h 4s 5c'), 'STRAIGHT');
  assert.equal(cat('2c 2d 3h 3s 4c 4d Ah'), 'TWO_PAIR');
  assert.equal(cat('7c 7d 7h 9s 9c 9d'), 'FULL_HOUSE');
});

test('every round\'s chances equal the Go verifier\'s on its fixtures', async () => {
  assert.ok(fx.cases.length >= 10, 'fixtures');
  let express = 0;
  for (const f of fx.cases) {
    const pockets = f.pockets.map((p) => p.map(card));
    const board = (f.board ?? []).map(card);
    for (const rc of f.chances) {
      const got = await e.chancesAtOpening(pockets, board.slice(0, boardAt[rc.round]), rc.round, f.suspendAt, noPause);
      assert.deepEqual(got, rc.chances, `${f.name} (${f.positions} positions), round ${rc.round}`);
      express += got.filter((c) => c.market === 'EXPRESS').length;
    }
  }
  assert.ok(express > 0, 'some fixture has an EXPRESS coupon at or above its line');
});

test('the Go-settled draw verifies', async () => {
  assert.deepEqual((await s.checkSuspension(fx.draw, noPause)).problems, []);
});

/** withBets adds a bet on each [round, market, selection] to its round's pool (making the pool if the draw had none). */
function withBets(r, bets) {
  const t = clone(r);
  t.pools ??= [];
  for (const [round, market, selection] of bets) {
    let p = t.pools.find((x) => x.round === round && x.market === market);
    if (!p) { p = { poolId: `${t.drawId ?? 1}:${round}:${market}`, round, market, numBets: 0, bets: null, selections: [] }; t.pools.push(p); }
    p.numBets++;
    p.selections = [...(p.selections ?? []), { selection, numBets: 1, stakes: 100000, payout: 0 }];
  }
  return t;
}

test('a bet on a suspended POCKET, FLOP or TURN selection fails', async () => {
  const tried = new Set();
  const cases = [{ name: 'the Go-settled draw', r: fx.draw }, ...fx.cases.filter((f) => f.name.startsWith('aces')).map((f) => ({ name: f.name, r: { ...f, pools: [] } }))];
  for (const { name, r } of cases) {
    // One suspended selection per market and round, all in one tampered
    // result: each must be named.
    const bets = [];
    for (const rc of r.chances) {
      const first = new Map();
      for (const c of rc.chances) if (s.atLeast(c, r.suspendAt) && !first.has(c.market)) first.set(c.market, c);
      for (const c of first.values()) bets.push([rc.round, c.market, c.selection]);
    }
    const bad = (await s.checkSuspension(withBets(r, bets), noPause)).problems;
    for (const [round, market, selection] of bets) {
      assert.ok(bad.some((p) => p.includes(`took a bet on ${market} ${selection}, suspended in round ${round}`)), `${name}: ${market} ${selection} in round ${round}: ${bad.join('\n')}`);
      tried.add(`${round} ${market}`);
    }
    assert.equal(bad.length, bets.length, bad.join('\n'));
  }
  for (const want of ['2 WIN', '3 WIN', '4 WIN', '2 EXPRESS', '3 COMBINATION', '4 COMBINATION']) assert.ok(tried.has(want), `no suspended ${want} tried: ${[...tried]}`);
  // Bets below the line pass.
  const open = fx.draw.chances.map((rc) => [rc.round, 'WIN', rc.chances.find((x) => x.market === 'WIN' && !s.atLeast(x, fx.draw.suspendAt)).selection]);
  assert.deepEqual((await s.checkSuspension(withBets(fx.draw, open), noPause)).problems, []);
});

test('tampered or hidden chances fail', async () => {
  const fail = async (r, what) => {
    const ps = (await s.checkSuspension(r, noPause)).problems;
    assert.ok(ps.some((p) => p.includes(what)), `want "${what}": ${ps.join('\n')}`);
  };
  const ten = fx.cases.find((f) => f.positions === 10 && f.chances.length === 3);
  for (const round of [0, 1, 2]) {
    const r = clone(ten);
    r.chances[round].chances[0].paid--;
    await fail(r, `round ${round + 2}: published chances`);
  }
  const hidden = clone(ten);
  hidden.chances.pop();
  await fail(hidden, 'round 4 opened but its chances are not published');
  await fail({ ...clone(ten), suspendAt: 9500 }, 'outside 50 % to 90 %');
  await fail({ ...clone(ten), pockets: [['Ah', 'Ad'], ['Ah', '2d'], ...ten.pockets.slice(2)] }, 'not 2 to 10 pockets of valid, distinct cards');
  await fail({ positions: 10, version: 3, pockets: ten.pockets, board: ten.board, pools: [] }, 'must publish suspendAt');
  // An EXPRESS coupon left out of the POCKET round's list (so shown open).
  const aces = fx.cases.find((f) => f.name === 'aces against seven-deuce at 50 %');
  const dropped = clone(aces);
  const i = dropped.chances[0].chances.findIndex((c) => c.market === 'EXPRESS');
  assert.ok(i >= 0);
  dropped.chances[0].chances.splice(i, 1);
  await fail(dropped, 'round 2: published chances');
});

test('a result before SPEC 1.9 is not checked', async () => {
  const { pockets, board } = fx.cases[0];
  assert.deepEqual((await s.checkSuspension(withBets({ positions: 2, pockets, board, pools: [] }, [[4, 'WIN', '1']]), noPause)).problems, []);
});

test('the default pause yields to the event loop during a POCKET enumeration', async () => {
  const f = fx.cases.find((x) => x.positions === 2 && x.chances.length === 3);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const got = await e.chancesAtOpening(f.pockets.map((p) => p.map(card)), [], 2, f.suspendAt, e.timeSlicer(5));
  clearInterval(timer);
  assert.deepEqual(got, f.chances[0].chances);
  assert.ok(ticks > 0, 'no timer ran while enumerating');
});
