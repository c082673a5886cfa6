// The client players and staff live in, tried as a Russian- and a
// Kazakh-speaking player on a phone (390x844) and a laptop (1440x900), and
// as staff: protection in the player's hands, the rules, a result and a
// ledger readable on a phone, a slip that never hides the table, voids and
// refusals told from codes, the jackpot as it is, a history of bets, the
// back office's tables and keys, a four-colour deck. Each test below names
// the row of the review it answers; each asserts what the old client got
// wrong. Screenshots of the new pages go to test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Server, ADMIN, launch, newPage, waitFor, playerViaApi, shot, sleep, betInput, axe, spaces } from './harness.mjs';

let server, browser, adminTok, fast;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
// Both widths and both languages: every row runs at least as a phone in one
// language and a laptop in the other; the cheap ones in all four.
const ALL = [['phone', PHONE, 'ru'], ['phone', PHONE, 'kk'], ['desktop', DESKTOP, 'ru'], ['desktop', DESKTOP, 'kk']];
const TWO = [['phone', PHONE, 'ru'], ['desktop', DESKTOP, 'kk']];

before(async () => {
  server = new Server({ timeScale: 2 });
  await server.start();
  browser = await launch();
  adminTok = (await server.login(ADMIN.email, ADMIN.password)).accessToken;
  // A quick table: a draw takes about 20 s at this time scale.
  fast = (await server.gql('mutation($in:TableInput!){createTable(input:$in){id}}',
    { in: { name: 'Quick 10', positions: 10, roundSeconds: [14, 6, 6, 6], cardIntervalMs: 400, resultSeconds: 6 } }, adminTok)).createTable.id;
});
after(async () => { await browser?.close(); await server?.close(); });

let seq = 0;
/** player makes a verified player with money and opens a page signed in as them, in the language and size given. */
async function player(viewport, lang, deposit = '20000.00') {
  const email = `p${++seq}-${lang}@pokertote.test`;
  const reg = await playerViaApi(server, email, deposit);
  const page = await signedIn(await newPage(browser, server, { viewport, locale: lang === 'kk' ? 'kk-KZ' : 'ru-RU' }), lang, reg);
  return { page, email, token: reg.accessToken, userId: reg.user.id };
}

/** signedIn opens the client in page as the session s (the tokens a sign-in answers), in language lang. */
async function signedIn(page, lang, s) {
  await page.goto('/');
  await page.evaluate(([l, s]) => {
    localStorage.setItem('pokertote.lang', l);
    localStorage.setItem('pokertote.session', JSON.stringify(s));
  }, [lang, { accessToken: s.accessToken, accessTokenExpiresAt: s.accessTokenExpiresAt, refreshToken: s.refreshToken, refreshTokenExpiresAt: s.refreshTokenExpiresAt }]);
  await page.reload();
  await page.waitForSelector('[data-testid=balance]');
  return page;
}

async function staff(viewport, lang) {
  return signedIn(await newPage(browser, server, { viewport }), lang, await server.login(ADMIN.email, ADMIN.password));
}

const current = async (id = fast) => (await server.gql('query($id:ID!){table(id:$id){currentDraw{id number phase openRound roundClosesAt}}}', { id })).table.currentDraw;
/** openRound waits for the table's round r with at least `left` seconds still to go. */
const openRound = (r, left = 4, id = fast) => waitFor(async () => {
  const d = await current(id);
  return d?.openRound === r && Date.parse(d.roundClosesAt) - Date.now() > left * 1000 && d;
}, `round ${r} open on table ${id}`, 120_000);
const bet = (tok, drawId, market, selection, stake = '100.00') =>
  server.gql('mutation($i:PlaceBetInput!){placeBet(input:$i){id}}', { i: betInput(drawId, market, selection, stake, 'k' + Math.random()) }, tok).then((r) => r.placeBet.id);
const finished = (drawId) => waitFor(async () => {
  const d = (await server.gql('query($id:ID!){draw(id:$id){phase}}', { id: drawId })).draw;
  return (d.phase === 'SETTLED' || d.phase === 'VOID') && d;
}, `draw ${drawId} finished`, 120_000);

