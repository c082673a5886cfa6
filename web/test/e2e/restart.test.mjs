// The server is restarted in the middle of a draw: the open page notices the
// drop, reconnects when the server is back, resumes from its last seq and ends
// up showing exactly what a freshly loaded page shows.
import { test, before, after } from 'node:test';
import { Server, launch, newPage, waitFor, tableState, sleep, shot } from './harness.mjs';

let server, browser;
before(async () => { server = new Server({ timeScale: 4 }); await server.start(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('a page resumes without gaps after the server restarts mid-draw', async () => {
  const page = await newPage(browser, server);
  await page.goto('/table/1');
  const mid = await waitFor(async () => { const s = await tableState(page); return s && ['FLOP', 'DEALING_TURN', 'POCKET', 'DEALING_FLOP'].includes(s.phase) && s; }, 'a draw mid-deal', 120_000);
  await server.stop();
  await waitFor(async () => (await page.locator('.dot.off').count()) > 0, 'page notices the drop', 15_000);
  await sleep(1000);
  await server.start();
  await waitFor(async () => (await page.locator('.dot.on').count()) > 0, 'page reconnects', 30_000);
  // The same draw goes on and the page follows it past where it stopped.
  await waitFor(async () => { const s = await tableState(page); return s.seq > mid.seq + 2 && s; }, 'events after the restart', 60_000);
  const fresh = await newPage(browser, server);
  await fresh.goto('/table/1');
  await waitFor(async () => {
    const a = await tableState(page); const b = await tableState(fresh); const a2 = await tableState(page);
    return a.seq === b.seq && a2.seq === a.seq && a.felt === b.felt && a.cards === b.cards && a.phase === b.phase;
  }, 'resumed page equals a fresh one', 30_000);
  await shot(page, 'table-after-restart');
  if (page.errors.length) throw new Error('script errors: ' + page.errors.join('; '));
});
