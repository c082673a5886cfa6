// The browser's jackpot chain check (web/src/verify/jackpot.ts) on the run
// domain/tote/verify writes (testdata/jackpot/run.json, TestJackpotRunFile):
// the genuine run holds, and every tamper of docs/fairness.md section 14 fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { load } from './bundle.mjs';

const m = await load('verify/jackpot.ts');
const genuine = JSON.parse(readFileSync(new URL('../../../testdata/jackpot/run.json', import.meta.url), 'utf8'));
const clone = () => structuredClone(genuine);
const sign = { OPENING: 1, CONTRIBUTION: 1, ROLLOVER: 1, WIN: -1, TOP_UP: 1 };
const rechain = (es, i) => {
  for (; i < es.length; i++) {
    if (i > 0) { es[i].before = es[i - 1].after; es[i].prevHash = es[i - 1].hash; }
    es[i].after = es[i].before + sign[es[i].kind] * es[i].amount;
    es[i].hash = createHash('sha256').update(m.jackpotBytes(es[i])).digest('hex');
  }
};
const winner = (run) => run.results.find((r) => r.pools.some((p) => p.jackpotPaid > 0));
const head = genuine.entries.at(-1);

test('the genuine run holds, with its head recorded', async () => {
  assert.deepEqual(await m.verifyJackpotChain(genuine), []);
  assert.deepEqual(await m.verifyJackpotChain({ ...clone(), anchors: [{ seq: head.seq, hash: head.hash }] }), []);
});

const tampers = {
  'a raised jackpotBefore': (run) => { const r = winner(run); r.jackpotBefore += 1000; r.jackpotAfter += 1000; r.pools.forEach((p) => { p.jackpotBefore += 1000; }); },
  'a reduced win': (run) => { const r = winner(run); const p = r.pools.find((x) => x.jackpotPaid > 0); p.jackpotPaid -= 1000; r.jackpotAfter += 1000; },
  'a reduced win entry, rechained': (run) => { const i = run.entries.findIndex((e) => e.kind === 'WIN'); run.entries[i].amount -= 1000; rechain(run.entries, i); },
  'a dropped entry': (run) => { run.entries.splice(run.entries.findIndex((e) => e.kind === 'CONTRIBUTION'), 1); },
  'a rewritten entry, rechained, against the recorded head': (run) => {
    const i = run.entries.findIndex((e) => e.kind === 'TOP_UP');
    run.entries[i].at = new Date(Date.parse(run.entries[i].at) - 3600_000).toISOString();
    rechain(run.entries, i);
    run.anchors = [{ seq: head.seq, hash: head.hash }];
  },
  'an entry edited without its hash': (run) => { const e = run.entries.find((x) => x.kind === 'TOP_UP'); e.amount += 1; e.after += 1; },
};
for (const [name, tamper] of Object.entries(tampers)) {
  test(`rejects ${name}`, async () => {
    const run = clone();
    tamper(run);
    assert.notDeepEqual(await m.verifyJackpotChain(run), []);
  });
}
