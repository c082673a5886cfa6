// A suspended selection in the browser (SPEC 1.9): an admin creates a table
// of two positions with SUSPEND_AT lowered to 50 %, where every round after
// the deal has a WIN position at or above the line (the two chances of
// winning or tying add up to at least 1); at the turn the table view marks
// it suspended in the live round's pool table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Server, ADMIN, launch, newPage, waitFor, shot } from './harness.mjs';

let server;
let browser;
before(async () => { server = new Server({ timeScale: 4 }); await server.start(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('a suspended WIN selection is marked at the turn', async () => {
  const { accessToken } = await server.login(ADMIN.email, ADMIN.password);
  const created = await server.gql('mutation($in:TableInput!){createTable(input:$in){id settings{suspendAt}}}',
    { in: { name: 'Heads-up suspension', positions: 2, suspendAt: '50.00' } }, accessToken);
  const id = created.createTable.id;
  assert.equal(created.createTable.settings.suspendAt, '50.00');
  const page = await newPage(browser, server);
  await page.goto('/table/' + id);
  const turn = await waitFor(async () => {
    const d = (await server.gql('query($id:ID!){table(id:$id){currentDraw{openRound chances{round chances{market selection suspended}}}}}', { id })).table.currentDraw;
    return d?.openRound === 'TURN' && d;
  }, 'the turn round open', 180_000);
  const want = turn.chances.find((c) => c.round === 'TURN').chances.filter((c) => c.market === 'WIN' && c.suspended).map((c) => c.selection);
  assert.ok(want.length > 0, 'a WIN selection is suspended at 50 % on two positions');
  const rows = page.locator('table[data-pool="TURN/WIN"] tr[data-suspended]');
  await waitFor(async () => (await rows.count()) === want.length, 'the suspended rows marked');
  assert.equal(await rows.count(), want.length);
  await shot(page, 'suspended-turn');
});
