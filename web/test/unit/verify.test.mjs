// The browser verifier against known answers: the version-1 deck of
// cmd/verify-shuffle, the version-2 per-street vector of docs/fairness.md
// (issue 10), hand ranking, and pool arithmetic worked by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from './bundle.mjs';

const fair = await load('verify/fair.ts');
const { verifyDraw } = await load('verify/index.ts');
const SEED = fair.hexToBytes('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
const names = (cs) => cs.map(fair.cardName).join(' ');

test('version-1 deck equals cmd/verify-shuffle', async () => {
  const deck = await fair.shuffle(SEED, fair.hexToBytes('abcd'));
  assert.equal(names(deck), '6d 4h 9s 6h Td Ac Js 7s 4s 5s 3h Qs Qd Ts 2d Kd 5c 3d 3s 8c Jc Th As 8h 5d 7c 2s 2h 4c 2c Tc 8s 3c 4d Ah Qc 5h 7d 9h 8d Qh Kc 6s 7h Jd 9c 6c Ks 9d Jh Kh Ad');
  const d = fair.dealTote(deck, 3);
  assert.deepEqual(d.pockets.map(names), ['6d 6h', '4h Td', '9s Ac']);
  assert.equal(names(d.burns), 'Js 3h Qd');
  assert.equal(names(d.board), '7s 4s 5s Qs Ts');
});

test('version-2 street deal equals the known answer of docs/fairness.md', async () => {
  const r = [1, 2, 3, 4].map((s) => new Uint8Array(32).fill(s * 16));
  const d = await fair.dealStreets(SEED, r, 3);
  assert.deepEqual(d.pockets.map(names), ['5c 4s', '3s 5d', 'Qd 7c']);
  assert.equal(names(d.burns), 'Qc Tc Js');
  assert.equal(names(d.board), '2h Jd 3c Ac 2d');
});

test('hand ranking', () => {
  const c = (s) => s.split(' ').map((x) => '23456789TJQKA'.indexOf(x[0]) * 4 + 'cdhs'.indexOf(x[1]));
  const cat = (s) => fair.categoryOf(fair.evaluate(c(s)));
  assert.equal(cat('Ah Kh Qh Jh Th 2c 3d'), 'ROYAL_FLUSH');
  assert.equal(cat('Ah 2h 3h 4h 5h Kc Kd'), 'STRAIGHT_FLUSH');
  assert.equal(cat('Ac 2d 3h 4s 5c 9d Kd'), 'STRAIGHT');
  assert.equal(cat('Ac Ad Ah Ks Kc 2d 3d'), 'FULL_HOUSE');
  assert.equal(cat('2c 2d 3h 3s 4c 4d Ah'), 'TWO_PAIR');
  assert.ok(fair.evaluate(c('Ac Ad Kh Qs 2c 3d 7h')) > fair.evaluate(c('Ac Ad Kh Js 2c 3d 7h')), 'kicker decides');
  assert.ok(fair.evaluate(c('2c 3d 4h 5s 6c Kd 9h')) > fair.evaluate(c('Ac 2d 3h 4s 5c Kd 9h')), 'six-high straight beats the wheel');
  assert.deepEqual(fair.leaders([c('Ac Ad'), c('Ah As'), c('Kc Kd')], c('2c 7d 9h')), [1, 2]);
});

test('pool arithmetic: a WIN pool worked by hand verifies, a changed payout does not', async () => {
  // Seed/cards are not the point here: a void-free result with no cards.
  const seedHex = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
  const commitment = '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd';
  // G = 400.00, C = 3% = 12.00, N = 388.00; winners [1]; stakes on 1: 100.00 → coef 3.88, paid 388.00.
  const result = {
    drawId: 1, positions: 6, winners: [1], category: 'PAIR', flopLeaders: [1], turnLeaders: [1],
    commission: 300, jackpotEnabled: false, jackpotRate: 0, expressShares: [6000, 4000], jackpotBefore: 0, jackpotAfter: 0,
    serverSeed: seedHex, commitment,
    pools: [{
      poolId: 'p', round: 'PRE_DEAL', market: 'WIN', numBets: 2, gross: 40000, commission: 1200, jackpotContribution: 0, net: 38800,
      paid: 38800, breakage: 0, topUp: 0, jackpotPaid: 0, rollover: 0, refunded: false, refunds: 0, jackpotBefore: 0,
      categories: [{ category: 1, coef: 388, paid: 38800, fund: 38800, jackpot: 0, stakes: 10000, numBets: 1, breakage: 0, topUp: 0, rollover: 0 }], winning: ['1'],
      bets: [{ id: 1, selection: '1', stake: 10000, payout: 38800 }, { id: 2, selection: '2', stake: 30000, payout: 0 }],
    }, {
      poolId: 'q', round: 'PRE_DEAL', market: 'COMBINATION', numBets: 1, gross: 10000, commission: 0, jackpotContribution: 0, net: 10000,
      paid: 0, breakage: 0, topUp: 0, jackpotPaid: 0, rollover: 0, refunded: true, refunds: 10000, jackpotBefore: 0, categories: [], winning: ['PAIR'],
      bets: [{ id: 3, selection: 'FLUSH', stake: 10000, payout: 10000, refund: true }],
    }],
  };
  const ok = await verifyDraw(JSON.stringify(result));
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.ok, true);
  result.pools[0].bets[0].payout += 1;
  const bad = await verifyDraw(JSON.stringify(result));
  assert.equal(bad.ok, false);
  assert.match(bad.problems.join('\n'), /bet 1 .*published payout 38801, recomputed 38800/);
  result.pools[0].bets[0].payout -= 1;
  result.serverSeed = seedHex.replace(/^00/, '01');
  assert.equal((await verifyDraw(JSON.stringify(result))).commitmentValid, false);
});

