// GraphiQL at /graphiql: it opens on the Pokertote example tabs (with the
// Authorization hint), and its first tab's subscription runs over
// graphql-ws on /query in the browser, showing the table's snapshot and
// then live events.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Server, launch, newPage, waitFor, shot } from './harness.mjs';

let server, browser;
before(async () => { server = new Server({ timeScale: 4 }); await server.start(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('GraphiQL runs a subscription over graphql-ws', async () => {
  const page = await newPage(browser, server);
  const sockets = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.goto('/graphiql');
  await waitFor(async () => (await page.locator('.graphiql-query-editor').count()) > 0, 'the editor', 30_000);
  const editor = await page.locator('.graphiql-query-editor').innerText();
  assert.match(editor, /subscription JoinTable/);
  assert.match(editor, /Authorization/);
  const tabs = await page.locator('.graphiql-tab').count();
  assert.ok(tabs >= 3, `example tabs: ${tabs}`);

  await page.locator('.graphiql-execute-button').click();
  const response = () => page.locator('.graphiql-response').innerText();
  await waitFor(async () => /"__typename": "TableSnapshot"/.test(await response()), 'the snapshot in the response pane', 30_000);
  const first = Number((await response()).match(/"seq": (\d+)/)[1]);
  // The subscription goes on: a later event replaces the snapshot.
  await waitFor(async () => {
    const m = (await response()).match(/"seq": (\d+)/);
    return m && Number(m[1]) > first;
  }, 'a live event after the snapshot', 60_000);
  assert.ok(sockets.some((u) => u.endsWith('/query')), `WebSockets opened: ${sockets}`);
  await shot(page, 'graphiql-subscription');

  // The other example tabs open with their own operations.
  await page.locator('.graphiql-tab').nth(2).click();
  await waitFor(async () => /mutation PlaceBet/.test(await page.locator('.graphiql-query-editor').innerText()), 'the place-a-bet tab', 10_000);
  await page.locator('.graphiql-tab').nth(1).click();
  await waitFor(async () => /mutation SignIn/.test(await page.locator('.graphiql-query-editor').innerText()), 'the sign-in tab', 10_000);

  const icon = await fetch(server.url + '/favicon.ico');
  assert.equal(icon.status, 200);
  assert.equal(icon.headers.get('content-type'), 'image/x-icon');
  if (page.errors.length) throw new Error('script errors: ' + page.errors.join('; '));
});
