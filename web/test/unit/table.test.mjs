// Folding typed table events: duplicates (a replay after reconnecting) are
// ignored, a gap asks for a reload, a TableSnapshot replaces the state, and
// each event type changes only its part.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from './bundle.mjs';

const { fold, fromSnapshot } = await load('api/tableState.ts');

const draw = { id: '7', number: 3, phase: 'PRE_DEAL', openRound: 'PRE_DEAL', roundClosesAt: null, minStake: '100.00', maxStake: '1000.00', board: [], burned: [], openedAt: '', settledAt: null, voidReason: null, positions: [], shuffle: { commitment: 'c', publicSeed: null, serverSeed: null }, odds: null, pools: [], result: null };
const snap = () => fromSnapshot({ table: { id: '1', name: 'T', positions: 6, status: 'RUNNING', lastSeq: 10, settings: { maxStake: '1000.00' }, currentDraw: draw }, jackpot: { balance: '0.00', enabled: true } });
const pool = (gross) => ({ round: 'PRE_DEAL', market: 'WIN', gross, net: gross, bets: 1, selections: [] });
const pos = (cards) => [{ number: 1, cards, status: 'PENDING', bestHand: null }];

test('typed events fold into the table; duplicates ignored, gaps reported, snapshots replace', () => {
  let s = snap();
  assert.equal(fold(s, { __typename: 'PoolUpdated', seq: 10, drawId: '7', pool: pool('1.00') }), s, 'a replayed event changed the state');
  assert.equal(fold(s, { __typename: 'PoolUpdated', seq: 12, drawId: '7', pool: pool('1.00') }), 'gap');
  s = fold(s, { __typename: 'PoolUpdated', seq: 11, drawId: '7', pool: pool('1.00') });
  s = fold(s, { __typename: 'PoolUpdated', seq: 12, drawId: '7', pool: pool('3.00') });
  assert.equal(s.draw.pools.length, 1);
  assert.equal(s.draw.pools[0].gross, '3.00');
  s = fold(s, { __typename: 'RoundClosed', seq: 13, drawId: '7', round: 'PRE_DEAL', publicSeed: 'ab' });
  assert.equal(s.draw.phase, 'DEALING_POCKET');
  assert.equal(s.draw.openRound, null);
  assert.equal(s.draw.shuffle.publicSeed, 'ab');
  s = fold(s, { __typename: 'CardsDealt', seq: 14, drawId: '7', street: 'POCKET', board: [], positions: pos(['Ah', 'Kd']) });
  assert.deepEqual(s.draw.positions[0].cards, ['Ah', 'Kd']);
  s = fold(s, { __typename: 'RoundOpened', seq: 15, drawId: '7', round: 'POCKET', closesAt: 'x' });
  assert.equal(s.draw.phase, 'POCKET');
  assert.equal(s.draw.pools[0].gross, '3.00', 'pools survive other events');
  s = fold(s, { __typename: 'DrawSettled', seq: 16, drawId: '7', serverSeed: 'ss', result: { settledAt: 't', winners: [1], pools: [] }, positions: pos(['Ah', 'Kd']) });
  assert.equal(s.draw.phase, 'SETTLED');
  assert.equal(s.draw.shuffle.serverSeed, 'ss');
  s = fold(s, { __typename: 'DrawOpened', seq: 17, at: 'now', drawId: '8', number: 4, seats: 6, minStake: '100.00', commitment: 'c2', odds: null });
  assert.equal(s.draw.id, '8');
  assert.deepEqual(s.draw.pools, [], 'a new draw starts with empty pools');
  s = fold(s, { __typename: 'TablePaused', seq: 18 });
  assert.equal(s.status, 'PAUSED');
  const joined = fold(s, { __typename: 'TableSnapshot', seq: 40, at: 'now', status: 'RUNNING', jackpot: { balance: '5.00', enabled: true },
    draw: { drawId: '9', number: 5, phase: 'FLOP', openRound: 'FLOP', roundClosesAt: 'y', minStake: '100.00', commitment: 'c3', publicSeed: 'p', serverSeed: null, board: ['2c', '3d', '4h'], voidReason: null, positions: pos(['As', 'Ks']), odds: null, pools: [pool('9.00')], result: null } });
  assert.equal(joined.seq, 40);
  assert.equal(joined.draw.id, '9');
  assert.equal(joined.draw.pools[0].gross, '9.00');
  assert.equal(joined.jackpot.balance, '5.00');
});

test('a round opens with its suspended selections; the next round replaces them (SPEC 1.9)', async () => {
  const ts = await load('api/tableState.ts');
  const base = { id: '1', name: 'T', positions: 2, status: 'RUNNING', settings: { maxStake: '1000000.00' }, jackpot: { balance: '0', enabled: true }, seq: 1, draw: null };
  let s = ts.fold(base, { __typename: 'DrawOpened', seq: 2, tableId: '1', at: 't', drawId: '9', number: 1, seats: 2, minStake: '100.00', commitment: 'c', odds: null });
  const rc = (round, sus) => ({ round, suspendAt: '90.00', chances: [{ market: 'WIN', selection: '1', probability: 0.95, suspended: sus }, { market: 'WIN', selection: '2', probability: 0.05, suspended: false }] });
  s = ts.fold(s, { __typename: 'RoundOpened', seq: 3, tableId: '1', at: 't', drawId: '9', round: 'FLOP', closesAt: 't', chances: rc('FLOP', true) });
  assert.deepEqual([...ts.suspendedIn(s.draw)], ['WIN 1']);
  s = ts.fold(s, { __typename: 'RoundClosed', seq: 4, tableId: '1', at: 't', drawId: '9', round: 'FLOP', publicSeed: null });
  assert.equal(ts.suspendedIn(s.draw).size, 0, 'no round open, nothing to suspend');
  s = ts.fold(s, { __typename: 'RoundOpened', seq: 5, tableId: '1', at: 't', drawId: '9', round: 'TURN', closesAt: 't', chances: rc('TURN', false) });
  assert.equal(ts.suspendedIn(s.draw).size, 0);
  assert.equal(s.draw.chances.length, 2);
});