/** nothingCut lists the cells of the given tables whose text is cut: an ellipsis, or content wider than the cell. */
const nothingCut = (page, sel) => page.evaluate((sel) => [...document.querySelectorAll(sel + ' td, ' + sel + ' th')]
  .filter((c) => getComputedStyle(c).textOverflow === 'ellipsis' || c.scrollWidth > c.clientWidth + 1)
  .map((c) => c.textContent.slice(0, 40)), sel);

const TEXT = {
  ru: { rules: 'Правила', onBreak: 'У вас перерыв до', jackpotOff: 'Джекпот сейчас не разыгрывается', reject: 'Документ не читается: пришлите чёткое фото.', demo10: 'Демо-стол на 10', voidAdmin: 'Тираж отменён до раздачи карт. Все ставки возвращены полностью.' },
  kk: { rules: 'Ережелер', onBreak: 'Сізде', jackpotOff: 'Қазір джекпот ойнатылмайды', reject: 'Құжат оқылмайды: анық фото жіберіңіз.', demo10: '10 орындық демо үстел', voidAdmin: 'Тираж карталар таратылғанға дейін тоқтатылды. Барлық бәстер толық қайтарылды.' },
};

test('row 1: limits, a time-out and self-exclusion on a page; after a time-out the slip says until when and takes no bet', async () => {
  for (const [size, vp, lang] of ALL) {
    const { page, token, email } = await player(vp, lang);
    await page.goto('/play-safe');
    await page.waitForSelector('[data-limit="STAKE/DAY"]');
    // Lowering applies at once; raising waits out the cooling-off, and the page says until when.
    const row = page.locator('[data-limit="STAKE/DAY"]');
    await row.locator('input').fill('500,50');
    await row.locator('button[type=submit]').click();
    await waitFor(async () => spaces(await row.locator('[data-testid=limit-amount]').textContent()).startsWith('500,50'), `${size}/${lang}: the stake limit shown`);
    const lim = (await server.gql('{myProtection{limits{kind period amount}}}', {}, token)).myProtection.limits.find((l) => l.kind === 'STAKE' && l.period === 'DAY');
    assert.equal(lim.amount, '500.50', 'the limit typed with a comma reached the server');
    await row.locator('input').fill('900');
    await row.locator('button[type=submit]').click();
    await row.locator('[data-testid=limit-pending]').waitFor();
    assert.deepEqual(await axe(page), [], `${size}/${lang}: axe on the play-safe page`);
    await shot(page, `play-safe-${size}-${lang}`);
    // A time-out: asked twice, then the table's slip stands still and says until when.
    await page.locator('select[name=time-out-hours]').selectOption('24');
    await page.locator('section[aria-labelledby=brk-h] .card-form').first().locator('button').click();
    await page.locator('[role=alertdialog] button.danger').click();
    await page.locator('[data-testid=exclusion-state]').waitFor();
    // A break ends the player's sessions (their rights changed): the test reads it as the player anew.
    const again = (await server.login(email, 'player-password-123')).accessToken;
    const ex = (await server.gql('{myProtection{exclusion{kind until active}}}', {}, again)).myProtection.exclusion;
    assert.equal(ex.kind, 'TIME_OUT');
    assert.ok(ex.active);
    await page.goto('/table/' + fast);
    await page.waitForSelector('[data-testid=table-excluded]');
    assert.equal(await page.locator('[data-testid=slip-excluded]').count(), 1, 'the slip does not say it');
    const said = await page.locator('[data-testid=table-excluded]').textContent();
    assert.ok(said.startsWith(TEXT[lang].onBreak), `${size}/${lang}: the slip says ${said}`);
    assert.ok(/\d{2}\.\d{2}\.\d{4}/.test(said), `${size}/${lang}: no date in "${said}"`);
    assert.equal(await page.locator('.slip button[type=submit]').count(), 0, 'a bet form is offered during the break');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  // Self-exclusion is offered with its periods and "for good", and asks first.
  const { page, token, email } = await player(PHONE, 'ru');
  await page.goto('/play-safe');
  await page.locator('select[name=exclusion-months]').selectOption('null');
  await page.locator('section[aria-labelledby=brk-h] .card-form').nth(1).locator('button').click();
  await page.locator('[role=alertdialog] button.ghost').click(); // cancel: nothing happens
  assert.equal((await server.gql('{myProtection{exclusion{kind}}}', {}, token)).myProtection.exclusion, null);
  await page.locator('section[aria-labelledby=brk-h] .card-form').nth(1).locator('button').click();
  await page.locator('[role=alertdialog] button.danger').click();
  await page.locator('[data-testid=exclusion-state][data-kind=SELF_EXCLUSION]').waitFor();
  assert.equal((await server.gql('{myProtection{exclusion{kind until}}}', {}, (await server.login(email, 'player-password-123')).accessToken)).myProtection.exclusion.kind, 'SELF_EXCLUSION');
  assert.equal((await page.locator('[data-testid=exclusion-state]').textContent()), 'Вы исключили себя из игры навсегда.');
  await page.context().close();
});

test('row 2: rules for both games in the player\'s language, reachable from the table and the slip, with the paytables the server pays', async () => {
  const settings = (await server.gql('{holdemSettings{antePaytable{category odds} bonusPaytable{category odds}}}')).holdemSettings;
  for (const [size, vp, lang] of ALL) {
    const { page } = await player(vp, lang);
    await page.goto('/table/' + fast);
    await page.waitForSelector('.felt');
    await page.locator('.table-head a[href="/rules"]').click();
    await page.waitForSelector('[data-testid=paytable-ante] tbody tr');
    assert.equal(await page.locator('h1').textContent(), TEXT[lang].rules);
    for (const k of ['markets', 'rounds', 'pools', 'floor', 'suspended', 'refunds', 'fair']) {
      const text = await page.locator(`[data-rule=${k}] p`).textContent();
      assert.ok(text.length > 60 && !/[a-z]{4,}/.test(text.replace(/drand|Hold'em/g, '')), `${size}/${lang}: rule ${k} is not in ${lang}: ${text}`);
    }
    assert.ok((await page.locator('[data-rule=floor]').textContent()).includes('1,10'));
    const ante = await page.locator('[data-testid=paytable-ante] tbody tr').evaluateAll((rs) => rs.map((r) => [r.dataset.category, r.querySelector('td').textContent]));
    assert.equal(ante.length, settings.antePaytable.length);
    for (const l of settings.antePaytable) assert.ok(ante.some(([c, v]) => c === l.category && spaces(v) === `${l.odds} : 1`), `${l.category} ${l.odds}:1 missing: ${ante}`);
    assert.equal(await page.locator('[data-testid=paytable-bonus] tbody tr').count(), settings.bonusPaytable.length);
    assert.deepEqual(await axe(page), [], `${size}/${lang}: axe on the rules`);
    await shot(page, `rules-${size}-${lang}`);
    // From the slip too.
    await page.goto('/table/' + fast);
    await page.waitForSelector('.slip');
    if (size === 'phone') await page.locator('.slip-toggle').click().catch(() => undefined);
    await page.locator('.slip .rules-link').click();
    await page.waitForSelector('#tote');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('rows 3, 4, 5: a phone shows the result and the ledger uncut and the slip folds at the close; a laptop has the slip in view; no layout shift over two draws with bets', async () => {
  for (const [size, vp, lang] of TWO) {
    const { page, token } = await player(vp, lang);
    await page.goto('/table/' + fast);
    await page.waitForSelector('.slip');
    const d1 = await openRound('PRE_DEAL', 6);
    if (size === 'desktop') {
      // The stake and the button are on the first screen, without scrolling.
      for (const sel of ['.slip input[name=stake]', '.slip button[type=submit]']) {
        const b = await page.locator(sel).boundingBox();
        assert.ok(b && b.y >= 0 && b.y + b.height <= vp.height, `${sel} is below the first screen at ${vp.width}x${vp.height}: ${JSON.stringify(b)}`);
      }
    }
    await page.evaluate(() => {
      window.__cls = 0; window.__shifted = [];
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) {
          if (e.hadRecentInput) continue;
          window.__cls += e.value;
          for (const s of (e.sources ?? []).slice(0, 1)) window.__shifted.push((s.node?.className || s.node?.nodeName || '?') + ' ' + e.value.toFixed(4) + ' y' + Math.round(s.previousRect.y) + '→' + Math.round(s.currentRect.y) + ' h' + Math.round(s.previousRect.height) + '→' + Math.round(s.currentRect.height));
        }
      }).observe({ type: 'layout-shift', buffered: false });
    });
    // Two whole draws with bets in every round, the slip opened from a pool row on a phone.
    let betId, lastDraw;
    for (const [i, d] of [[0, d1], [1, null]].map(([i, d]) => [i, d])) {
      const draw = d ?? await openRound('PRE_DEAL', 6);
      lastDraw = draw;
      betId = await bet(token, draw.id, 'WIN', '3');
      await bet(token, draw.id, 'COMBINATION', 'PAIR');
      if (size === 'phone' && i === 0) {
        await page.locator('[data-pool="PRE_DEAL/WIN"] button.pick').first().click();
        await waitFor(async () => (await page.locator('.slip').getAttribute('class')).includes('open'), 'the slip opened from a pool row');
      }
      for (const r of ['POCKET', 'FLOP', 'TURN']) {
        const o = await openRound(r, 1.5).catch(() => null);
        if (o && o.id === draw.id) await bet(token, draw.id, 'WIN', '5').catch(() => undefined);
      }
      await finished(draw.id);
      await page.locator('[data-testid=result]').waitFor();
      if (size === 'phone') {
        // The slip folded when betting closed; the result is not under it.
        assert.ok((await page.locator('.slip').getAttribute('class')).includes('closed'), 'the slip stayed open across the close');
        const [res, slip] = [await page.locator('[data-testid=result]').boundingBox(), await page.locator('.slip').boundingBox()];
        assert.ok(res.y < slip.y, `the result starts under the slip: ${res.y} vs ${slip.y}`);
      }
      await waitFor(async () => (await page.locator('[data-testid=result] [data-result-pool]').count()) > 0, 'the result lists the pools with bets');
      assert.equal(await page.locator('[data-testid=no-stakes]').count(), 0, '"no bets" shown after bets were taken');
      assert.equal(await page.locator('[data-testid=my-bets-empty]').count(), 0, '"no bets yet" shown in the slip after bets were taken');
      if (i === 0) {
        assert.deepEqual(await nothingCut(page, '[data-testid=result] table'), [], `${size}: the result is cut`);
        await shot(page, `result-${size}-${lang}`);
      }
    }
    const [cls, shifted] = await page.evaluate(() => [window.__cls, window.__shifted]);
    const worst = shifted.map((x) => [Number(x.split(' ').find((w) => /^\d\.\d{4}$/.test(w)) ?? 0), x]).sort((a, b) => b[0] - a[0]).slice(0, 8).map((x) => x[1]);
    assert.ok(cls < 0.1, `${size}/${lang}: cumulative layout shift ${cls.toFixed(3)} over two draws signed in; the largest: ${worst.join('; ')}`);
    // The ledger: every row readable, and a stake names its draw and bet.
    await page.goto('/account');
    await page.waitForSelector('[data-testid=ledger] tbody tr');
    assert.deepEqual(await nothingCut(page, '[data-testid=ledger]'), [], `${size}: the ledger is cut`);
    const refs = await page.locator('tr[data-kind=BET_STAKE] [data-testid=ledger-ref]').allTextContents();
    assert.ok(refs.some((r) => r.includes('#' + lastDraw.number) && r.includes('#' + betId)), `no stake names draw #${lastDraw.number} and bet #${betId}: ${refs.slice(0, 3)}`);
    const pays = await page.locator('tr[data-kind=PAYOUT] [data-testid=ledger-ref], tr[data-kind=REFUND] [data-testid=ledger-ref]').allTextContents();
    for (const p of pays) assert.ok(/#\d+/.test(p), `a payout names no draw: ${p}`);
    const [sw, iw] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(sw <= iw, `the account page scrolls sideways: ${sw} > ${iw}`);
    await shot(page, `ledger-${size}-${lang}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('row 6: a void and a refused document are told from codes in the player\'s language, never the operator\'s text', async () => {
  for (const [size, vp, lang] of TWO) {
    const { page, token, userId } = await player(vp, lang);
    // Refuse this player's new document with a reason from the list.
    await server.gql('mutation($i:VerificationInput!){submitVerification(input:$i){id}}', { i: { documentType: 'PASSPORT', documentNumber: 'R' + Date.now(), dateOfBirth: '1990-05-05' } }, token).catch(() => undefined);
    const pend = (await server.gql('{pendingVerifications(first:50){edges{node{id user{id}}}}}', {}, adminTok)).pendingVerifications.edges.map((e) => e.node).find((v) => v.user.id === userId);
    if (pend) {
      await server.gql('mutation($i:DecideVerificationInput!){decideVerification(input:$i){id}}', { i: { id: pend.id, approve: false, rejectReason: 'DOCUMENT_UNREADABLE' } }, adminTok);
      await page.goto('/account');
      await page.waitForSelector('[data-testid=reject-reason]');
      assert.equal(await page.locator('[data-testid=reject-reason]').textContent(), TEXT[lang].reject);
    }
    // A void: the player's text comes from its kind.
    const d = await openRound('PRE_DEAL', 3);
    await page.goto('/table/' + fast);
    await page.waitForSelector('.felt');
    await server.gql('mutation($d:ID!,$r:String!){voidDraw(drawId:$d,reason:$r){id}}', { d: d.id, r: 'internal: camera 2 offline' }, adminTok);
    await page.locator('[data-testid=void-reason]').waitFor();
    const said = await page.locator('[data-testid=void-reason]').textContent();
    assert.equal(said, TEXT[lang].voidAdmin, `${size}/${lang}`);
    assert.ok(!said.includes('camera'), 'the operator\'s note reached the player');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('row 7: no jackpot amount while it is off; my bets across draws with filters; the verify page names the draw by its number', async () => {
  for (const [size, vp, lang] of TWO) {
    const { page, token } = await player(vp, lang);
    await server.gql('mutation{setJackpotEnabled(enabled:false){enabled}}', {}, adminTok);
    try {
      await page.goto('/table/' + fast);
      await page.waitForSelector('[data-testid=jackpot][data-enabled=false]', { timeout: 60_000 }).catch(async () => { await page.reload(); await page.waitForSelector('[data-testid=jackpot][data-enabled=false]'); });
      const jp = await page.locator('[data-testid=jackpot]').textContent();
      assert.ok(jp.includes(TEXT[lang].jackpotOff) && !/\d/.test(jp.split('·')[0]), `${size}/${lang}: jackpot shown as "${jp}"`);
      await page.goto('/');
      await page.waitForSelector('[data-testid=jackpot-off]');
    } finally {
      await server.gql('mutation{setJackpotEnabled(enabled:true){enabled}}', {}, adminTok);
    }
    // Bets on two draws, then the history page lists both and filters.
    const a = await openRound('PRE_DEAL', 3);
    await bet(token, a.id, 'WIN', '2');
    await bet(token, a.id, 'COMBINATION', 'FLUSH');
    await finished(a.id);
    const b = await openRound('PRE_DEAL', 3);
    await bet(token, b.id, 'WIN', '4');
    await page.goto('/bets');
    await page.waitForSelector('[data-testid=bet-history] tbody tr');
    const draws = new Set(await page.locator('[data-testid=bet-history] tbody tr td:nth-child(2) a').allTextContents());
    assert.ok(draws.has('#' + a.number) && draws.has('#' + b.number), `${size}/${lang}: history shows ${[...draws]}`);
    assert.equal(await page.locator('[data-testid=bet-history] tbody tr').count(), 3);
    await page.locator('select[name=bh-market]').selectOption('COMBINATION');
    await waitFor(async () => (await page.locator('[data-testid=bet-history] tbody tr').count()) === 1, 'the market filter');
    assert.equal(await page.locator('[data-testid=bet-history] tbody tr').getAttribute('data-market'), 'COMBINATION');
    assert.deepEqual(await axe(page), [], `${size}/${lang}: axe on my bets`);
    await shot(page, `bets-${size}-${lang}`);
    // The verify link names the draw by the number the table shows.
    await page.locator(`[data-testid=bet-history] a:text("#${a.number}")`).first().click();
    await page.waitForSelector('[data-testid=verify-draw]');
    assert.ok((await page.locator('[data-testid=verify-draw]').textContent()).endsWith('#' + a.number));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('row 7: my bets filter on the server: lost bets older than the first page show when filtering for lost', async () => {
  const { page, token } = await player(DESKTOP, 'ru');
  // An older draw with a bet on every position: at least eight of them lose.
  const old = await openRound('PRE_DEAL', 3);
  await Promise.all(Array.from({ length: 10 }, (_, i) => bet(token, old.id, 'WIN', String(i + 1))));
  await finished(old.id);
  // Then more bets than the history's first page (50) on a newer draw.
  const d = await openRound('PRE_DEAL', 5);
  await Promise.all(Array.from({ length: 55 }, (_, i) => bet(token, d.id, 'WIN', String((i % 10) + 1))));
  await page.goto('/bets');
  await page.waitForSelector('[data-testid=bet-history] tbody tr');
  const rows = page.locator('[data-testid=bet-history] tbody tr');
  const drawsShown = async () => new Set(await page.locator('[data-testid=bet-history] tbody tr td:nth-child(2) a').allTextContents());
  assert.equal(await rows.count(), 50);
  assert.ok(!(await drawsShown()).has('#' + old.number), 'the older draw is on the first page already');
  await page.locator('select[name=bh-status]').selectOption('LOST');
  await waitFor(async () => (await drawsShown()).has('#' + old.number), 'the lost bets of the older draw', 30_000);
  const statuses = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-status')));
  assert.ok(statuses.length >= 8 && statuses.every((x) => x === 'LOST'), `filtered for lost: ${statuses}`);
  // Back to every status: the first page again, from the newest.
  await page.locator('select[name=bh-status]').selectOption('');
  await waitFor(async () => (await rows.count()) === 50 && !(await drawsShown()).has('#' + old.number), 'the unfiltered first page');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('row 8: staff create a table and API keys, compare and reject a document with a reason, void only in round 1, type money with a comma, read every reason and the audit in their language', async () => {
  for (const [size, vp, lang] of TWO) {
    const page = await staff(vp, lang);
    await page.goto('/admin');
    // A table.
    const name = `Стол ${size} ${lang}`;
    const ct = page.locator('[data-testid=create-table]');
    await ct.locator('input[name=table-name]').fill(name);
    await ct.locator('select[name=table-positions]').selectOption('8');
    await ct.locator('input[name=table-min]').fill('150,50');
    await ct.locator('input[name=table-commission]').fill('4,5');
    await ct.locator('button[type=submit]').click();
    await ct.locator('[data-testid=create-table-msg] .alert.ok').waitFor();
    const made = (await server.gql('{tables{id name positions settings{minStake commission}}}')).tables.find((x) => x.name === name);
    assert.ok(made, 'the table was not created');
    assert.deepEqual([made.positions, made.settings.minStake, made.settings.commission], [8, '150.50', '4.50']);
    // A bad percentage reads as a sentence in the staff's language, not a code.
    const row = page.locator(`[data-admin-table="${made.id}"]`);
    await row.waitFor();
    await row.locator(`input[name=com-${made.id}]`).fill('abc');
    await row.getByRole('button').nth(1).click();
    const err = await page.locator('section[aria-labelledby=tadm-h] > .alert.error').first().textContent();
    assert.ok(!err.includes('INVALID_PERCENT') && /4,5/.test(err), `the refusal reads "${err}"`);
    await row.locator(`input[name=min-${made.id}]`).fill('200,50');
    await row.getByRole('button').first().click();
    await waitFor(async () => (await server.gql('query($id:ID!){table(id:$id){settings{minStake}}}', { id: made.id })).table.settings.minStake === '200.50', 'a comma min stake saved');
    // Void: offered in round 1, not after.
    await server.gql('mutation($t:ID!){pauseTable(tableId:$t){id}}', { t: made.id }, adminTok);
    const r1 = await openRound('PRE_DEAL', 0.5, fast);
    void r1;
    const fastRow = page.locator(`[data-admin-table="${fast}"]`);
    await waitFor(async () => (await fastRow.locator('[data-testid=void-form]').count()) === 1, 'void offered in round 1', 30_000);
    await openRound('POCKET', 0.5, fast);
    await waitFor(async () => (await fastRow.locator('[data-testid=void-form]').count()) === 0 && (await fastRow.locator('[data-testid=void-closed]').count()) === 1, 'void withdrawn after round 1', 30_000);
    // API keys: shown once, then revoked after a confirmation.
    const keys = page.locator('[data-testid=api-keys]');
    await keys.locator('input[name=api-key-name]').fill(`Partner ${size}`);
    await keys.locator('button[type=submit]').click();
    const secret = await keys.locator('[data-testid=api-key-secret]').textContent();
    assert.match(secret, /^ptk_/);
    const ok = await fetch(server.url + '/query', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'ApiKey ' + secret }, body: JSON.stringify({ query: '{tables{id}}' }) });
    assert.equal(ok.status, 200);
    await page.reload();
    await page.waitForSelector('[data-testid=api-keys] tbody tr');
    assert.equal(await page.locator('[data-testid=api-key-secret]').count(), 0, 'the secret is shown again');
    const keyRow = page.locator('[data-testid=api-keys] tbody tr').filter({ hasText: `Partner ${size}` });
    await keyRow.locator('button').click();
    await keyRow.locator('[role=alertdialog] button.danger').click();
    await keyRow.locator('xpath=.').and(page.locator('[data-revoked]')).waitFor();
    // A document to compare and reject with a reason.
    const p = await playerViaApi(server, `doc-${size}@pokertote.test`);
    await server.gql('mutation($i:VerificationInput!){submitVerification(input:$i){id}}', { i: { documentType: 'ID_CARD', documentNumber: 'D' + Date.now(), dateOfBirth: '1991-06-06' } }, p.accessToken).catch(() => undefined);
    await page.goto('/admin');
    const pv = page.locator(`li[data-email="doc-${size}@pokertote.test"]`);
    await pv.waitFor({ timeout: 10_000 }).catch(() => undefined);
    if (await pv.count()) {
      assert.ok((await pv.locator('[data-testid=pv-name]').textContent()).includes('Api Player'));
      assert.equal(await pv.locator('[data-testid=pv-dob]').getAttribute('data-differs'), '', 'a date of birth differing from the account\'s is not marked');
      assert.ok(await pv.locator('button.danger').isDisabled(), 'reject without a reason');
      await pv.locator('select[name=reject-reason]').selectOption('DATE_OF_BIRTH_MISMATCH');
      await pv.locator('button.danger').click();
      await waitFor(async () => (await server.gql('{me{verification{status rejectReason}}}', {}, p.accessToken)).me.verification.rejectReason === 'DATE_OF_BIRTH_MISMATCH', 'rejected with the reason');
    }
    // The jackpot switch asks first.
    await page.locator('[data-testid=jackpot-state] button').click();
    await page.locator('[data-testid=jackpot-state] [role=alertdialog] button.ghost').click();
    assert.equal((await server.gql('{jackpot{enabled}}')).jackpot.enabled, true, 'the jackpot was switched without a confirmation');
    // The audit: the new table's settings change in the staff's language.
    await page.waitForSelector('[data-testid=audit] tbody tr');
    const details = (await page.locator('[data-testid=audit-detail]').allTextContents()).join(' | ');
    assert.ok(details.includes(lang === 'ru' ? 'Минимальная ставка' : 'Ең төменгі бәс'), `the audit's details are not in ${lang}: ${details.slice(0, 200)}`);
    await server.gql('mutation($t:ID!){resumeTable(tableId:$t){id}}', { t: made.id }, adminTok);
    assert.deepEqual(await axe(page), [], `${size}/${lang}: axe on the back office`);
    await shot(page, `admin-${size}-${lang}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('row 9: a four-colour deck, cards a phone can read, a 10-position felt within a phone screen, table names and hints in the player\'s language, the terms accepted at registration', async () => {
  for (const [size, vp, lang] of ALL) {
    const { page } = await player(vp, lang);
    await page.goto('/table/' + fast);
    await waitFor(async () => (await page.locator('.felt [data-card]').count()) > 0 || (await openRound('POCKET', 0).catch(() => false)), 'cards on the felt', 120_000);
    await page.waitForSelector('.felt [data-card]');
    const card = await page.locator('.felt [data-card]').first().boundingBox();
    assert.ok(card.width >= 38 && card.height >= 54, `${size}: cards are ${card.width}x${card.height}`);
    if (size === 'phone') {
      const felt = await page.locator('.felt').boundingBox();
      assert.ok(felt.height <= vp.height, `a 10-position felt is ${felt.height}px tall on an ${vp.height}px phone`);
    }
    // Four colours: diamonds and clubs get their own.
    const colours = () => page.evaluate(() => {
      const probe = (s) => { const e = document.createElement('span'); e.className = 'card suit-' + s; document.body.append(e); const c = getComputedStyle(e).color; e.remove(); return c; };
      return ['h', 'd', 'c', 's'].map(probe);
    });
    const before = await colours();
    assert.equal(new Set(before).size, 2, `a two-colour deck by default: ${before}`);
    await page.locator('input[name=four-colour]').check();
    const after = await colours();
    assert.equal(new Set(after).size, 4, `four colours: ${after}`);
    await page.reload();
    assert.equal(new Set(await colours()).size, 4, 'the choice is kept');
    // The stake hint writes amounts as the amounts are written: with a comma.
    if (size === 'phone') await page.locator('.slip-toggle').click().catch(() => undefined);
    const hint = spaces(await page.locator('#stake-hint').textContent().catch(() => ''));
    if (hint) assert.ok(!/\d\.\d\d/.test(hint) && /\d,\d\d/.test(hint), `the hint reads "${hint}"`);
    // The server's own table names read in the player's language.
    await page.goto('/');
    await page.waitForSelector('.lobby .tile h2');
    assert.ok((await page.locator('.lobby .tile h2').allTextContents()).includes(TEXT[lang].demo10), `${size}/${lang}: the demo table's name is not translated`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  // Registration needs the terms.
  const page = await newPage(browser, server, { viewport: PHONE });
  await page.goto('/account');
  await page.evaluate(() => localStorage.setItem('pokertote.lang', 'kk'));
  await page.reload();
  await page.fill('input[name=reg-email]', 'terms@pokertote.test');
  await page.fill('input[name=reg-password]', 'player-password-123');
  await page.fill('input[name=reg-name]', 'Terms Player');
  await page.fill('input[name=reg-dob]', '1990-01-01');
  await page.locator('form[aria-labelledby=reg-h] button[type=submit]').click();
  await page.locator('form[aria-labelledby=reg-h] .alert.error').waitFor();
  assert.ok((await page.locator('form[aria-labelledby=reg-h] .alert.error').textContent()).includes('ережелер'));
  await page.locator('input[name=reg-terms]').check();
  await page.locator('form[aria-labelledby=reg-h] button[type=submit]').click();
  await page.waitForSelector('[data-testid=user-email]');
  await shot(page, 'register-terms-phone-kk');
  await page.context().close();
});
