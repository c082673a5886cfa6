// Runs the browser's verifier with the markets of another registry: node
// test/markets-verify.mjs MARKETS.ts RESULT.json... bundles verify/index.ts
// with MARKETS.ts (what cmd/gen-markets generates for that registry) in
// place of src/markets.gen.ts, verifies each result (the JSON of
// Draw.resultJson) and prints one line of JSON per result: its verdict,
// payoutsMatch, suspensionsMatch and problems. cmd/gen-markets'
// TestTopTwoInTheWebVerifier runs it on a draw with a TOP_TWO pool, a
// market that is not in production and that no code of the verifier names.
import { readFileSync } from 'node:fs';
import { load } from './unit/bundle.mjs';

const [markets, ...results] = process.argv.slice(2);
if (!markets || results.length === 0) {
  console.error('usage: node test/markets-verify.mjs MARKETS.ts RESULT.json...');
  process.exit(2);
}
const { verifyDraw } = await load('verify/index.ts', { markets });
const { MARKETS } = await load('markets.gen.ts', { markets });
for (const file of results) {
  const v = await verifyDraw(readFileSync(file, 'utf8'));
  console.log(JSON.stringify({ file, markets: MARKETS.map((m) => m.name), verdict: v.verdict, payoutsMatch: v.payoutsMatch, suspensionsMatch: v.suspensionsMatch, problems: v.problems }));
}
