// The shared tamper corpus (testdata/fairness, issue 26) through the
// browser's verifier: every genuine result gets its verdict ("ok" on
// quicknet, "local" on the server's own chain), every tampered one is
// rejected, as the Go verifier (go test ./domain/tote/verify -run
// TestFairnessCorpus; ./cmd/verify-draw -run TestCorpus) does. A tamper
// that only what the player recorded can catch must verify without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { load } from './bundle.mjs';

const { verifyDraw } = await load('verify/index.ts');
const dir = new URL('../../../testdata/fairness/', import.meta.url);
const cases = ['genuine', 'tampered'].flatMap((d) => readdirSync(new URL(d + '/', dir)).filter((f) => f.endsWith('.json')).map((f) => `${d}/${f}`));

test('the corpus holds the genuine results and at least the 16 tampers of issue 26', () => {
  assert.ok(cases.filter((c) => c.startsWith('tampered/')).length >= 16, cases.join(' '));
  for (const kind of ['settled-local', 'void-admin-before-deal-local', 'void-beacon-missing-local', 'quicknet-example']) assert.ok(cases.includes(`genuine/${kind}.json`), kind);
});

for (const name of cases) {
  test(`corpus ${name}`, async () => {
    const c = JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
    const json = JSON.stringify(c.result);
    const v = await verifyDraw(json, c.recorded, undefined, c.leaves);
    assert.equal(v.verdict, c.expect, `${c.description}: problems ${JSON.stringify(v.problems)}`);
    if (c.verifiesAlone) {
      const alone = await verifyDraw(json);
      assert.notEqual(alone.verdict, 'reject', `without what was recorded it should verify: ${JSON.stringify(alone.problems)}`);
    }
  });
}
