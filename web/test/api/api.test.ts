// The API as a frontend uses it, from Node: graphql-ws for the live table,
// fetch for queries and mutations, and the types graphql-codegen generated
// from the server's schema into the client's src/gql/graphql.ts (a schema
// change that breaks these operations fails to compile). It builds and
// starts the Go server itself, on a free port, and stops it at the end.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, parse, print, type OperationDefinitionNode } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type {
  ApiTermsQuery, ApiRegisterMutation, ApiRegisterMutationVariables, ApiLoginMutation, ApiLoginMutationVariables,
  ApiSubmitVerificationMutation, ApiSubmitVerificationMutationVariables,
  ApiDecideVerificationMutationVariables, ApiDepositMutationVariables,
  ApiCreateTableMutation, ApiCreateTableMutationVariables, ApiTableQuery, ApiTableQueryVariables,
  ApiTableEventsSubscription, ApiTableEventsSubscriptionVariables,
  ApiPlaceBetMutation, ApiPlaceBetMutationVariables, ApiMyBetsQuery, ApiMyBetsQueryVariables,
  ApiMyLedgerQuery, ApiMyLedgerQueryVariables, SelectionInput,
} from '../../src/gql/graphql.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../../../../..'); // web/test/api/dist/test/api -> repository root
const ADMIN = { email: 'admin@pokertote.test', password: 'admin password 123' };

let server: ChildProcess;
let dir: string;
let base = '';

type GqlError = { message: string; extensions?: { code?: string; reason?: string } };
class ApiError extends Error {
  constructor(readonly errors: GqlError[]) { super(errors.map((e) => e.message).join('; ')); }
  get reason() { return this.errors[0]?.extensions?.reason; }
}

async function gql<TData, TVars>(query: string, variables: TVars, token?: string): Promise<TData> {
  const res = await fetch(`${base}/query`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: TData; errors?: GqlError[] };
  if (body.errors?.length) throw new ApiError(body.errors);
  return body.data as TData;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pokertote-api-'));
  const bin = join(dir, 'pokertote-server');
  const built = spawnSync('go', ['build', '-o', bin, './cmd/server'], { cwd: repo, stdio: 'inherit' });
  assert.equal(built.status, 0, 'go build ./cmd/server');
  server = spawn(bin, [], {
    env: {
      ...process.env, ADDR: '127.0.0.1:0', DATA_DIR: dir, LOG_FORMAT: 'json', DEMO_TABLES: 'false',
      DEALER: 'true', TIME_SCALE: '3', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password,
      DATABASE_URL: '', REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  base = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('the server did not start in 60 s')), 60_000);
    let buf = '';
    server.stderr!.on('data', (chunk: Buffer) => {
      buf += chunk.toString();
      for (const line of buf.split('\n')) {
        try {
          const rec = JSON.parse(line) as { msg?: string; addr?: string };
          if (rec.msg === 'serving' && rec.addr) { clearTimeout(timer); ok(`http://${rec.addr}`); }
        } catch { /* a partial line */ }
      }
    });
    server.on('exit', (code) => fail(new Error(`the server exited with ${code}`)));
  });
});

