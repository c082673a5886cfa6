// The browser's version-3 checks (verify/commit.ts) agree with the Go
// verifier's void and bet-root rules (TestVerifyVoidCauses,
// TestBetRootsCommitEveryRound) on results built here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from './bundle.mjs';

const c = await load('verify/commit.ts');
const ROOT = '93b5016610b4c29fc907aff913a1e4877f2beca1b511f0d15a667df58b719013';
const beacons = { closesAt: ['2026-12-01T12:01:00.000Z', '2026-12-01T12:02:10.000Z', '2026-12-01T12:03:20.000Z', '2026-12-01T12:04:30.000Z'],
  rounds: [1, 2, 3, 4], deadlines: ['2026-12-01T12:01:21.000Z', '2026-12-01T12:02:31.000Z', '2026-12-01T12:03:41.000Z', '2026-12-01T12:04:51.000Z'], signatures: ['', '', '', ''] };
const admin = () => {
  const v = { kind: 'ADMIN_BEFORE_DEAL', at: '2026-12-01T12:00:10.000Z', why: 'camera failure' };
  return { version: 3, void: true, voidDetail: v, voidReason: c.voidReason(v), jackpotBefore: 500000, jackpotAfter: 500000, beacons,
    pools: [{ poolId: '1:1:WIN', round: 'PRE_DEAL', numBets: 2, gross: 30000, jackpotBefore: 500000 }] };
};
const settled = () => ({ version: 3, jackpotBefore: 0, jackpotAfter: 0, beacons,
  pools: [{ poolId: '1:1:WIN', round: 'PRE_DEAL', numBets: 2, gross: 30000, jackpotBefore: 0 }],
  betRoots: [{ round: 1, root: ROOT, numBets: 2, stakes: 30000 }, ...[2, 3, 4].map((r) => ({ round: r, root: ROOT, numBets: 0, stakes: 0 }))] });

test('an admin void before the close passes; tampers fail', () => {
  assert.deepEqual(c.verifyCommitted(admin()), []);
  const tampers = {
    'relabelled reason': (r) => { r.voidReason = 'beacon failure: round 1 was not available'; },
    'empty reason': (r) => { r.voidReason = ''; },
    'after the close': (r) => { r.voidDetail.at = '2026-12-01T12:01:01.000Z'; r.voidReason = c.voidReason(r.voidDetail); },
    'relabelled kind': (r) => { Object.assign(r.voidDetail, { kind: 'BEACON_MISSING', street: 1, round: 1, deadline: beacons.deadlines[0] }); r.voidReason = c.voidReason(r.voidDetail); },
    'jackpot moved': (r) => { r.jackpotAfter = 0; },
    'hands': (r) => { r.hands = [{ position: 1 }]; },
  };
  for (const [name, f] of Object.entries(tampers)) {
    const r = admin();
    f(r);
    assert.notDeepEqual(c.verifyCommitted(r), [], name);
  }
});

test('bet roots bind each round: phantom, 39,000, dropped pool fail', () => {
  assert.deepEqual(c.verifyCommitted(settled()), []);
  const tampers = {
    'phantom bet': (r) => { r.pools[0].numBets++; r.pools[0].gross += 500000; },
    '2 bets published as 39,000': (r) => { r.pools[0].numBets = 39000; },
    'dropped pool': (r) => { r.pools = []; },
    'upper-case root': (r) => { r.betRoots[0].root = ROOT.toUpperCase(); },
    'roots dropped': (r) => { r.betRoots.pop(); },
  };
  for (const [name, f] of Object.entries(tampers)) {
    const r = settled();
    f(r);
    assert.ok(c.verifyCommitted(r).some((p) => p.includes('bet root')), name);
  }
});
