// The markets the client knows come from markets.gen.ts, generated from the
// server's registry (cmd/gen-markets): every one has a grading rule of a
// kind the verifier knows (it grades and counts chances by the rule's kind,
// never by a market's name), its texts in all three languages, and the
// rounds the bet slip offers; a market the registry does not declare, or
// whose rule is of a kind the verifier does not know, is reported, never
// settled as another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from './bundle.mjs';

globalThis.localStorage ??= { getItem: () => null, setItem() {}, removeItem() {} };
if (!globalThis.navigator) Object.defineProperty(globalThis, 'navigator', { value: { language: 'ru' } });
globalThis.document ??= { documentElement: {} };
const { MARKETS, GRADING } = await load('markets.gen.ts');
const grades = await load('verify/grades.ts');
const pools = await load('verify/pools.ts');
const enumerate = await load('verify/enumerate.ts');
const i18n = await load('i18n.ts');

test('the generated markets are the server\'s three, in its order', () => {
  assert.deepEqual(MARKETS.map((m) => m.name), ['WIN', 'COMBINATION', 'EXPRESS']);
  assert.deepEqual(MARKETS.map((m) => m.rounds), [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2]]);
});

test('every market\'s grading rule is of a kind the verifier knows; nothing is keyed by a market\'s name', () => {
  assert.deepEqual(Object.keys(GRADING), MARKETS.map((m) => m.name));
  assert.deepEqual(MARKETS.map((m) => GRADING[m.name].kind), ['PLACED_WITHIN', 'CATEGORY_IS', 'COUPON_LEGS']);
  for (const m of MARKETS) assert.equal(grades.gradingProblem(m.name), null, m.name);
  assert.equal(pools.GRADES, undefined);
  assert.deepEqual(Object.keys(enumerate.CHANCES).sort(), ['BOARDS', 'COUPONS']);
});

