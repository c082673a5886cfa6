// The browser's suspension check (SPEC 1.9): FLOP and TURN chances
// recomputed from the cards, and a result whose pool took a bet on a
// selection its round opened suspended fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from './bundle.mjs';

const s = await load('verify/suspension.ts');
const c = (x) => x.split(' ').map((y) => '23456789TJQKA'.indexOf(y[0]) * 4 + 'cdhs'.indexOf(y[1]));

// Position 1 holds four aces after the turn: it cannot lose.
const pockets = [['Ah', 'Ad'], ['7c', '2d']];
const board = ['As', 'Ac', '8h', '9s', '3c'];
const chances = (n) => s.boardChances(pockets.map((p) => c(p.join(' '))), c(board.slice(0, n).join(' ')));
const pocketRound = [
  { market: 'WIN', selection: '1', paid: 9, of: 10 }, { market: 'WIN', selection: '2', paid: 1, of: 10 },
  ...['HIGH_CARD', 'PAIR', 'TWO_PAIR', 'THREE_OF_A_KIND', 'STRAIGHT', 'FLUSH', 'FULL_HOUSE', 'FOUR_OF_A_KIND', 'STRAIGHT_FLUSH', 'ROYAL_FLUSH']
    .map((k, i) => ({ market: 'COMBINATION', selection: k, paid: i === 1 ? 10 : 0, of: 10 })),
];
const pool = (round, market, selection) => ({ poolId: `1:${round}:${market}`, round, market, numBets: 1, bets: null, selections: [{ selection, numBets: 1, stakes: 10000, payout: 0 }] });
const result = (pools) => ({
  positions: 2, pockets, board, suspendAt: 9000, pools,
  chances: [{ round: 2, chances: pocketRound }, { round: 3, chances: chances(3) }, { round: 4, chances: chances(4) }],
});

test('turn enumeration: four aces are paid on every river', () => {
  const t = chances(4);
  assert.deepEqual(t[0], { market: 'WIN', selection: '1', paid: 44, of: 44 });
  assert.equal(t.find((x) => x.selection === 'FOUR_OF_A_KIND').paid, 44);
  assert.ok(s.atLeast(t[0], 9000) && !s.atLeast(t[1], 9000));
});

test('an honest result passes; a bet on a suspended selection fails', () => {
  assert.deepEqual(s.checkSuspension(result([pool(4, 'WIN', '2')])).problems, []);
  const bad = s.checkSuspension(result([pool(4, 'WIN', '1')])).problems;
  assert.ok(bad.some((p) => p.includes('WIN 1, suspended in round 4')), bad.join('\n'));
  const pocket = s.checkSuspension(result([pool(2, 'WIN', '1')])).problems;
  assert.ok(pocket.some((p) => p.includes('suspended in round 2')), pocket.join('\n'));
});

test('tampered chances fail', () => {
  const r = result([]);
  r.chances[2].chances[0] = { ...r.chances[2].chances[0], paid: 1 };
  assert.ok(s.checkSuspension(r).problems.some((p) => p.includes('round 4: published chances')));
  const hidden = result([]);
  hidden.chances.pop();
  assert.ok(s.checkSuspension(hidden).problems.some((p) => p.includes('round 4 opened')));
  assert.ok(s.checkSuspension({ ...result([]), suspendAt: 9500 }).problems.length > 0);
});

test('a result before SPEC 1.9 is not checked', () => {
  assert.deepEqual(s.checkSuspension({ positions: 2, pockets, board, pools: [pool(4, 'WIN', '1')] }).problems, []);
});
