// Bundles a TypeScript module of src/ for Node (esbuild), so unit tests run
// the very code the browser runs.
import * as esbuild from 'esbuild';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function load(entry) {
  const r = await esbuild.build({ entryPoints: [resolve(import.meta.dirname, '../../src', entry)], bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'error' });
  const file = join(mkdtempSync(join(tmpdir(), 'pokertote-unit-')), 'm.mjs');
  writeFileSync(file, r.outputFiles[0].text);
  return import(pathToFileURL(file).href);
}
