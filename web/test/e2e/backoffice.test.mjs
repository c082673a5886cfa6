// The back office in the browser: the reports' dashboard (a uPlot chart of
// daily GGR and handle, the totals, the liability, the CSV files) in
// Russian and Kazakh checked against the API, and the admin pages for
// partners' webhooks and the emergency stop.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Server, launch, newPage, waitFor, playerViaApi, shot, signIn, ADMIN, axe } from './harness.mjs';

let server, browser;
before(async () => { server = new Server({ timeScale: 4 }); await server.start(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });


async function adminPage(lang, viewport = { width: 1440, height: 900 }) {
  const page = await newPage(browser, server, { viewport });
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.evaluate((l) => localStorage.setItem('pokertote.lang', l), lang);
  await page.reload();
  await page.waitForSelector('[data-testid=user-email]');
  return page;
}

const FIGURES = 'bets handle payouts refunds ggr deposits withdrawals';

test('the reports dashboard in ru and kk: the chart is drawn, the figures are the API\'s, the files download', async () => {
  const player = await playerViaApi(server, 'reports@pokertote.test', '20000.00');
  // A Casino Hold'em hand, folded: 100.00 staked, nothing back.
  const { holdemCommit } = await server.gql('mutation { holdemCommit { commitment } }', {}, player.accessToken);
  const { holdemStart } = await server.gql('mutation($i: HoldemStartInput!) { holdemStart(input: $i) { id } }',
    { i: { boxes: [{ ante: '100.00' }], idempotencyKey: 'rep-hand', cut: 'a fair cut 1', commitment: holdemCommit.commitment } }, player.accessToken);
  await server.gql('mutation($i: HoldemDecideInput!) { holdemDecide(input: $i) { id } }',
    { i: { handId: holdemStart.id, box: 1, decision: 'FOLD', idempotencyKey: 'rep-fold' } }, player.accessToken);
  const admin = await server.login(ADMIN.email, ADMIN.password);
  await server.gql('mutation($i: CashInput!) { withdraw(input: $i) { balance } }',
    { i: { userId: player.user.id, amount: '500.00', idempotencyKey: 'rep-wd' } }, admin.accessToken);

  const titles = { ru: 'Отчёты', kk: 'Есептер' };
  for (const lang of ['ru', 'kk']) {
    const page = await adminPage(lang);
    await page.goto('/reports');
    await page.waitForSelector('[data-testid=report-totals]');
    assert.equal((await page.locator('#reports-h').textContent()).trim(), titles[lang]);
    const from = await page.locator('section.reports').getAttribute('data-from');
    const to = await page.locator('section.reports').getAttribute('data-to');
    // The figures the page shows are the API's (the feed's sequencer may
    // lag a second behind the ledger: wait for the withdrawal).
    const api = await waitFor(async () => {
      const d = (await server.gql(`query($f: Date!, $t: Date!) { dailyReport(from: $f, to: $t) { totals { game figures { ${FIGURES} } } } }`, { f: from, t: to }, admin.accessToken)).dailyReport;
      const all = d.totals.find((x) => x.game === null).figures;
      return all.withdrawals === '500.00' && all.handle === '100.00' ? all : null;
    }, 'the report to catch up', 20_000);
    await page.getByRole('button', { name: lang === 'ru' ? '90 дней' : '90 күн' }).click();
    await page.getByRole('button', { name: lang === 'ru' ? '30 дней' : '30 күн' }).click();
    await waitFor(async () => (await page.locator('[data-game=ALL] [data-figure=withdrawals]').getAttribute('data-value')) === '500.00', 'the page to show the withdrawal', 20_000);
    for (const f of ['handle', 'payouts', 'refunds', 'ggr', 'deposits', 'withdrawals']) {
      assert.equal(await page.locator(`[data-game=ALL] [data-figure=${f}]`).getAttribute('data-value'), api[f], `${lang} ${f}`);
    }
    assert.equal(await page.locator('[data-game=HOLDEM] [data-figure=handle]').getAttribute('data-value'), '100.00');
    // The chart: uPlot's canvas with a series per game and table that had play.
    await page.waitForSelector('[data-testid=report-chart] canvas');
    const legend = await page.locator('[data-testid=report-chart] .u-legend').textContent();
    assert.match(legend, /GGR/, 'the chart has a GGR series');
    const liab = (await server.gql('{ liability { wallets reconciled } }', {}, admin.accessToken)).liability;
    assert.equal(await page.locator('[data-testid=liability] dd').first().getAttribute('data-value'), liab.wallets);
    assert.ok(liab.reconciled);
    const violations = await axe(page);
    assert.deepEqual(violations, [], `${lang} reports: axe`);
    await shot(page, `reports-${lang}-desktop`);
    // A file: the daily report as CSV.
    const [dl] = await Promise.all([page.waitForEvent('download'), page.locator('button[data-file="daily-report.csv"]').click()]);
    assert.equal(dl.suggestedFilename(), `daily-report-${from}-${to}.csv`);
    const csv = readFileSync(await dl.path(), 'utf8');
    assert.match(csv, /^day,game,table_id,table,bets,handle,payouts,refunds,ggr,hold_percent,/);
    assert.match(csv, new RegExp(`\\r\\n${to},HOLDEM,0,,1,100\\.00,0\\.00,0\\.00,100\\.00,100\\.00,`), 'today\'s Casino Hold\'em row');
    // The players' search and a player's page, against the API.
    await page.goto('/players');
    await page.locator('input[name=player-search]').fill('REPORTS@POKER');
    await page.locator('form[role=search] button[type=submit]').click();
    await page.locator('[data-testid=players] a', { hasText: 'reports@pokertote.test' }).click();
    await page.waitForSelector('[data-testid=player-balance]');
    const pp = (await server.gql(`query($u: ID!, $f: Date!, $t: Date!) { user(id: $u) { balance } playerSessions(userId: $u, from: $f, to: $t) { wagered won withdrawn endReason } }`,
      { u: player.user.id, f: from, t: to }, admin.accessToken));
    assert.equal(await page.locator('[data-testid=player-balance]').getAttribute('data-value'), pp.user.balance, `${lang} player balance`);
    assert.equal(pp.playerSessions.length, 1);
    assert.equal(pp.playerSessions[0].wagered, '100.00');
    assert.equal(await page.locator('[data-testid=player-sessions] [data-figure=wagered]').getAttribute('data-value'), pp.playerSessions[0].wagered);
    assert.equal(await page.locator('[data-testid=player-sessions] [data-figure=withdrawn]').getAttribute('data-value'), '500.00');
    assert.ok(await page.locator('[data-testid=player-ledger] tr[data-kind=WITHDRAWAL]').count() === 1, 'the ledger shows the withdrawal');
    assert.deepEqual(await axe(page), [], `${lang} player page: axe`);
    await shot(page, `player-${lang}-desktop`);
    // On a phone the tables scroll instead of cutting the figures.
    const phone = await adminPage(lang, { width: 390, height: 844 });
    await phone.goto('/reports');
    await phone.waitForSelector('[data-testid=report-chart] canvas');
    await shot(phone, `reports-${lang}-phone`);
    await phone.context().close();
    await page.context().close();
  }
});

test('webhooks and the emergency stop from the admin page', async () => {
  const page = await adminPage('ru');
  await page.goto('/admin');
  const hooks = page.locator('[data-testid=webhooks]');
  await hooks.locator('input[name=webhook-url]').fill('http://127.0.0.1:9/hook');
  await hooks.locator('input[name=webhook-description]').fill('партнёр');
  await hooks.locator('input[value=REGULATOR_DEPOSIT]').check();
  await hooks.getByRole('button', { name: 'Зарегистрировать адрес' }).click();
  const secret = (await page.locator('[data-testid=webhook-secret]').textContent()).trim();
  assert.match(secret, /^whsec_[A-Za-z0-9+/=]{20,}$/);
  const admin = await server.login(ADMIN.email, ADMIN.password);
  const eps = (await server.gql('{ webhookEndpoints { url eventTypes description } }', {}, admin.accessToken)).webhookEndpoints;
  assert.equal(eps.length, 1);
  assert.equal(eps[0].url, 'http://127.0.0.1:9/hook');
  assert.deepEqual(eps[0].eventTypes.sort(), ['DRAW_SETTLED', 'DRAW_VOIDED', 'REGULATOR_DEPOSIT']);
  await page.waitForSelector('[data-endpoint]');
  await page.reload();
  assert.equal(await page.locator('[data-testid=webhook-secret]').count(), 0, 'the secret is shown once');

  const stop = page.locator('[data-testid=emergency-stop]');
  await page.waitForSelector('[data-testid=emergency-stop][data-stopped=false]');
  await stop.locator('input[name=stop-reason]').fill('проверка регулятора');
  await stop.getByRole('button', { name: 'Остановить все ставки' }).click();
  await stop.getByRole('button', { name: 'Подтвердить' }).click();
  await page.waitForSelector('[data-testid=emergency-stop][data-stopped=true]');
  assert.equal((await server.gql('{ bettingStop { stopped reason } }', {}, admin.accessToken)).bettingStop.reason, 'проверка регулятора');
  await shot(page, 'admin-stop-ru-desktop');
  await stop.getByRole('button', { name: 'Возобновить ставки' }).click();
  await stop.getByRole('button', { name: 'Подтвердить' }).click();
  await page.waitForSelector('[data-testid=emergency-stop][data-stopped=false]');
  assert.equal((await server.gql('{ bettingStop { stopped } }', {}, admin.accessToken)).bettingStop.stopped, false);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