/** withPlace is markets.gen.ts plus a market PLACE of positions, rounds 1 to 4, graded by rule (a GRADING entry's body). */
function withPlace(rule) {
  const src = readFileSync(new URL('../../src/markets.gen.ts', import.meta.url), 'utf8');
  const win = src.match(/^ {2}\{ name: 'WIN', .*$/m)[0];
  const out = src.replace(win, `${win}\n${win.replace("'WIN'", "'PLACE'")}`).replace(/^ {2}WIN: .*$/m, (l) => `${l}\n  PLACE: ${rule},`);
  assert.notEqual(out, src);
  const file = join(mkdtempSync(join(tmpdir(), 'pokertote-markets-')), 'markets.gen.ts');
  writeFileSync(file, out);
  return file;
}

const placePool = {
  poolId: '1:3:PLACE', round: 'FLOP', market: 'PLACE', numBets: 1, gross: 100, commission: 3, jackpotContribution: 0, net: 97, paid: 110, breakage: 0,
  topUp: 13, jackpotPaid: 0, rollover: 0, refunded: false, refunds: 0, jackpotBefore: 0, winning: ['1'], categories: [], bets: [{ id: 1, selection: '1', stake: 100, payout: 110 }],
};
const placeResult = {
  drawId: 1, positions: 3, winners: [1], category: 'PAIR', flopLeaders: [1], turnLeaders: [1], commission: 300, jackpotEnabled: false, jackpotRate: 0,
  expressShares: [6000, 4000], jackpotBefore: 0, jackpotAfter: 0, serverSeed: '', commitment: '', pools: [placePool],
};

test('a market whose rule is of a kind the verifier does not know is reported, never graded as another', async () => {
  for (const [rule, want] of [
    ["{ kind: 'PLACED_LAST', chances: 'BOARDS' }", /does not know how PLACE pays \(grading rule PLACED_LAST\)/],
    ["{ kind: 'PLACED_WITHIN', within: 0, chances: 'BOARDS' }", /PLACE: PLACED_WITHIN 0/],
    ["{ kind: 'PLACED_WITHIN', within: 1, chances: 'COUPONS' }", /counts its chances by BOARDS, not COUPONS/],
    ["{ kind: 'CATEGORY_IS', chances: 'BOARDS' }", /grades CATEGORY selections, not POSITION/],
  ]) {
    const markets = withPlace(rule);
    const p = await load('verify/pools.ts', { markets });
    const problems = p.verifyPools(placeResult);
    assert.ok(problems.some((x) => want.test(x) && x.includes('its pool is not recomputed')), `${rule}: ${problems.join('\n')}`);
    const e = await load('verify/enumerate.ts', { markets });
    const c = (s) => s.split(' ').map((x) => '23456789TJQKA'.indexOf(x[0]) * 4 + 'cdhs'.indexOf(x[1]));
    await assert.rejects(e.chancesAtOpening([c('Ah As'), c('Kh Ks'), c('2c 7d')], c('3c 4d 9h'), 3, 9000, async () => {}), want);
  }
});

test('a market of a known kind needs no code: PLACED_WITHIN 2 pays the positions placed first or second, ties sharing a place', async () => {
  const g = await load('verify/grades.ts', { markets: withPlace("{ kind: 'PLACED_WITHIN', within: 2, chances: 'BOARDS' }") });
  assert.equal(g.gradingProblem('PLACE'), null);
  assert.equal(g.readsPlaces('PLACE'), true);
  const grade = g.graderOf('PLACE');
  const o = (places) => ({ winners: new Set([1]), flop: new Set(), turn: new Set(), category: 'PAIR', places });
  assert.deepEqual(['1', '2', '3', '4'].map((s) => grade(o([1, 3, 2, 2]), s).cat1), [true, false, true, true]);
  assert.deepEqual(['1', '2', '3'].map((s) => grade(o([1, 1, 3]), s).cat1), [true, true, false]);
  // The places from the cards: Ah As and Kh Ks over 2c 7d on 3c 4d 9h Jc Qd.
  assert.deepEqual(g.placesOf([['Ah', 'As'], ['Kh', 'Ks'], ['2c', '7d']], ['3c', '4d', '9h', 'Jc', 'Qd'], 3), [1, 2, 3]);
  assert.deepEqual(g.placesOf([['Ah', '2s'], ['Ad', '2h'], ['3s', '7d']], ['Tc', 'Jd', 'Qh', 'Kc', '9d'], 3), [1, 1, 3]); // two ace-high straights tie first; the king-high is third
  assert.equal(g.placesOf([['Ah', 'As']], ['3c', '4d', '9h'], 1), null);
  // Without the cards the pool is not recomputed, and it says why.
  const p = await load('verify/pools.ts', { markets: withPlace("{ kind: 'PLACED_WITHIN', within: 2, chances: 'BOARDS' }") });
  assert.ok(p.verifyPools(placeResult).some((x) => x.includes('graded by every position\'s final hand, and the result publishes no full deal')));
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

// Screens draw a market by its registry rule (shape, listed, scheme,
// rounds), never by its name: a new market of an existing shape shows on
// the table, in the result and in the history with no screen changed.
test('no screen branches on a market\'s name', async () => {
  const { readdirSync } = await import('node:fs');
  const views = new URL('../../src/views/', import.meta.url);
  const names = MARKETS.map((m) => m.name).join('|');
  const branch = new RegExp(`[=!]==?\\s*['"](${names})['"]|['"](${names})['"]\\s*[=!]==?|case\\s+['"](${names})['"]`);
  const found = [];
  for (const f of readdirSync(views).filter((f) => f.endsWith('.tsx'))) {
    readFileSync(new URL(f, views), 'utf8').split('\n').forEach((line, i) => {
      // A hand's status (WIN or LOSS) is not a market.
      if (branch.test(line.replace(/\.status\s*===?\s*'WIN'/g, ''))) found.push(`${f}:${i + 1}: ${line.trim().slice(0, 100)}`);
    });
  }
  assert.deepEqual(found, []);
});
