// The table as a player uses it (issue 28): Casino Hold'em suits readable on
// their cards, the bet slip always at hand on a phone (countdown, live
// coefficient, potential payout; a tapped pool row fills it), and a layout
// that never moves over two whole draws with bets on the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Server, launch, newPage, waitFor, playerViaApi, shot, betInput, signIn, sleep } from './harness.mjs';

let server, browser;
before(async () => { server = new Server({ timeScale: 8 }); await server.start(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const draw = async () => (await server.gql('{table(id:"1"){positions currentDraw{id number phase openRound roundClosesAt}}}')).table;

/** contrast is the WCAG contrast ratio of two computed CSS colours. */
const CONTRAST = `(a, b) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  const L = (c) => { const [r, g, b2] = rgb(c); return 0.2126 * r + 0.7152 * g + 0.0722 * b2; };
  const [x, y] = [L(a), L(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}`;

test("Casino Hold'em: every suit on every card reads at WCAG AA against its card", async () => {
  await playerViaApi(server, 'suits@pokertote.test', '5000.00');
  const page = await newPage(browser, server);
  await signIn(page, 'suits@pokertote.test', 'player-password-123');
  await page.goto('/holdem');
  await waitFor(async () => /^[0-9a-f]{64}$/.test((await page.locator('[data-testid=commitment] code').textContent()).trim()), 'commitment');
  await page.getByRole('button', { name: 'Deal' }).click();
  await page.waitForSelector('[data-testid=holdem-hand] [data-card]');
  const worst = await page.evaluate(`(() => {
    const contrast = ${CONTRAST};
    return Math.min(...[...document.querySelectorAll('[data-testid=holdem-hand] [data-card]')].map((c) => {
      const suit = c.querySelector('small');
      return Math.min(contrast(getComputedStyle(suit).color, getComputedStyle(c).backgroundColor), contrast(getComputedStyle(c).color, getComputedStyle(c).backgroundColor));
    }));
  })()`);
  assert.ok(worst >= 4.5, `a suit or rank has contrast ${worst.toFixed(2)} against its card, want >= 4.5`);
  // Cards not dealt yet are card backs, not empty slots.
  assert.ok(await page.locator('[data-testid=holdem-hand] .card.back').count() > 0, 'hidden cards are drawn as backs');
  assert.equal(await page.locator('[data-testid=holdem-hand] .card.slot').count(), 0, 'no empty slots in a live hand');
  await shot(page, 'holdem-suits');
});

test('phone: the slip with countdown, coefficient and payout stays in view; a tapped pool row fills it', async () => {
  const reg = await playerViaApi(server, 'phone@pokertote.test', '5000.00');
  const page = await newPage(browser, server, { viewport: { width: 390, height: 844 } });
  await signIn(page, 'phone@pokertote.test', 'player-password-123');
  const t = await waitFor(async () => { const x = await draw(); return x.currentDraw?.openRound === 'PRE_DEAL' && Date.parse(x.currentDraw.roundClosesAt) - Date.now() > 2500 && x; }, 'a fresh PRE_DEAL round', 120_000);
  // Someone has staked on position 2, so its coefficient is known.
  await server.gql('mutation($i:PlaceBetInput!){placeBet(input:$i){id}}', { i: betInput(t.currentDraw.id, 'WIN', '2', '100.00', 'phone-a') }, reg.accessToken);
  await server.gql('mutation($i:PlaceBetInput!){placeBet(input:$i){id}}', { i: betInput(t.currentDraw.id, 'WIN', '3', '300.00', 'phone-b') }, reg.accessToken);
  await page.goto('/table/1');
  await page.waitForSelector('[data-testid=slip] .countdown');
  const inView = (sel) => page.evaluate((s) => { const r = document.querySelector(s).getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; }, sel);
  for (const y of [0, 1e6]) {
    await page.evaluate((v) => window.scrollTo(0, v), y);
    await sleep(100);
    for (const s of ['.slip-bar', '[data-testid=slip-countdown] .countdown', '[data-testid=slip-coef]', '[data-testid=slip-potential]']) assert.ok(await inView(s), `${s} out of view at scroll ${y}`);
  }
  // Tap position 2's row in the WIN pool: the slip opens on it, the stake field in view.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('[data-pool="PRE_DEAL/WIN"] tr[data-selection="2"] button.pick').tap();
  await page.waitForSelector('.slip.open');
  assert.equal(await page.locator('input[name=market][value=WIN]').isChecked(), true);
  assert.equal(await page.locator('select[name=win]').inputValue(), '2');
  assert.ok(await inView('input[name=stake]'), 'stake field out of view after the tap');
  await page.locator('input[name=stake]').fill('200');
  const coef = await waitFor(async () => { const c = (await page.locator('[data-testid=slip-coef]').textContent()).trim(); return /\d/.test(c) && c; }, 'live coefficient');
  const c = Number(coef.replace(',', '.'));
  const shown = (await page.locator('[data-testid=slip-potential]').textContent()).replace(/[^\d.]/g, '');
  assert.equal(Math.round(Number(shown) * 100), Math.floor(200 * c * 100), `potential payout ${shown} for 200 at ${coef}`);
  await shot(page, 'slip-phone');
  const [sw, iw] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(sw <= iw, `the phone table scrolls sideways: ${sw} > ${iw}`);
  assert.deepEqual(page.errors, []);
});

test('the table never moves: cumulative layout shift below 0.1 over two whole draws, signed in with bets shown', async () => {
  const reg = await playerViaApi(server, 'calm@pokertote.test', '20000.00');
  const page = await newPage(browser, server);
  await signIn(page, 'calm@pokertote.test', 'player-password-123');
  // Start at a draw's opening so that two whole draws (both ends each) are watched.
  const first = await waitFor(async () => { const x = await draw(); return x.currentDraw?.phase === 'SETTLED' && x; }, 'a draw ending', 120_000);
  await page.goto('/table/1');
  await page.waitForSelector('.table-page');
  await page.evaluate(() => {
    window.__cls = 0; window.__shifted = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) {
        if (e.hadRecentInput) continue;
        window.__cls += e.value;
        for (const s of e.sources ?? []) window.__shifted.push(`${e.value.toFixed(3)} ${s.node?.className || s.node?.nodeName || '?'} ${(s.node?.textContent ?? '').slice(0, 30)}`);
      }
    }).observe({ type: 'layout-shift', buffered: false });
  });
  const seen = new Set();
  let bets = 0;
  const until = first.currentDraw.number + 3;
  for (;;) {
    const x = await draw();
    const d = x.currentDraw;
    if (d && d.number >= until) break;
    if (d?.openRound && !seen.has(d.id + d.openRound)) {
      seen.add(d.id + d.openRound);
      const m = d.openRound === 'PRE_DEAL' || d.openRound === 'POCKET' ? 'EXPRESS' : 'WIN';
      await server.gql('mutation($i:PlaceBetInput!){placeBet(input:$i){id}}', { i: betInput(d.id, 'WIN', String(1 + (bets % x.positions)), '100.00', 'calm-w' + bets) }, reg.accessToken).catch(() => undefined);
      await server.gql('mutation($i:PlaceBetInput!){placeBet(input:$i){id}}', { i: betInput(d.id, m, m === 'EXPRESS' ? '1-2-3' : '2', '100.00', 'calm-x' + bets) }, reg.accessToken).catch(() => undefined);
      bets++;
    }
    await sleep(300);
  }
  assert.ok(bets >= 6, `bets placed in ${bets} rounds`);
  assert.ok(await page.locator('[data-testid=my-bets] tr[data-bet]').count() > 0, 'my bets are on the page');
  const [cls, shifted] = await page.evaluate(() => [window.__cls, window.__shifted]);
  assert.ok(cls < 0.1, `cumulative layout shift ${cls.toFixed(3)} over two draws: ${shifted.join('; ')}`);
  assert.deepEqual(page.errors, []);
});

test('the browser gets the client precompressed and large /query answers compressed', async () => {
  const page = await newPage(browser, server);
  const seen = [];
  page.on('response', async (r) => {
    const u = new URL(r.url());
    seen.push({ path: u.pathname, method: r.request().method(), enc: (await r.allHeaders())['content-encoding'] ?? '', body: r.request().postData() ?? '' });
  });
  await page.goto('/table/1');
  await page.waitForSelector('.felt');
  await sleep(300);
  const app = seen.find((s) => /^\/assets\/app-.*\.js$/.test(s.path));
  const css = seen.find((s) => /^\/assets\/app-.*\.css$/.test(s.path));
  assert.equal(app?.enc, 'br', `app script: ${JSON.stringify(app)}`);
  assert.equal(css?.enc, 'br', `stylesheet: ${JSON.stringify(css)}`);
  const snap = seen.find((s) => s.path === '/query' && s.body.includes('TableSnapshot'));
  assert.match(snap?.enc ?? '', /^(gzip|zstd|br)$/, `the table snapshot answer: ${JSON.stringify(snap?.enc)}`);
});
