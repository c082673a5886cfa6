// What a player or an operator reads, row by row of issue 28 (the rows the
// other files do not see): the ledger in the player's language (row 4), no
// false "reconnecting" dot (8), a result panel of the pools with money, the
// EXPRESS categories by name and a void's reason (9), Casino Hold'em's boxes
// (10), empty and loading states (11), Kazakh and Russian text and money
// (12), and the audit log filtered on the server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  Server, launch, newPage, waitFor, playerViaApi, shot, betInput, signIn, setLang, spaces, sleep, tableState, token, page, nodes, ADMIN, termsVersion,
} from './harness.mjs';

let server, browser, admin;
before(async () => {
  server = new Server({ timeScale: 4 });
  await server.start();
  browser = await launch();
  admin = (await server.login(ADMIN.email, ADMIN.password)).accessToken;
});
after(async () => { await browser?.close(); await server?.close(); });

const PHONE = { width: 390, height: 844 };
const table = async (id) => (await server.gql('query($id:ID!){table(id:$id){name positions currentDraw{id number phase openRound roundClosesAt}}}', { id })).table;
/** openRound waits for table id's draw to have round open with at least secs seconds left. */
const openRound = (id, round, secs) => waitFor(async () => {
  const t = await table(id);
  return t.currentDraw?.openRound === round && Date.parse(t.currentDraw.roundClosesAt) - Date.now() > secs * 1000 && t;
}, `${round} open on table ${id} with ${secs}s left`, 180_000);
const bet = (reg, drawId, market, sel, stake, key) =>
  server.gql('mutation($i:PlaceBetInput!){placeBet(input:$i){id}}', { i: betInput(drawId, market, sel, stake, key) }, reg.accessToken);
const cash = (kind, userId, amount, key) =>
  server.gql(`mutation($i:CashInput!){${kind}(input:$i){balance}}`, { i: { userId, amount, idempotencyKey: key } }, admin);

