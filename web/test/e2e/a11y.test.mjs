// Accessibility and the pictures (issue 28): every screen a player or an
// operator uses passes axe-core's WCAG 2 A/AA rules (contrast of every card,
// button and text included) in Russian and Kazakh at desktop and phone
// width, the slip and the Hold'em decisions work from the keyboard alone,
// and the suite leaves a screenshot of each screen in test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Server, launch, newPage, waitFor, playerViaApi, shot, signIn, ADMIN, sleep, axe } from './harness.mjs';

let server, browser;
before(async () => { server = new Server({ timeScale: 4 }); await server.start(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function as(lang, viewport, email, password) {
  const page = await newPage(browser, server, { viewport });
  await signIn(page, email, password);
  await page.evaluate((l) => localStorage.setItem('pokertote.lang', l), lang);
  await page.reload();
  await page.waitForSelector('[data-testid=user-email]');
  return page;
}

const VIEWPORTS = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } };

test('every screen passes axe-core (WCAG 2.1 A/AA) in ru and kk at desktop and phone width; screenshots', async () => {
  await playerViaApi(server, 'a11y@pokertote.test', '20000.00');
  const problems = [];
  for (const lang of ['ru', 'kk']) {
    for (const [vw, viewport] of Object.entries(VIEWPORTS)) {
      const page = await as(lang, viewport, 'a11y@pokertote.test', 'player-password-123');
      const check = async (name, p = page) => { for (const v of await axe(p)) { problems.push(`${lang}/${vw}/${name}: ${v}`); if (process.env.A11Y_DEBUG) console.log(problems.at(-1)); } await shot(p, `${name}-${lang}-${vw}`); };
      await page.goto('/');
      await page.waitForSelector('.tile [data-testid=phase]');
      // Money as the language writes it: space groups, comma decimals, the sign after.
      assert.match(await page.locator('[data-testid=balance]').textContent(), /^\d{1,3}([\s\u00a0\u202f]\d{3})*,\d{2}[\s\u00a0]₸$/, `${lang} balance`);
      await check('lobby');
      await page.goto('/table/1');
      await page.waitForSelector('.slip form', { state: 'attached' });
      await check('table');
      if (vw === 'phone') await page.locator('.slip-toggle').click();
      await page.locator('input[name=stake]').fill('150');
      await check('slip');
      await page.goto('/holdem');
      await waitFor(async () => /^[0-9a-f]{64}$/.test((await page.locator('[data-testid=commitment] code').textContent()).trim()), 'commitment');
      await page.locator('form.card-form button[type=submit]').click();
      await page.waitForSelector('[data-testid=holdem-hand][data-phase=DECIDING]');
      await check('holdem');
      await page.close();
      const adm = await as(lang, viewport, ADMIN.email, ADMIN.password);
      await adm.goto('/admin');
      await adm.waitForSelector('[data-testid=audit], .audit .muted');
      await adm.waitForSelector('[data-admin-table]');
      await check('admin', adm);
      await adm.close();
    }
  }
  assert.deepEqual(problems, [], 'axe-core violations');
});

test('keyboard alone: the slip places a bet, the Hold\'em decisions are taken in turn', async () => {
  await playerViaApi(server, 'keys@pokertote.test', '20000.00');
  const page = await newPage(browser, server);
  await signIn(page, 'keys@pokertote.test', 'player-password-123');
  await waitFor(async () => { const d = (await server.gql('{table(id:"1"){currentDraw{openRound roundClosesAt}}}')).table.currentDraw; return d?.openRound && Date.parse(d.roundClosesAt) - Date.now() > 3000; }, 'an open round', 120_000);
  await page.goto('/table/1');
  await page.waitForSelector('.slip form fieldset:not([disabled])');
  // Reach the slip's market radios by Tab from the page's start, then the stake, then send with Enter.
  await page.locator('input[name=market]:checked').focus();
  await page.keyboard.press('ArrowRight'); // the next market
  const market = await page.locator('input[name=market]:checked').getAttribute('value');
  assert.notEqual(market, 'WIN', 'arrow keys move between markets');
  let guard = 0;
  while (!(await page.evaluate(() => document.activeElement?.getAttribute('name') === 'stake')) && guard++ < 10) await page.keyboard.press('Tab');
  assert.ok(guard < 10, 'Tab reaches the stake field');
  await page.keyboard.type('120');
  await page.keyboard.press('Enter');
  await waitFor(async () => (await page.locator('#stake-msg .alert').count()) > 0, 'answer');
  assert.equal(await page.locator('#stake-msg .alert').textContent(), 'Bet accepted');

  await page.goto('/holdem');
  await page.locator('select[name=boxes]').selectOption('2');
  await waitFor(async () => /^[0-9a-f]{64}$/.test((await page.locator('[data-testid=commitment] code').textContent()).trim()), 'commitment');
  await page.locator('input[name=cut]').focus();
  await page.keyboard.press('Enter'); // submits the deal form
  await page.waitForSelector('[data-testid=holdem-hand][data-phase=DECIDING]');
  // The decision in turn has the focus: Enter calls box 1; then Tab to box 2's fold and Enter.
  await waitFor(async () => page.evaluate(() => document.activeElement?.closest('[data-box]')?.getAttribute('data-box') === '1'), 'focus on box 1');
  await page.keyboard.press('Enter');
  await waitFor(async () => page.evaluate(() => document.activeElement?.closest('[data-box]')?.getAttribute('data-box') === '2'), 'focus on box 2');
  await page.keyboard.press('Tab');
  assert.match(await page.evaluate(() => document.activeElement?.textContent ?? ''), /Fold/);
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=holdem-hand][data-phase=SETTLED]');
  const decisions = await page.locator('[data-box] .badge').allTextContents();
  assert.ok(decisions.some((d) => d.startsWith('Call')) && decisions.some((d) => d.startsWith('Fold')), `decisions shown: ${decisions}`);
  await sleep(100);
  assert.deepEqual(page.errors, []);
});
