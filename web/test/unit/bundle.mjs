// Bundles a TypeScript module of src/ for Node (esbuild), so unit tests run
// the very code the browser runs. Given markets (a file), the bundle reads
// the markets from it instead of src/markets.gen.ts: a module
// cmd/gen-markets generated for another registry (a market not in
// production, test/markets-verify.mjs).
import * as esbuild from 'esbuild';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function load(entry, { markets } = {}) {
  const plugins = markets ? [{
    name: 'markets',
    setup(b) { b.onResolve({ filter: /(^|\/)markets\.gen(\.ts)?$/ }, () => ({ path: resolve(markets) })); },
  }] : [];
  const r = await esbuild.build({ entryPoints: [resolve(import.meta.dirname, '../../src', entry)], bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'error', plugins });
  const file = join(mkdtempSync(join(tmpdir(), 'pokertote-unit-')), 'm.mjs');
  writeFileSync(file, r.outputFiles[0].text);
  return import(pathToFileURL(file).href);
}