test('row 4: the ledger in Russian: translated kinds, no memos, Almaty dates, its own header, paged beyond 20; the role translated', async () => {
  const reg = await playerViaApi(server, 'ledger@pokertote.test', '5000.00');
  for (let i = 0; i < 22; i++) await cash('deposit', reg.user.id, '1.00', 'ledger-dep-' + i);
  await cash('withdraw', reg.user.id, '5.00', 'ledger-wd');
  const t = await openRound('1', 'PRE_DEAL', 2);
  await bet(reg, t.currentDraw.id, 'WIN', '1', '100.00', 'ledger-bet');
  const led = nodes((await server.gql(`{myLedger(first:100){${page('kind amount memo createdAt')}}}`, {}, reg.accessToken)).myLedger);
  assert.ok(led.length > 20, `${led.length} entries: the test needs more than a page`);

  // The browser's own zone is New York: dates must still be Almaty's.
  const p = await newPage(browser, server, { timezoneId: 'America/New_York' });
  await signIn(p, 'ledger@pokertote.test', 'player-password-123');
  await setLang(p, 'ru');
  await p.waitForSelector('[data-testid=ledger] tbody tr');
  assert.equal(await p.locator('[data-testid=user-role]').textContent(), 'Игрок');
  assert.deepEqual(await p.locator('[data-testid=ledger] thead th').allTextContents(), ['Дата', 'Операция', 'Сумма', 'Баланс']);
  assert.equal(await p.locator('[data-testid=ledger] tbody tr').count(), 20, 'the first page');
  await p.getByRole('button', { name: 'Показать ещё' }).click();
  await waitFor(async () => (await p.locator('[data-testid=ledger] tbody tr').count()) === led.length, `all ${led.length} entries after "show more"`);
  assert.equal(await p.getByRole('button', { name: 'Показать ещё' }).count(), 0, 'no "show more" after the last page');

  // The kind's cell also names what the entry was for (its own line, data-testid=ledger-ref): the kind is the text before it.
  const rows = await p.locator('[data-testid=ledger] tbody tr').evaluateAll((rs) => rs.map((r) => ({ kind: r.getAttribute('data-kind'), cells: [...r.cells].map((c) => c.querySelector('[data-testid=ledger-ref]') ? c.firstChild.textContent : c.textContent) })));
  const almaty = new Intl.DateTimeFormat('ru-RU', { timeZone: 'Asia/Almaty', dateStyle: 'short', timeStyle: 'medium' });
  const digits = (s) => s.replace(/\D/g, '');
  const text = rows.map((r) => r.cells.join(' ')).join('\n');
  for (const [i, r] of rows.entries()) {
    const e = led[i];
    assert.equal(r.kind, e.kind, `row ${i} in the server's order`);
    assert.notEqual(r.cells[1], e.kind, `row ${i} shows the raw kind`);
    assert.match(r.cells[1], /^[А-Яа-яЁё' ]+$/, `row ${i} kind ${e.kind} reads "${r.cells[1]}"`);
    assert.equal(digits(r.cells[0]), digits(almaty.format(new Date(e.createdAt))), `row ${i} date "${r.cells[0]}" is not Almaty time of ${e.createdAt}`);
    assert.match(spaces(r.cells[2]), /^−?\d{1,3}( \d{3})*,\d{2} ₸$/, `row ${i} amount`);
  }
  for (const k of ['DEPOSIT', 'WITHDRAWAL', 'BET_STAKE']) assert.ok(rows.some((r) => r.kind === k), `no ${k} row`);
  for (const m of new Set(led.map((e) => e.memo).filter(Boolean))) assert.ok(!text.includes(m), `the English memo "${m}" is shown`);
  await shot(p, 'ledger-ru');
  assert.deepEqual(p.errors, []);
});

test('row 12: money with the decimal comma in ru and kk, "Позиций: 6"; my bets in Kazakh fit the slip at desktop and phone width', async () => {
  const reg = await playerViaApi(server, 'kk@pokertote.test', '5980.00');
  const p = await newPage(browser, server);
  await signIn(p, 'kk@pokertote.test', 'player-password-123');
  const n = (await table('1')).positions;
  for (const [lang, bal, tile] of [['en', '₸5,980.00', `${n} positions`], ['ru', '5 980,00 ₸', `Позиций: ${n}`], ['kk', '5 980,00 ₸', `Позиция саны: ${n}`]]) {
    await setLang(p, lang);
    await p.goto('/');
    await p.waitForSelector('.tile [data-testid=phase]');
    assert.equal(spaces(await p.locator('[data-testid=balance]').textContent()), bal, `${lang} balance`);
    const tileText = await p.locator('.tile[data-table="1"]').textContent();
    assert.ok(tileText.includes(tile) && !tileText.includes('×'), `${lang} tile: ${tileText}`);
  }

  // Bets with the longest Kazakh names: before the deal, a combination, an express.
  const t = await openRound('1', 'PRE_DEAL', 2);
  await bet(reg, t.currentDraw.id, 'WIN', '3', '100.00', 'kk-1');
  await bet(reg, t.currentDraw.id, 'COMBINATION', 'THREE_OF_A_KIND', '150.00', 'kk-2');
  await bet(reg, t.currentDraw.id, 'EXPRESS', '1-2-3', '1250.00', 'kk-3');
  for (const [vw, viewport] of [['desktop', undefined], ['phone', PHONE]]) {
    const q = await newPage(browser, server, viewport ? { viewport } : {});
    await signIn(q, 'kk@pokertote.test', 'player-password-123');
    await setLang(q, 'kk');
    await q.goto('/table/1');
    if (vw === 'phone') await q.locator('.slip-toggle').click();
    await q.waitForSelector('[data-testid=my-bets] tr[data-bet]');
    // Lines per bet: the distinct line boxes of its text (a wrapped label adds one).
    const m = await q.evaluate(() => {
      const slip = document.querySelector('[data-testid=slip]');
      const s = slip.getBoundingClientRect();
      const bets = [...document.querySelectorAll('[data-testid=my-bets] tr[data-bet]')].map((tr) => {
        const tops = [];
        for (const cell of tr.cells) {
          const w = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let n = w.nextNode(); n; n = w.nextNode()) {
            if (!n.textContent.trim()) continue;
            const r = document.createRange();
            r.selectNodeContents(n);
            for (const b of r.getClientRects()) if (!tops.some((x) => Math.abs(x - b.top) < 6)) tops.push(b.top);
          }
        }
        const b = tr.getBoundingClientRect();
        return { lines: tops.length, right: b.right, text: tr.textContent };
      });
      return { bets, slipRight: s.right, scroll: slip.scrollWidth - slip.clientWidth, table: document.querySelector('[data-testid=my-bets]').scrollWidth };
    });
    assert.ok(m.bets.length >= 3, `${vw}: ${m.bets.length} bets shown`);
    for (const b of m.bets) {
      assert.ok(b.lines <= 2, `${vw}: a bet takes ${b.lines} lines: ${b.text}`);
      assert.ok(b.right <= m.slipRight + 0.5, `${vw}: a bet sticks out of the slip (${b.right} > ${m.slipRight}): ${b.text}`);
    }
    assert.ok(m.scroll <= 0, `${vw}: the slip scrolls sideways by ${m.scroll}px`);
    await shot(q, `mybets-kk-${vw}`);
    assert.deepEqual(q.errors, []);
    await q.close();
  }
});

test('row 8: a signed-out visitor leaving a table sees no red "reconnecting" dot', async () => {
  const p = await newPage(browser, server);
  await p.goto('/table/1');
  await p.waitForSelector('.felt');
  await waitFor(async () => (await tableState(p))?.seq > 0, 'the table stream');
  assert.equal(await p.locator('header .dot').getAttribute('class'), 'dot on');
  // Leave by the header's link (the page stays, its table subscription ends).
  await p.locator('nav a', { hasText: 'Lobby' }).first().click();
  await p.waitForSelector('.tile [data-testid=phase]');
  const seen = new Set();
  for (let i = 0; i < 20; i++) { seen.add(await p.locator('header .dot').getAttribute('class')); await sleep(100); }
  assert.deepEqual([...seen], ['dot on'], 'the dot after leaving the table');
  assert.equal(await p.locator('header .dot').getAttribute('aria-label'), 'Connected');
  assert.deepEqual(p.errors, []);
});

test("row 10: Casino Hold'em at phone and desktop width: decisions inside their box, box 2's cards as backs, fold said once, the result above the new-hand form; Hold'em in the ledger translated", async () => {
  await playerViaApi(server, 'boxes@pokertote.test', '20000.00');
  for (const [vw, viewport] of [['phone', PHONE], ['desktop', undefined]]) {
    const p = await newPage(browser, server, viewport ? { viewport } : {});
    await signIn(p, 'boxes@pokertote.test', 'player-password-123');
    await p.goto('/holdem');
    await p.locator('select[name=boxes]').selectOption('2');
    await waitFor(async () => /^[0-9a-f]{64}$/.test((await p.locator('[data-testid=commitment] code').textContent()).trim()), 'commitment');
    await p.getByRole('button', { name: 'Deal' }).click();
    await p.waitForSelector('[data-testid=holdem-hand][data-phase=DECIDING]');
    const box2 = p.locator('[data-box="2"]');
    assert.equal(await box2.locator('.card.slot').count(), 0, `${vw}: box 2 has empty slots`);
    assert.equal(await box2.locator('.card.back, .card[data-card]').count(), 2, `${vw}: box 2 shows two cards or backs`);
    /** inside reports the buttons of the box in turn that stick out of it. */
    const outside = (box) => p.locator(`[data-box="${box}"]`).evaluate((li) => {
      const b = li.getBoundingClientRect();
      return [...li.querySelectorAll('.actions button')].map((x) => [x.textContent, x.getBoundingClientRect()])
        .filter(([, r]) => r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5).map(([t]) => t);
    });
    await p.waitForSelector('[data-box="1"] .actions button');
    assert.deepEqual(await outside(1), [], `${vw}: box 1's decisions stick out of it`);
    await shot(p, `holdem-boxes-${vw}`);
    await p.locator('[data-box="1"] button', { hasText: 'Call' }).click();
    await p.waitForSelector('[data-box="2"] .actions button');
    assert.equal(await p.locator('[data-box="2"] .actions button').count(), 2);
    assert.deepEqual(await outside(2), [], `${vw}: box 2's decisions stick out of it`);
    await p.locator('[data-box="2"] button', { hasText: 'Fold' }).click();
    await p.waitForSelector('[data-testid=holdem-hand][data-phase=SETTLED]');
    assert.equal(((await box2.textContent()).match(/Fold/g) ?? []).length, 1, `${vw}: box 2 says fold ${await box2.textContent()}`);
    // The result stays in the first screen, above the form of the next hand.
    await p.evaluate(() => window.scrollTo(0, 0));
    const [ret, form, h] = await p.evaluate(() => [document.querySelector('[data-testid=total-return]').getBoundingClientRect().toJSON(),
      document.querySelector('form.card-form').getBoundingClientRect().toJSON(), innerHeight]);
    assert.ok(ret.bottom <= form.top, `${vw}: the new-hand form (top ${form.top}) is above the result (${ret.bottom})`);
    assert.ok(ret.bottom <= h, `${vw}: the total return is below the first screen (${ret.bottom} > ${h})`);
    await shot(p, `holdem-result-${vw}`);
    assert.deepEqual(p.errors, []);
    if (vw === 'desktop') {
      await setLang(p, 'kk');
      await p.goto('/account');
      await p.waitForSelector('[data-testid=ledger] tr[data-kind^=HOLDEM]');
      const kinds = await p.locator('[data-testid=ledger] tr[data-kind^=HOLDEM] td:nth-child(2)').allTextContents();
      assert.ok(kinds.length >= 2 && kinds.every((k) => /^Холдем/.test(k)), `Hold'em kinds in Kazakh: ${kinds}`);
    }
    await p.close();
  }
});

test('row 11: empty lists say so, and loading says loading', async () => {
  await server.gql('mutation($i:RegisterInput!){register(input:$i){user{id}}}', { i: { email: 'empty@pokertote.test', password: 'player-password-123', name: 'Empty', dateOfBirth: '1990-05-05', acceptedTerms: await termsVersion(server) } });
  const p = await newPage(browser, server);
  await signIn(p, 'empty@pokertote.test', 'player-password-123');
  await p.getByText('No entries yet.').waitFor();
  assert.equal(await p.locator('[data-testid=ledger]').count(), 0, 'a header-only ledger');
  await p.goto('/table/1');
  await p.waitForSelector('[data-testid=my-bets-empty]');
  assert.equal(await p.locator('[data-testid=my-bets-empty]').textContent(), 'No bets yet.');
  // An EXPRESS pool without coupons explains itself in its first row (an
  // earlier test may have left coupons in the current draw: wait for a draw
  // without any).
  const empty = ['No bets in this pool yet.', 'Express is not taken in this round.'];
  let first = '';
  for (const until = Date.now() + 90_000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
    first = spaces(await p.locator('[data-pool$="/EXPRESS"] tbody tr').first().textContent());
    if (empty.includes(first)) break;
  }
  assert.ok(empty.includes(first), `the EXPRESS pool's first row: "${first}"`);

  // Slow answers: the lobby and the ledger say they are loading.
  // (a navigation may cancel a held request: continuing it then is no error)
  await p.route('**/query', async (r) => { await sleep(1500); await r.continue().catch(() => undefined); });
  for (const [path, where] of [['/', 'main section'], ['/account', '.account section']]) {
    await p.goto(path);
    await p.locator(`${where} [aria-busy=true]`).first().waitFor({ timeout: 5000 });
    assert.match(await p.locator(`${where} [aria-busy=true]`).first().textContent(), /^Loading…$/);
  }
  await p.unrouteAll({ behavior: 'wait' });
  assert.deepEqual(p.errors, []);
});

test('row 9: the result panel lists the pools with money, names the EXPRESS categories; a void shows its reason', async () => {
  const reg = await playerViaApi(server, 'result@pokertote.test', '50000.00');
  const p = await newPage(browser, server);
  await p.goto('/table/1');
  await p.waitForSelector('.felt');
  // A WIN bet, and EXPRESS coupons on every turn leader and winner (one of
  // them guesses at least 2 of 3, so the pool is paid, not refunded). Then
  // the table is paused: the draw ends and its result stays on screen.
  const t = await openRound('1', 'PRE_DEAL', 5);
  const d = t.currentDraw;
  await bet(reg, d.id, 'WIN', '2', '100.00', 'res-w');
  for (let turn = 1; turn <= t.positions; turn++) {
    for (let win = 1; win <= t.positions; win++) await bet(reg, d.id, 'EXPRESS', `1-${turn}-${win}`, '100.00', `res-x${turn}-${win}`);
  }
  await server.gql('mutation($t:ID!){pauseTable(tableId:$t){id}}', { t: '1' }, admin);
  try {
    await waitFor(async () => { const s = await tableState(p); return s?.draw === d.id && s.phase === 'SETTLED'; }, 'the draw settled on the page', 180_000);
    await p.waitForSelector('[data-testid=result] [data-result-pool]');
    const res = (await server.gql('query($id:ID!){draw(id:$id){result{winners pools{round market bets gross refunded}}}}', { id: d.id })).draw.result;
    const withMoney = res.pools.filter((x) => x.bets > 0).map((x) => `${x.round}/${x.market}`).sort();
    assert.deepEqual(withMoney, ['PRE_DEAL/EXPRESS', 'PRE_DEAL/WIN']);
    assert.ok(res.pools.length > withMoney.length, `the result lists ${res.pools.length} pools: the test needs some without money`);
    const shown = (await p.locator('[data-testid=result] [data-result-pool]').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-result-pool')))).sort();
    assert.deepEqual(shown, withMoney, `the panel lists ${shown}; the draw had ${res.pools.length} pools`);
    const express = spaces(await p.locator('[data-result-pool="PRE_DEAL/EXPRESS"] td:last-child').textContent());
    assert.equal(res.pools.find((x) => x.market === 'EXPRESS' && x.round === 'PRE_DEAL').refunded, false);
    assert.match(express, /^3 of 3: (—|[\d,]+\.\d{2}) · 2 of 3: [\d,]+\.\d{2}$/, `EXPRESS categories read "${express}"`);
    const panel = await p.locator('[data-testid=result]').textContent();
    assert.match(panel, new RegExp(`Winners: Position ${res.winners[0]}`));
    await shot(p, 'result-panel');
  } finally {
    await server.gql('mutation($t:ID!){resumeTable(tableId:$t){id}}', { t: '1' }, admin);
  }

  // A void: table 2 paused (no next draw replaces it), its draw voided before the deal.
  await p.goto('/table/2');
  await p.waitForSelector('.felt');
  const t2 = await openRound('2', 'PRE_DEAL', 2);
  await server.gql('mutation($t:ID!){pauseTable(tableId:$t){id}}', { t: '2' }, admin);
  try {
    await server.gql('mutation($d:ID!,$r:String!){voidDraw(drawId:$d,reason:$r){id}}', { d: t2.currentDraw.id, r: 'e2e: a card was exposed' }, admin);
    await waitFor(async () => (await tableState(p))?.phase === 'VOID', 'the void on the page');
    const why = (await server.gql('query($id:ID!){draw(id:$id){voidReason voidKind}}', { id: t2.currentDraw.id })).draw;
    // The player reads why from the void's kind, never the operator's note (kept for staff and the audit log).
    const said = await p.locator('[data-testid=void-reason]').textContent();
    assert.equal(await p.locator('[data-testid=void-reason]').getAttribute('data-kind'), why.voidKind);
    assert.equal(said, 'The draw was cancelled before any card was dealt. Every stake is refunded in full.');
    assert.ok(!said.includes('exposed') && !said.includes(why.voidReason), `the operator's note reached the player: ${said}`);
    assert.ok(!(await p.locator('[data-testid=result]').textContent()).includes('Winners'), 'a void shows "Winners:"');
    await shot(p, 'result-void');
  } finally {
    await server.gql('mutation($t:ID!){resumeTable(tableId:$t){id}}', { t: '2' }, admin);
  }
  assert.deepEqual(p.errors, []);
});

test('audit log: filters by action, table, who acted and time are answered by the server, beyond the entries loaded', async () => {
  // Another admin, and the entry looked for buried under 60 newer ones.
  const ops = (await server.gql('mutation($i:RegisterInput!){register(input:$i){user{id}}}', { i: { email: 'ops@pokertote.test', password: 'ops-password-1234', name: 'Ops', dateOfBirth: '1985-01-01', acceptedTerms: await termsVersion(server) } })).register.user;
  await server.gql('mutation($u:ID!){setRole(userId:$u,role:ADMIN){id}}', { u: ops.id }, admin);
  const opsTok = (await server.login('ops@pokertote.test', 'ops-password-1234')).accessToken;
  await server.gql('mutation{jackpotTopUp(amount:"10.00",idempotencyKey:"ops-jp"){balance}}', {}, opsTok);
  await server.gql('mutation($t:ID!){updateTableSettings(tableId:$t,input:{commission:"4.00"}){id}}', { t: '2' }, admin);
  const reg = await playerViaApi(server, 'audited@pokertote.test', '100.00');
  for (let i = 0; i < 60; i++) await cash('deposit', reg.user.id, '1.00', 'audit-dep-' + i);

  const p = await newPage(browser, server);
  await signIn(p, ADMIN.email, ADMIN.password);
  const asked = [];
  p.on('request', (r) => { const b = r.postData() ?? ''; if (b.includes('AuditLog')) asked.push(JSON.parse(b).variables); });
  await p.goto('/admin');
  await p.waitForSelector('[data-testid=audit] tr[data-action]');
  const actions = () => p.locator('[data-testid=audit] tr[data-action]').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-action')));
  const subjects = () => p.locator('[data-testid=audit] tr[data-action]').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-subject')));
  assert.ok(!(await actions()).includes('TOTE_TABLE_UPDATED'), 'the settings change is beyond the first page');

  await p.locator('select[name=audit-action]').selectOption('TOTE_TABLE_UPDATED');
  await waitFor(async () => { const a = await actions(); return a.length > 0 && a.every((x) => x === 'TOTE_TABLE_UPDATED'); }, 'only settings changes');
  assert.ok((await subjects()).includes('table:2'));
  assert.equal(asked.at(-1).action, 'TOTE_TABLE_UPDATED', 'the filter is sent to the server');

  await p.locator('select[name=audit-action]').selectOption('');
  await p.locator('select[name=audit-table]').selectOption('2');
  await waitFor(async () => { const s = await subjects(); return s.length > 0 && s.every((x) => x === 'table:2' || x.startsWith('draw:')); }, "only table 2's entries");
  assert.equal(asked.at(-1).tableId, '2');
  await p.locator('select[name=audit-table]').selectOption('');

  await p.locator('input[name=audit-actor]').fill('OPS@pokertote.test');
  await p.locator('input[name=audit-actor]').press('Enter');
  await waitFor(async () => { const a = await actions(); return a.length === 1 && a[0] === 'TOTE_JACKPOT_TOPUP'; }, "only the other admin's top-up");
  assert.equal(asked.at(-1).actorId, ops.id);
  await p.locator('input[name=audit-actor]').fill('nobody@pokertote.test');
  await p.locator('input[name=audit-actor]').press('Enter');
  await p.getByText('No user has this email.').waitFor();
  assert.equal(await p.locator('[data-testid=audit]').count(), 0);
  await p.locator('input[name=audit-actor]').fill('');
  await p.locator('input[name=audit-actor]').press('Enter');

  // Times are typed in Almaty's wall clock (UTC+5).
  const almaty = (ms) => new Date(ms + 5 * 3600_000).toISOString().slice(0, 16);
  const later = almaty(Date.now() + 3600_000);
  await p.locator('input[name=audit-from]').fill(later);
  await p.getByTestId('audit-empty').waitFor();
  assert.equal(Date.parse(asked.at(-1).from), Date.parse(later + ':00Z') - 5 * 3600_000, `${later} in Almaty sent as ${asked.at(-1).from}`);
  await p.locator('input[name=audit-from]').fill(almaty(Date.now() - 3600_000));
  await waitFor(async () => (await actions()).length === 50, 'a full page since an hour ago');
  await shot(p, 'admin-audit-filters');
  assert.deepEqual(p.errors, []);
});
