// selectionOf writes a slip as the API's @oneOf SelectionInput: the
// market's own field (markets.gen.ts's SELECTION_INPUTS, generated from the
// server's registry), its value by the market's shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from './bundle.mjs';

const bets = await load('api/bets.ts');
const gen = await load('markets.gen.ts');

test('selectionOf: the clients\' spellings of the three markets', () => {
  const slip = (market, pick) => ({ drawId: '1', market, pick, stake: '1', key: 'k' });
  assert.deepEqual(bets.selectionOf(slip('WIN', ['3'])), { position: 3 });
  assert.deepEqual(bets.selectionOf(slip('COMBINATION', ['FLUSH'])), { combination: 'FLUSH' });
  assert.deepEqual(bets.selectionOf(slip('EXPRESS', ['1', '2', '3'])), { express: { flop: 1, turn: 2, river: 3 } });
  assert.throws(() => bets.selectionOf(slip('PLACE', ['1'])));
});

test('selectionOf: every market of the registry, by its shape', () => {
  const picks = { POSITION: ['2'], CATEGORY: ['PAIR'], COUPON: ['1', '1', '2'] };
  const want = { POSITION: 2, CATEGORY: 'PAIR', COUPON: { flop: 1, turn: 1, river: 2 } };
  for (const m of gen.MARKETS) {
    const got = bets.selectionOf({ drawId: '1', market: m.name, pick: picks[m.shape], stake: '1', key: 'k' });
    assert.deepEqual(got, { [gen.SELECTION_INPUTS[m.name]]: want[m.shape] }, m.name);
    assert.deepEqual(bets.pickOf(m.shape, ['2', '1', '2'], 'PAIR').length, m.shape === 'COUPON' ? 3 : 1);
  }
});