test('pool arithmetic, version 2: selection totals worked by hand verify; a payout out of what the stakes allow does not', async () => {
  const seedHex = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
  const commitment = '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd';
  // G = 400.01, C = floor(40001 × 3%) = 12.00, N = 388.01; stakes on 1: 100.01 in 2 bets → coef floor(38801/10001 × 100) = 3.87;
  // the two bets (50.00 and 50.01) are paid floor(5000 × 3.87) + floor(5001 × 3.87) = 19350 + 19353 = 387.03, breakage 0.98.
  const result = {
    version: 2, drawId: 1, positions: 6, winners: [1], category: 'PAIR', flopLeaders: [1], turnLeaders: [1],
    commission: 300, jackpotEnabled: false, jackpotRate: 0, expressShares: [6000, 4000], jackpotBefore: 0, jackpotAfter: 0,
    serverSeed: seedHex, commitment,
    pools: [{
      poolId: 'p', round: 'PRE_DEAL', market: 'WIN', numBets: 3, gross: 40001, commission: 1200, jackpotContribution: 0, net: 38801,
      paid: 38703, breakage: 98, topUp: 0, jackpotPaid: 0, rollover: 0, refunded: false, refunds: 0, jackpotBefore: 0,
      categories: [{ category: 1, coef: 387, paid: 38703, fund: 38801, jackpot: 0, stakes: 10001, numBets: 2, breakage: 98, topUp: 0, rollover: 0 }], winning: ['1'], bets: null,
      selections: [{ selection: '1', numBets: 2, stakes: 10001, payout: 38703 }, { selection: '2', numBets: 1, stakes: 30000, payout: 0 }],
    }, {
      poolId: 'q', round: 'PRE_DEAL', market: 'COMBINATION', numBets: 1, gross: 10000, commission: 0, jackpotContribution: 0, net: 10000,
      paid: 0, breakage: 0, topUp: 0, jackpotPaid: 0, rollover: 0, refunded: true, refunds: 10000, jackpotBefore: 0, categories: [], winning: ['PAIR'], bets: null,
      selections: [{ selection: 'FLUSH', numBets: 1, stakes: 10000, payout: 10000, refund: true }],
    }],
  };
  const ok = await verifyDraw(JSON.stringify(result));
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.ok, true);
  const tamper = async (f, want) => {
    const r = structuredClone(result);
    f(r);
    const v = await verifyDraw(JSON.stringify(r));
    assert.equal(v.payoutsMatch, false, want.source);
    assert.match(v.problems.join('\n'), want);
  };
  // 2 bets staking 100.01 at 3.87 return more than 387.03 - 0.02 and at most 387.03.
  await tamper((r) => { r.pools[0].selections[0].payout = 38704; r.pools[0].paid = 38704; r.pools[0].categories[0].paid = 38704; r.pools[0].breakage = 97; }, /selection 1: 2 bets staking 10001 cannot return 38704/);
  await tamper((r) => { r.pools[0].selections[0].payout = 38701; r.pools[0].paid = 38701; r.pools[0].categories[0].paid = 38701; r.pools[0].breakage = 100; }, /selection 1: 2 bets staking 10001 cannot return 38701/);
  await tamper((r) => { r.pools[0].selections[1].payout = 1; }, /selection 2: 1 bets staking 30000 cannot return 1 at coefficient 0/);
  await tamper((r) => { r.pools[0].breakage = 99; }, /breakage published 99, recomputed 98/);
  await tamper((r) => { r.pools[0].selections[0].stakes = 10002; }, /gross published 40001, recomputed 40002/);
  await tamper((r) => { r.pools[1].selections[0].payout = 9999; }, /selection FLUSH is refunded/);
  await tamper((r) => { r.pools[0].numBets = 4; }, /4 bets published, 3 listed/);
});

