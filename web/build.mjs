// Builds the client into dist/ deterministically: the same sources give the
// same bytes (content-hashed names, no timestamps, sorted output), so
// .ci/run can rebuild and fail when the committed bundle differs. It also
// fails when the gzipped bundle exceeds the 250 KB budget. Each text file
// gets precompressed .br and .gz siblings (deterministic: zlib writes no
// timestamp) that the Go server sends to browsers that accept them.
import * as esbuild from 'esbuild';
import { rmSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { gzipSync, gunzipSync, brotliCompressSync, brotliDecompressSync, constants as zc } from 'node:zlib';
import { basename } from 'node:path';

const BUDGET = 250 * 1024;
rmSync('dist', { recursive: true, force: true });
mkdirSync('dist/assets', { recursive: true });
const r = await esbuild.build({
  entryPoints: { app: 'src/main.tsx' },
  bundle: true, minify: true, format: 'esm', target: ['es2020', 'chrome100', 'safari15', 'firefox100'],
  jsx: 'automatic', jsxImportSource: 'preact', outdir: 'dist/assets', entryNames: '[name]-[hash]',
  splitting: true, chunkNames: '[name]-[hash]',
  legalComments: 'none', metafile: true, sourcemap: false, charset: 'utf8', logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
});
const outs = Object.keys(r.metafile.outputs).sort();
const js = outs.find((f) => basename(f).startsWith('app-') && f.endsWith('.js'));
const css = outs.find((f) => f.endsWith('.css'));
const html = `<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>Pokertote</title>
<link rel="icon" href="data:,">
${css ? `<link rel="stylesheet" href="/assets/${basename(css)}">\n` : ''}<script type="module" src="/assets/${basename(js)}"></script>
</head>
<body>
<div id="app"></div>
<noscript>Pokertote needs JavaScript. The GraphQL API is at /query.</noscript>
</body>
</html>
`;
writeFileSync('dist/index.html', html);
let gz = 0;
for (const f of [...outs, 'dist/index.html']) {
  const b = readFileSync(f);
  const g = gzipSync(b, { level: 9 });
  gz += g.length;
  const br = brotliCompressSync(b, { params: { [zc.BROTLI_PARAM_QUALITY]: 11, [zc.BROTLI_PARAM_SIZE_HINT]: b.length } });
  if (!gunzipSync(g).equals(b) || !brotliDecompressSync(br).equals(b)) throw new Error(`${f}: a compressed copy does not decode to the file`);
  writeFileSync(f + '.gz', g);
  writeFileSync(f + '.br', br);
}
console.log(`built ${outs.map((f) => basename(f)).join(', ')}; ${(gz / 1024).toFixed(1)} KB gzipped (budget ${BUDGET / 1024} KB)`);
if (gz > BUDGET) { console.error('bundle over budget'); process.exit(1); }
