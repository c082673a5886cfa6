// A player's whole journey in a real browser against the real server: register,
// verification by an admin in a second browser context, a deposit at the
// cashier, a refusal in Russian, a whole draw on a fast clock with a bet in
// every market, payouts and balance against the ledger, a late joiner seeing
// the same table, the in-browser verifier, and a Casino Hold'em hand with two
// boxes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Server, launch, newPage, shot, token, waitFor, tableState, ADMIN, sleep, page, nodes } from './harness.mjs';

let server, browser;
before(async () => { server = new Server({ timeScale: 4 }); await server.start(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const ME = { email: 'player@pokertote.test', password: 'player-password-123', name: 'Aigerim' };
const money = (s) => Math.round(Number(s) * 100);

async function currentDraw(tableId) {
  return (await server.gql('query($id:ID!){table(id:$id){currentDraw{id number phase openRound roundClosesAt}}}', { id: tableId })).table.currentDraw;
}

/** waitRound waits until the table's draw has `round` open with at least `secs` seconds left. */
async function waitRound(tableId, round, secs) {
  return waitFor(async () => {
    const d = await currentDraw(tableId);
    return d && d.openRound === round && Date.parse(d.roundClosesAt) - Date.now() > secs * 1000 ? d : null;
  }, `round ${round} with ${secs}s left`, 120_000);
}

async function bet(page, market, pick, stake, { dbl = false } = {}) {
  await page.locator(`input[name=market][value=${market}]`).check();
  // A selection the round opened suspended (SPEC 1.9) is a disabled option:
  // the player takes the first open one instead.
  const open = async (name, want) => {
    const opts = await page.locator(`select[name=${name}] option:not([disabled])`).evaluateAll((os) => os.map((o) => o.value));
    return opts.includes(want) ? want : opts[0];
  };
  if (market === 'WIN') await page.locator('select[name=win]').selectOption(await open('win', pick[0]));
  if (market === 'COMBINATION') await page.locator('select[name=combination]').selectOption(await open('combination', pick[0]));
  if (market === 'EXPRESS') {
    for (const [i, leg] of ['flop', 'turn', 'river'].entries()) await page.locator(`select[name=express-${leg}]`).selectOption(pick[i]);
  }
  await page.locator('input[name=stake]').fill(stake);
  const btn = page.locator('.slip button[type=submit]');
  if (dbl) await btn.dblclick(); else await btn.click();
  await waitFor(async () => (await page.locator('.slip .alert').count()) > 0, 'bet answer', 15_000);
  return page.locator('.slip .alert').first().textContent();
}

test('player: register, verify, deposit, bet in every market over a whole draw, payouts match the ledger; late joiner; verifier; Hold\'em', async () => {
  const player = await newPage(browser, server);
  const admin = await newPage(browser, server);

  // Lobby.
  await player.goto('/');
  await player.waitForSelector('.tile [data-testid=phase]');
  await shot(player, 'lobby');

  // Register: under 21 is refused before sending; then a 21+ registration.
  await player.goto('/account');
  await player.fill('input[name=reg-email]', ME.email);
  await player.fill('input[name=reg-password]', ME.password);
  await player.fill('input[name=reg-name]', ME.name);
  const young = new Date(); young.setFullYear(young.getFullYear() - 20);
  await player.fill('input[name=reg-dob]', young.toISOString().slice(0, 10));
  await player.getByRole('button', { name: 'Register' }).click();
  await player.getByText('You must be 21 or older.').first().waitFor();
  await player.fill('input[name=reg-dob]', '1995-03-08');
  await player.locator('input[name=reg-terms]').check();
  await player.getByRole('button', { name: 'Register' }).click();
  await player.waitForSelector('[data-testid=user-email]');
  await player.fill('input[name=doc-number]', 'N12345678');
  await player.getByRole('button', { name: 'Submit' }).click();
  await waitFor(async () => (await player.locator('[data-testid=verification-status]').textContent()) === 'Pending', 'pending verification');

  // Admin, in another context: sign in, deposit at the cashier (not yet approved).
  await admin.goto('/account');
  await admin.fill('input[name=email]', ADMIN.email);
  await admin.fill('input[name=password]', ADMIN.password);
  await admin.getByRole('button', { name: 'Sign in' }).first().click();
  await admin.waitForSelector('[data-testid=user-email]');
  await admin.goto('/admin');
  // The cashier finds the player by email (as typed, in capitals) and echoes amount, player and balance.
  await admin.fill('input[name=cash-email]', ME.email.toUpperCase());
  await admin.getByRole('button', { name: 'Find' }).click();
  await waitFor(async () => (await admin.locator('[data-testid=cash-user]').textContent()).includes(ME.email), 'player found');
  await admin.fill('input[name=cash-amount]', '5000');
  await admin.getByRole('button', { name: 'Deposit' }).click();
  const echo = await waitFor(async () => admin.locator('[data-testid=cash-msg] .alert.ok').textContent(), 'deposit answer');
  assert.match(echo, new RegExp(`Deposit ₸5,000\\.00 for ${ME.email.replace('.', '\\.')}: balance now ₸5,000\\.00`));
  await waitFor(async () => (await player.locator('[data-testid=balance]').textContent()).replace(/[^\d.]/g, '') === '5000.00', 'live balance after deposit');

  // Not verified yet: the server refuses, and the player reads why in Russian.
  await player.goto('/table/1');
  await player.locator('select[name=lang]').selectOption('ru');
  await waitFor(async () => (await currentDraw('1'))?.openRound, 'an open round');
  await player.locator('input[name=stake]').fill('100');
  await player.locator('.slip button[type=submit]').click();
  // Who may bet comes before what is staked: a pending player reads that
  // their documents are being checked (not a balance or a stake check).
  const refusal = await waitFor(async () => player.locator('.slip .alert.error').textContent(), 'refusal');
  assert.match(refusal, /Документы на проверке/, `refusal not the pending one in Russian: ${refusal}`);
  await player.locator('select[name=lang]').selectOption('en');

  // The admin approves the pending verification.
  await admin.goto('/admin');
  await admin.locator(`li[data-email="${ME.email}"] button`, { hasText: 'Approve' }).click();
  await waitFor(async () => (await admin.locator(`li[data-email="${ME.email}"]`).count()) === 0, 'approved row gone');

  // A whole draw: WIN, COMBINATION and EXPRESS before the deal; a double-clicked
  // EXPRESS in round 2 (one bet only); WIN on the flop; COMBINATION on the turn.
  // Client-side checks before sending, in Russian, at the stake field.
  await player.goto('/table/1');
  await player.reload();
  await player.locator('select[name=lang]').selectOption('ru');
  await waitFor(async () => (await currentDraw('1'))?.openRound, 'an open round');
  await player.waitForSelector('.slip form fieldset:not([disabled])');
  await player.locator('input[name=stake]').fill('12,345.6');
  await player.locator('.slip button[type=submit]').click();
  assert.match(await player.locator('#stake-msg .alert.error').textContent(), /Введите сумму/);
  await player.locator('input[name=stake]').fill('99999');
  await player.locator('.slip button[type=submit]').click();
  assert.match(await player.locator('#stake-msg .alert.error').textContent(), /больше вашего баланса/);
  assert.equal(await player.locator('input[name=stake]').getAttribute('aria-invalid'), 'true');
  await player.locator('select[name=lang]').selectOption('en');

  const d1 = await waitRound('1', 'PRE_DEAL', 5);
  await player.goto('/table/1');
  await player.waitForSelector('.slip form');
  assert.equal(await bet(player, 'WIN', ['1'], '100'), 'Bet accepted');
  assert.equal(await bet(player, 'COMBINATION', ['PAIR'], '150'), 'Bet accepted');
  assert.equal(await bet(player, 'EXPRESS', ['1', '2', '3'], '100'), 'Bet accepted');
  await waitRound('1', 'POCKET', 2.5);
  await shot(player, 'table-pocket');
  const myBetsNow = async () => nodes((await server.gql(`query($d:ID){myBets(drawId:$d){${page('id round market selection stake status payout')}}}`, { d: d1.id }, await token(player))).myBets);
  const before = (await myBetsNow()).length;
  assert.equal(before, 3);
  // Round 1 has closed: each of its bets shows its inclusion proof, checked
  // by the browser against the bet root it saw in RoundClosed (issue 26).
  for (const b of await myBetsNow()) {
    await waitFor(async () => (await player.locator(`tr[data-bet="${b.id}"] [data-testid=proof]`).getAttribute('data-proof')) === 'ok', `inclusion proof of bet ${b.id} checked`, 30_000);
  }
  const proved = (await myBetsNow())[0];
  const proofRoot = await player.locator(`tr[data-bet="${proved.id}"] [data-testid=proof]`).getAttribute('data-root');
  const served = await server.gql(`query($d:ID){myBets(drawId:$d){${page('id inclusionProof { root { root } }')}}}`, { d: d1.id }, await token(player));
  assert.equal(proofRoot, nodes(served.myBets).find((x) => x.id === proved.id).inclusionProof.root.root, 'the proof shown is of the round\'s published root');
  assert.match(await player.locator(`tr[data-bet="${proved.id}"] [data-testid=proof]`).textContent(), /proof checked here/);
  assert.equal(await bet(player, 'EXPRESS', ['2', '2', '2'], '200', { dbl: true }), 'Bet accepted');
  await sleep(500);
  assert.equal((await myBetsNow()).length, before + 1, 'a double click placed two bets');
  await waitRound('1', 'FLOP', 2.5);
  await shot(player, 'table-flop');
  assert.equal(await bet(player, 'WIN', ['3'], '100'), 'Bet accepted');
  await waitRound('1', 'TURN', 2.5);
  await shot(player, 'table-turn');
  assert.equal(await bet(player, 'COMBINATION', ['HIGH_CARD'], '100'), 'Bet accepted');
  await waitFor(async () => (await tableState(player))?.phase === 'SETTLED', 'settled draw', 120_000);
  await player.waitForSelector('[data-testid=result]');
  await shot(player, 'table-settled');
  const [sw, iw] = await player.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(sw <= iw, `the settled table scrolls sideways: ${sw} > ${iw}`);

  // Payouts and balance against the server's records.
  const bets = await waitFor(async () => { const b = await myBetsNow(); return b.every((x) => x.status !== 'ACCEPTED') && b; }, 'bets settled');
  assert.equal(bets.length, 6);
  assert.deepEqual(new Set(bets.map((b) => b.market)), new Set(['WIN', 'COMBINATION', 'EXPRESS']));
  await waitFor(async () => (await player.locator('[data-testid=my-bets] tbody tr[data-status=ACCEPTED]').count()) === 0, 'UI shows settled bets');
  for (const b of bets) {
    const shown = await player.locator(`tr[data-bet="${b.id}"] [data-testid=payout]`).textContent();
    assert.equal(shown.replace(/[\s\u202f\u00a0₸,]/g, ''), b.payout.replace(/\s/g, ''), `payout of bet ${b.id}`);
  }
  const tok = await token(player);
  const led = (await server.gql(`{ me { balance } myLedger(first: 100) { ${page('amount balanceAfter')} } }`, {}, tok));
  const entries = nodes(led.myLedger);
  const staked = bets.reduce((a, b) => a + money(b.stake), 0);
  const paid = bets.reduce((a, b) => a + money(b.payout ?? '0'), 0);
  assert.equal(money(led.me.balance), 500000 - staked + paid, 'balance = deposit − stakes + payouts');
  assert.equal(entries[0].balanceAfter, led.me.balance, 'ledger ends at the balance');
  assert.equal(entries.reduce((a, e) => a + money(e.amount), 0), money(led.me.balance), 'ledger entries sum to the balance');
  await waitFor(async () => money((await player.locator('[data-testid=balance]').textContent()).replace(/[\s\u202f\u00a0₸,]/g, '')) === money(led.me.balance), 'header balance = ledger');

  // A late joiner sees the same table as the player who watched from the start.
  await waitFor(async () => { const d = await currentDraw('1'); return d && d.id !== d1.id && ['POCKET', 'FLOP', 'DEALING_FLOP', 'TURN', 'DEALING_TURN'].includes(d.phase); }, 'next draw dealt', 120_000);
  const late = await newPage(browser, server);
  await late.goto('/table/1');
  await waitFor(async () => {
    const a = await tableState(player); const b = await tableState(late); const a2 = await tableState(player);
    return a && b && a.seq === b.seq && a2.seq === a.seq && a.cards === b.cards && a.phase === b.phase && a.felt === b.felt && a.cards.length > 0;
  }, 'late joiner sees the same table', 30_000);

  // The browser verifier accepts the real result and rejects a tampered one.
  await player.goto(`/verify?draw=${d1.id}`);
  await waitFor(async () => (await player.locator('[data-testid=verdict]').getAttribute('data-ok')) === 'true', 'verified draw');
  // Dealt on the local chain: it checks out but gets its own verdict, never a
  // plain tick; and it was compared with what this browser recorded.
  assert.equal(await player.locator('[data-testid=verdict]').getAttribute('data-verdict'), 'local');
  assert.match(await player.locator('[data-testid=recorded-checked]').textContent(), /^✔/);
  // Every bet was downloaded and the pools recomputed from them.
  assert.equal(await player.locator('[data-note=leavesChecked]').count(), 1);
  await shot(player, 'verify');
  const json = JSON.parse(await player.locator('textarea[name=result-json]').inputValue());
  if (json.beacons) {
    // A version-2 draw: its beacon rounds were checked too, and a changed signature is caught.
    assert.match(await player.locator('[data-testid=verdict]').textContent(), /Beacon rounds and signatures check out/);
    const sig = structuredClone(json);
    sig.beacons.signatures[1] = sig.beacons.signatures[1].replace(/^../, (h) => (h === 'aa' ? 'ab' : 'aa'));
    await player.fill('textarea[name=result-json]', JSON.stringify(sig));
    await player.getByRole('button', { name: 'Check' }).click();
    assert.equal(await player.locator('[data-testid=verdict]').getAttribute('data-ok'), 'false');
  }
  const tampered = structuredClone(json);
  // Version-2 results publish per-selection totals; older ones every bet.
  const won = (rows) => rows?.find((x) => x.payout > 0);
  const pool = tampered.pools.find((p) => won(p.selections) || won(p.bets)) ?? tampered.pools[0];
  const row = won(pool.selections) ?? won(pool.bets) ?? (pool.selections ?? pool.bets)[0];
  row.payout += 100;
  await player.fill('textarea[name=result-json]', JSON.stringify(tampered));
  await player.getByRole('button', { name: 'Check' }).click();
  assert.equal(await player.locator('[data-testid=verdict]').getAttribute('data-ok'), 'false');
  const cards = structuredClone(json);
  cards.board = [cards.board[1], cards.board[0], ...cards.board.slice(2)];
  await player.fill('textarea[name=result-json]', JSON.stringify(cards));
  await player.getByRole('button', { name: 'Check' }).click();
  assert.equal(await player.locator('[data-testid=verdict]').getAttribute('data-ok'), 'false');
  assert.match(await player.locator('[data-testid=verdict]').textContent(), /board/);

  // Casino Hold'em with both boxes: commitment before the cut, box 1 calls, box 2 folds.
  await player.goto('/holdem');
  await player.locator('select[name=boxes]').selectOption('2');
  await player.fill('input[name=ante1]', '100');
  await player.fill('input[name=ante2]', '150');
  await player.fill('input[name=bonus1]', '100');
  // The commitment is on screen before the cut is typed.
  const commitment = await waitFor(async () => { const c = (await player.locator('[data-testid=commitment] code').textContent()).trim(); return /^[0-9a-f]{64}$/.test(c) && c; }, 'commitment shown');
  assert.match(commitment, /^[0-9a-f]{64}$/);
  await player.fill('input[name=cut]', 'e2e cut');
  await player.getByRole('button', { name: 'Deal' }).click();
  await player.waitForSelector('[data-testid=holdem-hand][data-phase=DECIDING]');
  await shot(player, 'holdem-deciding');
  await player.locator('[data-box="1"] button', { hasText: 'Call' }).click();
  await player.locator('[data-box="2"] button', { hasText: 'Fold' }).click();
  await player.waitForSelector('[data-testid=holdem-hand][data-phase=SETTLED]');
  await shot(player, 'holdem-settled');
  const hands = (await server.gql(`{ holdemHands(first: 1) { ${page('id totalStake totalReturn shuffle { commitment } boxes { index decision outcome }')} } me { balance } }`, {}, await token(player)));
  const h = nodes(hands.holdemHands)[0];
  assert.equal(h.shuffle.commitment, commitment, 'the hand is dealt from the commitment shown before the cut');
  assert.deepEqual(h.boxes.map((b) => b.decision), ['CALL', 'FOLD']);
  assert.equal(money(h.totalStake), 100 * 100 + 150 * 100 + 100 * 100 + 200 * 100);
  const shownReturn = (await player.locator('[data-testid=total-return]').textContent()).replace(/[\s\u202f\u00a0₸,]/g, '');
  assert.equal(money(shownReturn), money(h.totalReturn));
  await waitFor(async () => money((await player.locator('[data-testid=balance]').textContent()).replace(/[\s\u202f\u00a0₸,]/g, '')) === money(hands.me.balance), 'header balance after Hold\'em');

  // A new hand with the cut the client drew (nothing typed): a random cut by
  // default (16 bytes from WebCrypto, hex), shown on the hand, and the one
  // the server dealt from (issue 26: the house never picks the deck alone).
  await player.goto('/holdem');
  const drawn = await waitFor(async () => { const c = await player.locator('input[name=cut]').inputValue(); return /^[0-9a-f]{32}$/.test(c) && c; }, 'random cut in the form');
  await waitFor(async () => /^[0-9a-f]{64}$/.test((await player.locator('[data-testid=commitment] code').textContent()).trim()), 'commitment of the second hand');
  await player.fill('input[name=ante1]', '100');
  await player.getByRole('button', { name: 'Deal' }).click();
  await player.waitForSelector('[data-testid=holdem-hand]');
  assert.equal((await player.locator('[data-testid=hand-cut] code').textContent()).trim(), drawn, 'the hand shows the random cut');
  const second = nodes((await server.gql(`{ holdemHands(first: 1) { ${page('id cut')} } }`, {}, await token(player))).holdemHands)[0];
  assert.equal(second.cut, drawn, 'the server dealt from the cut the client drew');
  assert.notEqual(second.id, h.id);

  assert.deepEqual(player.errors, [], 'no script errors in the page');
  assert.deepEqual(late.errors, []);
});