test('beacon: quicknet round 1000 of docs/fairness.md verifies, another round or key does not; round after a deadline', async () => {
  const b = await load('verify/beacon.ts');
  const sig = 'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39';
  assert.equal(await b.verifyRound(1000, sig, b.QUICKNET.publicKey), true);
  assert.equal(await b.verifyRound(1001, sig, b.QUICKNET.publicKey), false);
  assert.equal(await b.verifyRound(1000, sig.replace(/^b4/, 'b5'), b.QUICKNET.publicKey), false);
  const c = b.QUICKNET;
  assert.equal(b.roundAfter(c.genesisUnixMs - 1, c), 1);
  assert.equal(b.roundAfter(c.genesisUnixMs, c), 2, 'round 1 is published at genesis, so the first strictly after is 2');
  assert.equal(b.roundAfter(c.genesisUnixMs + 2999, c), 2);
  assert.equal(b.roundAfter(c.genesisUnixMs + 3000, c), 3);
  const { problems } = await b.checkBeacons({ version: 2, chain: { ...c, hash: 'ff' }, closesAt: [], rounds: [] }, [false, false, false, false]);
  assert.match(problems.join('\n'), /hash is not quicknet's/);
});

test("docs/fairness-example.json (the worked example on quicknet, fair deal 3) verifies; a changed river does not", async () => {
  const { readFileSync } = await import('node:fs');
  const text = readFileSync(new URL('../../../docs/fairness-example.json', import.meta.url), 'utf8');
  const v = await verifyDraw(text);
  assert.deepEqual(v.problems, []);
  assert.equal(v.ok, true);
  assert.equal(v.beaconsValid, true, 'a version-2 example checks its beacons');
  assert.ok(!v.notes.includes('localBeacon'), 'quicknet, not the local beacon');
  assert.equal(v.verdict, 'ok');
  const r = JSON.parse(text);
  r.board[4] = r.board[4] === '2c' ? '3c' : '2c';
  const bad = await verifyDraw(JSON.stringify(r));
  assert.equal(bad.cardsMatch, false);
  assert.equal(bad.ok, false);
});

// The expected lines are what hand.BestFive and Value.Describe print for the same seven cards.
test('best five and description as the server writes them (hand.BestFive, Describe)', () => {
  const c = (s) => s.split(' ').map((x) => '23456789TJQKA'.indexOf(x[0]) * 4 + 'cdhs'.indexOf(x[1]));
  const show = (s) => { const { score, five } = fair.bestFive(c(s)); return `${fair.describe(score)}: ${five.map(fair.cardName).join(' ')}`; };
  assert.equal(show('Ah 2h 9h 4h 5h Kc Kd'), 'Flush, ace high: Ah 9h 5h 4h 2h');
  assert.equal(show('Kc Kd 5h Ks 5c 2d 3d'), 'Full house, kings over fives: Kc Kd Ks 5h 5c');
  assert.equal(show('Ac 2d 3h 4s 5c 9d Kd'), 'Straight, five high: 5c 4s 3h 2d Ac');
  assert.equal(show('Ac Ad Th Ts 2c 3d 7h'), 'Two pair, aces and tens: Ac Ad Th Ts 7h');
  assert.equal(show('6c 6d Th 2s 3c 8d Kh'), 'Pair, sixes: 6c 6d Kh Th 8d');
  assert.equal(show('Qc 9d 7h 5s 3c 2d Jh'), 'High card, queen: Qc Jh 9d 7h 5s');
  assert.equal(show('Ah Kh Qh Jh Th 2c 3d'), 'Royal flush: Ah Kh Qh Jh Th');
  assert.equal(show('7c 7d 7h 7s Ac 2d 3d'), 'Four of a kind, sevens: 7c 7d 7h 7s Ac');
  assert.equal(show('9c 9d 9h 2s Ac Kd 3d'), 'Three of a kind, nines: 9c 9d 9h Ac Kd');
  assert.equal(show('5d 4d 3d 2d Ad 5c 5h'), 'Straight flush, five high: 5d 4d 3d 2d Ad');
  // The board plays: the earliest cards of the seven are taken.
  assert.equal(show('2c 3d Ah Kh Qh Jh Th'), 'Royal flush: Ah Kh Qh Jh Th');
});
