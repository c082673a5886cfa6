// One adapter per area: screens (web/src/**/*.tsx) call the API only through
// web/src/api/<area>.ts, never the GraphQL client, the operation documents or
// a document of their own, so an API shape changes in one file. Importing
// the generated types (`import type ... from '../gql/graphql'`) is allowed:
// a type carries no call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

function tsxFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'gql' ? [] : tsxFiles(p);
    return e.name.endsWith('.tsx') ? [p] : [];
  });
}

// rules: what a screen may not do, each with a pattern over its source.
const rules = [
  ['imports the GraphQL client', /from\s+['"][^'"]*\/api\/client['"]/],
  ['imports the operation documents', /from\s+['"][^'"]*\/api\/ops['"]/],
  ['imports a GraphQL library', /from\s+['"](graphql|graphql-ws|graphql-request|@apollo\/client|urql)(\/[^'"]*)?['"]/],
  ['imports a value from the generated gql/ module', /import\s+(?!type\b)[^;]*from\s+['"][^'"]*\/gql\/[^'"]*['"]/],
  ['calls gql() or graphql()', /\b(gql|graphql)\s*(\(|<[^>]*>\s*\(|`)/],
  ['writes a GraphQL document', /`\s*(query|mutation|subscription)\b[^`]*\{/],
  ['fetches /query itself', /fetch\s*\([^)]*['"`][^'"`]*\/query/],
];

function violations(text) {
  return rules.filter(([, re]) => re.test(text)).map(([what]) => what);
}

test('the rules catch a raw call (so an empty result below means something)', () => {
  const bad = [
    "import { gql } from '../api/client';",
    "import * as ops from '../api/ops';",
    "import { createClient } from 'graphql-ws';",
    "import { graphql } from '../gql/gql';",
    'const r = await gql<TablesQuery>(doc);',
    'const doc = `query Tables { tables { id } }`;',
    "await fetch('/query', { method: 'POST' });",
  ];
  for (const line of bad) assert.notDeepEqual(violations(line), [], `not caught: ${line}`);
  assert.deepEqual(violations("import type { Market } from '../gql/graphql';\nimport { listTables } from '../api/table';"), []);
});

test('every screen reaches the API through an adapter in web/src/api/', () => {
  const files = tsxFiles(src);
  assert.ok(files.length >= 8, `found only ${files.length} .tsx files under ${src}`);
  const found = files.flatMap((f) => violations(readFileSync(f, 'utf8')).map((what) => `${relative(src, f)} ${what}`));
  assert.deepEqual(found, [], 'call the API through web/src/api/<area>.ts instead');
});
