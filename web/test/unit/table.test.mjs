// Folding table events: duplicates (a replay after reconnecting) are ignored,
// a gap asks for a reload, pool and odds updates replace only their part.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from './bundle.mjs';

const { fold, fromSnapshot } = await load('api/tableState.ts');

const draw = { id: '7', number: 3, phase: 'PRE_DEAL', openRound: 'PRE_DEAL', roundClosesAt: null, minStake: '100.00', maxStake: '1000.00', board: [], burned: [], openedAt: '', settledAt: null, voidReason: null, positions: [], shuffle: { commitment: 'c', publicSeed: null, serverSeed: null }, odds: null, pools: [], result: null };
const snap = () => fromSnapshot({ table: { id: '1', name: 'T', positions: 6, status: 'RUNNING', lastSeq: 10, settings: {}, currentDraw: draw }, jackpot: { balance: '0.00', enabled: true } });
const pool = (gross) => ({ round: 'PRE_DEAL', market: 'WIN', gross, net: gross, bets: 1, selections: [] });

test('duplicates are ignored, gaps reported, pools replaced', () => {
  let s = snap();
  assert.equal(s.seq, 10);
  assert.equal(fold(s, { seq: 10, type: 'POOL_UPDATED', drawId: '7', pool: pool('1.00') }), s, 'a replayed event changed the state');
  assert.equal(fold(s, { seq: 12, type: 'POOL_UPDATED', drawId: '7', pool: pool('1.00') }), 'gap');
  s = fold(s, { seq: 11, type: 'POOL_UPDATED', drawId: '7', pool: pool('1.00') });
  s = fold(s, { seq: 12, type: 'POOL_UPDATED', drawId: '7', pool: pool('3.00') });
  assert.equal(s.draw.pools.length, 1);
  assert.equal(s.draw.pools[0].gross, '3.00');
  s = fold(s, { seq: 13, type: 'CARDS_DEALT', drawId: '7', draw: { ...draw, phase: 'POCKET', board: [] } });
  assert.equal(s.draw.phase, 'POCKET');
  assert.equal(s.draw.pools[0].gross, '3.00', 'a draw update dropped the live pools');
  s = fold(s, { seq: 14, type: 'DRAW_OPENED', drawId: '8', draw: { ...draw, id: '8', number: 4 } });
  assert.equal(s.draw.id, '8');
  assert.deepEqual(s.draw.pools, [], 'a new draw starts with empty pools');
  s = fold(s, { seq: 15, type: 'TABLE_PAUSED' });
  assert.equal(s.status, 'PAUSED');
});
