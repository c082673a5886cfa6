// Layout under live updates, on a phone, and labels: pool updates at about 4
// per second move no pixel of the page (cumulative layout shift measured by
// Chromium's layout-shift entries), a phone-sized screen needs no horizontal
// scrolling, every form control has an accessible name, and an expired access
// token is refreshed without signing out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Server, launch, newPage, waitFor, playerViaApi, shot, sleep } from './harness.mjs';

let server, browser;
before(async () => { server = new Server({ timeScale: 2, env: { ACCESS_TOKEN_TTL: '8s' } }); await server.start(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const draw = async () => (await server.gql('{table(id:"1"){positions currentDraw{id openRound roundClosesAt}}}')).table;

async function unlabeled(page) {
  return page.evaluate(() => [...document.querySelectorAll('input, select, textarea, button')]
    .filter((e) => !(e.labels?.length || e.getAttribute('aria-label') || (e.tagName === 'BUTTON' && e.textContent.trim())))
    .map((e) => e.outerHTML.slice(0, 80)));
}

test('pool updates at 4/s cause no layout shift; phone screen fits; controls are labelled; tokens refresh', async () => {
  await playerViaApi(server, 'jank@pokertote.test', '10000.00');
  const page = await newPage(browser, server);
  await page.goto('/account');
  await page.fill('input[name=email]', 'jank@pokertote.test');
  await page.fill('input[name=password]', 'player-password-123');
  await page.getByRole('button', { name: 'Sign in' }).first().click();
  await page.waitForSelector('[data-testid=user-email]');
  assert.deepEqual(await unlabeled(page), [], 'account page');

  // Access tokens live 8 s here: after they expire the page refreshes its
  // session (rotating the refresh token) and stays signed in across a reload.
  const session = async () => page.evaluate(() => JSON.parse(localStorage.getItem('pokertote.session')));
  const first = await session();
  await sleep(9000);
  await page.reload();
  await page.waitForSelector('[data-testid=account-balance]');
  const second = await session();
  assert.notEqual(second.refreshToken, first.refreshToken, 'the refresh token was not rotated');
  assert.ok(Date.parse(second.accessTokenExpiresAt) > Date.now(), 'the access token was not renewed');

  const t = await waitFor(async () => { const x = await draw(); return x.currentDraw?.openRound === 'PRE_DEAL' && Date.parse(x.currentDraw.roundClosesAt) - Date.now() > 9000 && x; }, 'a fresh PRE_DEAL round', 180_000);
  await page.goto('/table/1');
  await page.waitForSelector('[data-pool="PRE_DEAL/WIN"]');
  await page.waitForSelector('[data-testid=balance]');
  await page.waitForSelector('.slip form');
  assert.deepEqual(await unlabeled(page), [], 'table page');
  await sleep(300);
  const seq0 = Number(await page.locator('.table-page').getAttribute('data-seq'));
  await page.evaluate(() => {
    window.__cls = 0;
    window.__shifted = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) {
        if (e.hadRecentInput) continue;
        window.__cls += e.value;
        for (const src of e.sources ?? []) window.__shifted.push((src.node?.className || src.node?.nodeName || '?') + ' ' + (src.node?.textContent ?? '').slice(0, 30));
      }
    }).observe({ type: 'layout-shift' });
  });
  const markets = ['WIN', 'COMBINATION', 'EXPRESS'];
  const cats = ['PAIR', 'TWO_PAIR', 'FLUSH', 'STRAIGHT', 'HIGH_CARD'];
  let total = 0;
  const tok = (await server.login('jank@pokertote.test', 'player-password-123')).accessToken; // fresh: tokens live 8 s here
  for (let i = 0; i < 20; i++) {
    const m = markets[i % 3];
    const pos = String(1 + (i % t.positions));
    const selection = m === 'WIN' ? pos : m === 'COMBINATION' ? cats[i % cats.length] : `${pos}-${1 + ((i + 1) % t.positions)}-${pos}`;
    const started = Date.now();
    await server.gql('mutation($i:PlaceBetInput!){placeBet(input:$i){id}}', { i: { drawId: t.currentDraw.id, market: m, selection, stake: '100.00', idempotencyKey: 'jank-' + i } }, tok);
    if (m === 'WIN') total += 10000;
    await sleep(Math.max(0, 250 - (Date.now() - started)));
  }
  await waitFor(async () => (await page.locator('[data-pool="PRE_DEAL/WIN"] [data-testid=pool-gross]').textContent()).replace(/[^\d]/g, '') === String(total), 'WIN pool shows every bet', 15_000);
  const seq1 = Number(await page.locator('.table-page').getAttribute('data-seq'));
  assert.ok(seq1 - seq0 >= 20, `the page saw ${seq1 - seq0} events, want at least 20 pool updates`);
  const [cls, shifted] = await page.evaluate(() => [window.__cls, window.__shifted]);
  assert.ok(cls < 0.01, `cumulative layout shift ${cls} during pool updates: ${shifted.join('; ')}`);
  await shot(page, 'table-pools-live');

  const phone = await newPage(browser, server, { viewport: { width: 390, height: 844 } });
  await phone.goto('/table/1');
  await phone.waitForSelector('.felt');
  for (const path of ['/table/1', '/', '/holdem', '/account', '/verify']) {
    await phone.goto(path);
    await phone.waitForSelector('main h1');
    const [sw, iw] = await phone.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(sw <= iw, `${path} scrolls sideways on a phone: ${sw} > ${iw}`);
  }
  await phone.goto('/table/1');
  await phone.waitForSelector('.felt');
  await shot(phone, 'table-phone');
  assert.deepEqual(page.errors, []);
});