after(() => {
  server?.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// The operations, from the same file graphql-codegen typed (one source).
const operations = new Map(
  parse(readFileSync(join(here, '../../..', 'operations.graphql'), 'utf8')).definitions
    .filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
    .map((d) => [d.name!.value, print(d)]),
);
function op(name: string): string {
  const text = operations.get(name);
  assert.ok(text, `operation ${name} in operations.graphql`);
  return text;
}
const q = {
  terms: op('ApiTerms'), register: op('ApiRegister'), login: op('ApiLogin'), submit: op('ApiSubmitVerification'), decide: op('ApiDecideVerification'),
  deposit: op('ApiDeposit'), createTable: op('ApiCreateTable'), table: op('ApiTable'), events: op('ApiTableEvents'),
  placeBet: op('ApiPlaceBet'), myBets: op('ApiMyBets'), myLedger: op('ApiMyLedger'),
};

test('join a table, watch it live, bet, page and read error reasons', async () => {
  // A new player accepts the terms in force: the register answer already
  // carries owner-only fields.
  const terms = await gql<ApiTermsQuery, Record<string, never>>(q.terms, {});
  assert.equal(terms.terms.acceptedAt, null);
  const reg = await gql<ApiRegisterMutation, ApiRegisterMutationVariables>(q.register, {
    input: { email: 'node-player@example.kz', password: 'player password 1', name: 'Node', dateOfBirth: '1990-05-17', acceptedTerms: terms.terms.version },
  });
  assert.equal(reg.register.user.balance, '0.00');
  assert.equal(reg.register.user.verification.status, 'NONE');
  const player = reg.register.accessToken;

  const admin = (await gql<ApiLoginMutation, ApiLoginMutationVariables>(q.login, ADMIN)).login.accessToken;
  const sub = await gql<ApiSubmitVerificationMutation, ApiSubmitVerificationMutationVariables>(q.submit, {
    input: { documentType: 'ID_CARD', documentNumber: 'N123456', dateOfBirth: '1990-05-17' },
  }, player);
  await gql<unknown, ApiDecideVerificationMutationVariables>(q.decide, { input: { id: sub.submitVerification.id!, approve: true, reason: null } }, admin);
  await gql<unknown, ApiDepositMutationVariables>(q.deposit, { input: { userId: reg.register.user.id, amount: '5000.00', idempotencyKey: 'node-dep', memo: null } }, admin);
  const table = (await gql<ApiCreateTableMutation, ApiCreateTableMutationVariables>(q.createTable, {
    input: { name: 'Node table', positions: 6, minStake: '100.00', maxStake: null, commission: '3.00', roundSeconds: null, cardIntervalMs: null, resultSeconds: null, expressShares: null },
  }, admin)).createTable;
  assert.equal(table.settings.commission, '3.00');

  // Live events over graphql-ws, with the token in connection_init.
  const ws: Client = createClient({ url: base.replace('http', 'ws') + '/query', webSocketImpl: WebSocket, connectionParams: { authToken: player } });
  const seqs: number[] = [];
  const typenames = new Set<string>();
  const stop = ws.subscribe<ApiTableEventsSubscription, ApiTableEventsSubscriptionVariables>(
    { query: q.events, variables: { tableId: table.id, afterSeq: 0 } },
    {
      next: (m) => { if (m.data) { seqs.push(m.data.tableEvents.seq); typenames.add(m.data.tableEvents.__typename); } },
      error: (e) => assert.fail(`subscription error: ${JSON.stringify(e)}`),
      complete: () => {},
    },
  );

  // Render the table: wait for its draw's first round.
  let draw: NonNullable<ApiTableQuery['table']>['currentDraw'] = null;
  for (let i = 0; i < 300 && !(draw?.openRound === 'PRE_DEAL'); i++) {
    draw = (await gql<ApiTableQuery, ApiTableQueryVariables>(q.table, { id: table.id }, player)).table?.currentDraw ?? null;
    if (draw?.openRound !== 'PRE_DEAL') await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(draw && draw.openRound === 'PRE_DEAL', 'the draw opened its first round');
  assert.equal(draw.positions.length, 6);

  // Bet with typed selections: one of position, combination or express.
  const picks: SelectionInput[] = [{ position: 3 }, { combination: 'FLUSH' }, { express: { flop: 1, turn: 2, river: 2 } }];
  for (const [i, selection] of picks.entries()) {
    const bet: ApiPlaceBetMutation = await gql<ApiPlaceBetMutation, ApiPlaceBetMutationVariables>(q.placeBet, {
      input: { drawId: draw.id, selection, stake: '100.00', idempotencyKey: `node-bet-${i}` },
    }, player);
    assert.equal(bet.placeBet.status, 'ACCEPTED');
  }
  assert.deepEqual(
    (await gql<ApiPlaceBetMutation, ApiPlaceBetMutationVariables>(q.placeBet, { input: { drawId: draw.id, selection: { position: 3 }, stake: '100.00', idempotencyKey: 'node-bet-0' } }, player)).placeBet.market,
    'WIN', 'a retry with the same idempotency key answers the first bet');

  const reason = async (p: Promise<unknown>) => { try { await p; return 'none'; } catch (e) { return (e as ApiError).reason; } };
  assert.equal(await reason(gql(q.placeBet, { input: { drawId: draw.id, selection: { position: 3 }, stake: '10000.00', idempotencyKey: 'node-big' } }, player)), 'INSUFFICIENT_FUNDS');

  // Page with Relay cursors.
  const first = (await gql<ApiMyBetsQuery, ApiMyBetsQueryVariables>(q.myBets, { first: 2, after: null }, player)).myBets;
  assert.equal(first.edges.length, 2);
  assert.equal(first.pageInfo.hasNextPage, true);
  const rest = (await gql<ApiMyBetsQuery, ApiMyBetsQueryVariables>(q.myBets, { first: 2, after: first.pageInfo.endCursor }, player)).myBets;
  assert.equal(rest.edges.length, 1);
  assert.equal(rest.pageInfo.hasNextPage, false);
  assert.equal(rest.edges[0].node.draw.table.name, 'Node table');
  const ledger = (await gql<ApiMyLedgerQuery, ApiMyLedgerQueryVariables>(q.myLedger, { first: 10, after: null }, player)).myLedger;
  assert.deepEqual(ledger.edges.map((e) => e.node.kind), ['BET_STAKE', 'BET_STAKE', 'BET_STAKE', 'DEPOSIT']);

  // Error reasons a UI handles.
  assert.equal(await reason(gql(q.myBets, { first: 1000, after: null }, player)), 'INVALID_PAGE_SIZE');
  assert.equal(await reason(gql(q.myBets, { first: 10, after: 'not-a-cursor' }, player)), 'INVALID_CURSOR');

  // The stream delivered the table's events in order, without gaps.
  for (let i = 0; i < 100 && seqs.length < 3; i++) await new Promise((r) => setTimeout(r, 50));
  stop();
  await ws.dispose();
  assert.ok(seqs.length >= 3, `events seen: ${seqs.length}`);
  seqs.forEach((s, i) => assert.equal(s, seqs[0] + i));
});
