// The markets the client knows come from markets.gen.ts, generated from the
// server's registry (cmd/gen-markets): every one has a grade in the
// verifier, its texts in all three languages, and the rounds the bet slip
// offers; a market the registry does not declare is reported, never settled
// as another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from './bundle.mjs';

globalThis.localStorage ??= { getItem: () => null, setItem() {}, removeItem() {} };
if (!globalThis.navigator) Object.defineProperty(globalThis, 'navigator', { value: { language: 'ru' } });
globalThis.document ??= { documentElement: {} };
const { MARKETS } = await load('markets.gen.ts');
const pools = await load('verify/pools.ts');
const enumerate = await load('verify/enumerate.ts');
const i18n = await load('i18n.ts');

test('the generated markets are the server\'s three, in its order', () => {
  assert.deepEqual(MARKETS.map((m) => m.name), ['WIN', 'COMBINATION', 'EXPRESS']);
  assert.deepEqual(MARKETS.map((m) => m.rounds), [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2]]);
});

test('every market has a grade and a chance rule in the verifier', () => {
  for (const m of MARKETS) {
    assert.equal(typeof pools.GRADES[m.name], 'function', `${m.name} has no grade`);
    assert.equal(typeof enumerate.CHANCES[m.name], 'function', `${m.name} has no chance rule`);
  }
});

test('every market has its name and rule in ru, kk and en', () => {
  for (const l of ['ru', 'kk', 'en']) {
    i18n.setLang(l);
    for (const m of MARKETS) {
      for (const key of [m.name, 'r.' + m.name.toLowerCase()]) {
        const text = i18n.t(key);
        assert.ok(text && text !== key, `${l}: ${key} has no text`);
      }
    }
  }
});

test('selections are checked by the market\'s shape, and an unknown market is no market', () => {
  assert.equal(pools.selectionProblem('WIN', '3', 6), null);
  assert.match(pools.selectionProblem('WIN', '7', 6), /not a position 1 to 6/);
  assert.equal(pools.selectionProblem('COMBINATION', 'FLUSH', 6), null);
  assert.equal(pools.selectionProblem('EXPRESS', '1-2-3', 6), null);
  assert.match(pools.selectionProblem('EXPRESS', '1-2', 6), /flop-turn-winner/);
  assert.equal(pools.selectionProblem('PLACE', '1', 6), 'unknown market PLACE');
  const r = {
    drawId: 1, positions: 3, winners: [1], category: 'PAIR', flopLeaders: [1], turnLeaders: [1], commission: 300, jackpotEnabled: true, jackpotRate: 1,
    expressShares: [6000, 4000], jackpotBefore: 0, jackpotAfter: 0, serverSeed: '', commitment: '',
    pools: [{ poolId: '1:1:PLACE', round: 'PRE_DEAL', market: 'PLACE', numBets: 1, gross: 100, commission: 3, jackpotContribution: 0, net: 97, paid: 110, breakage: 0,
      topUp: 13, jackpotPaid: 0, rollover: 0, refunded: false, refunds: 0, jackpotBefore: 0, winning: ['1-1-1'], categories: [], bets: [{ id: 1, selection: '1', stake: 100, payout: 110 }] }],
  };
  const problems = pools.verifyPools(r);
  assert.ok(problems.some((p) => p.includes('unknown market PLACE')), problems.join('\n'));
});
