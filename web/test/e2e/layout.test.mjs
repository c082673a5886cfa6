// Layout under live updates, on a phone, and labels: pool updates at about 4
// per second move no pixel of the page (cumulative layout shift measured by
// Chromium's layout-shift entries), a phone-sized screen needs no horizontal
// scrolling, every form control has an accessible name, and an expired access
// token is refreshed without signing out. Then the admin pages: settings,
// pause/resume, voiding a draw (checked by the browser verifier), jackpot.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Server, launch, newPage, waitFor, playerViaApi, shot, sleep, betInput } from './harness.mjs';

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
  // Bets go in at about 4/s until the page has seen 20 table events: the
  // dealer's pool tick may fold two bets into one POOL_UPDATED.
  const seqNow = async () => Number(await page.locator('.table-page').getAttribute('data-seq'));
  for (let i = 0; i < 60 && (i < 20 || (await seqNow()) - seq0 < 20); i++) {
    const m = markets[i % 3];
    const pos = String(1 + (i % t.positions));
    const selection = m === 'WIN' ? pos : m === 'COMBINATION' ? cats[i % cats.length] : `${pos}-${1 + ((i + 1) % t.positions)}-${pos}`;
    const started = Date.now();
    await server.gql('mutation($i:PlaceBetInput!){placeBet(input:$i){id}}', { i: betInput(t.currentDraw.id, m, selection, '100.00', 'jank-' + i) }, tok);
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

test('admin pages: table settings, pause and resume, void a draw (then verified in the browser), jackpot', async () => {
  const { ADMIN } = await import('./harness.mjs');
  const admin = await newPage(browser, server);
  await admin.goto('/account');
  await admin.fill('input[name=email]', ADMIN.email);
  await admin.fill('input[name=password]', ADMIN.password);
  await admin.getByRole('button', { name: 'Sign in' }).first().click();
  await admin.waitForSelector('[data-testid=user-email]');
  await admin.goto('/admin');
  const t2 = admin.locator('[data-admin-table="2"]');
  await t2.locator('input[name=min-2]').fill('200.00');
  await t2.getByRole('button', { name: 'Save' }).first().click();
  await t2.locator('input[name=com-2]').fill('4.00');
  await t2.getByRole('button', { name: 'Save' }).nth(1).click();
  const settings = async () => (await server.gql('{table(id:"2"){status settings{minStake commission} currentDraw{id phase}}}')).table;
  await waitFor(async () => { const s = await settings(); return s.settings.minStake === '200.00' && s.settings.commission === '4.00'; }, 'settings saved');
  assert.deepEqual(await unlabeled(admin), [], 'admin page');

  // Void the current draw of table 2 (its stakes are refunded), then check it in the browser verifier.
  const before = await waitFor(async () => { const s = await settings(); return s.currentDraw && !['SETTLED', 'VOID'].includes(s.currentDraw.phase) && s; }, 'a running draw');
  await admin.goto('/admin');
  await admin.locator('[data-admin-table="2"] input[name=void-2]').fill('e2e: operator test');
  // Void asks first: Cancel leaves the draw running, Confirm voids it.
  await admin.locator('[data-admin-table="2"]').getByRole('button', { name: /Void current draw/ }).click();
  const ask = admin.locator('[data-admin-table="2"] [role=alertdialog]');
  assert.match(await ask.textContent(), /Void draw #\d+\? Every bet of it is refunded/);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await sleep(500);
  assert.notEqual((await server.gql('query($id:ID!){draw(id:$id){phase}}', { id: before.currentDraw.id })).draw.phase, 'VOID', 'Cancel voided the draw');
  await admin.locator('[data-admin-table="2"]').getByRole('button', { name: /Void current draw/ }).click();
  await ask.getByRole('button', { name: 'Confirm' }).click();
  await waitFor(async () => (await server.gql('query($id:ID!){draw(id:$id){phase}}', { id: before.currentDraw.id })).draw.phase === 'VOID', 'draw voided');
  await admin.goto(`/verify?draw=${before.currentDraw.id}`);
  await waitFor(async () => (await admin.locator('[data-testid=verdict]').getAttribute('data-ok')) === 'true', 'voided draw verifies');

  // Pause, resume.
  await admin.goto('/admin');
  await admin.locator('[data-admin-table="2"]').getByRole('button', { name: 'Pause' }).click();
  await admin.locator('[data-admin-table="2"] [role=alertdialog]').getByRole('button', { name: 'Confirm' }).click();
  // The tables section refreshes by itself: the legend says paused without a reload.
  await waitFor(async () => (await admin.locator('[data-admin-table="2"]').getAttribute('data-status')) === 'PAUSED', 'paused shown live');
  await waitFor(async () => (await settings()).status === 'PAUSED', 'paused');
  await admin.locator('[data-admin-table="2"]').getByRole('button', { name: 'Resume' }).click();
  await waitFor(async () => (await settings()).status === 'RUNNING', 'resumed');

  // Jackpot top-up.
  const jp0 = (await server.gql('{jackpot{balance}}')).jackpot.balance;
  await admin.fill('input[name=jackpot-amount]', '1000.00');
  await admin.getByRole('button', { name: 'Top up' }).click();
  await waitFor(async () => Number((await server.gql('{jackpot{balance}}')).jackpot.balance) === Number(jp0) + 1000, 'jackpot topped up');
  // The audit log lists the void, the pause and the top-up, and filters by action.
  await waitFor(async () => (await admin.locator('[data-testid=audit] tr[data-action]').count()) >= 3, 'audit entries');
  const actions = await admin.locator('[data-testid=audit] tr[data-action]').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-action')));
  const voidAction = actions.find((a) => /void/i.test(a));
  assert.ok(voidAction, `no void in the audit log: ${actions}`);
  await admin.locator('select[name=audit-action]').selectOption(voidAction);
  // The filter is the server's (rows.test.mjs checks it beyond the first page).
  await waitFor(async () => {
    const filtered = await admin.locator('[data-testid=audit] tr[data-action]').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-action')));
    return filtered.length >= 1 && filtered.every((a) => a === voidAction);
  }, 'only voids listed');
  await shot(admin, 'admin');
  assert.deepEqual(admin.errors, []);
});
