// Registers the web client's operations as trusted documents: every
// query, mutation and subscription exported by src/api/ops.ts, exactly as
// the client sends it (withFragments), keyed "sha256:<hex of the text>", in
// ../trusteddocs/web.json (embedded in the Go server, which in production
// runs only registered documents for players; see docs/frontend.md).
// Deterministic; .ci/run runs it and fails when the committed file differs.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';

const out = await build({
  entryPoints: ['src/api/ops.ts'], bundle: true, write: false, format: 'esm', platform: 'neutral', logLevel: 'error',
});
const ops = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
const docs = {};
for (const [name, value] of Object.entries(ops)) {
  if (typeof value !== 'string' || !/^\s*(query|mutation|subscription)\b/.test(value)) continue;
  const text = ops.withFragments(value);
  docs['sha256:' + createHash('sha256').update(text).digest('hex')] = text;
  void name;
}
const sorted = Object.fromEntries(Object.entries(docs).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync('../trusteddocs/web.json', JSON.stringify(sorted, null, 2) + '\n');
console.log(`trusteddocs/web.json: ${Object.keys(sorted).length} documents`);
