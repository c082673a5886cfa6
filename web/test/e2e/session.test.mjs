// A session ends everywhere at once (issue 22), and lives as long as it
// should: on a server whose access tokens live 15 s, a signed-in player at a
// table keeps it live past two expiries (the page refreshes before each,
// opens a socket with the new token and resumes from its last seq: every
// event shown once, none missing) and bets after the refreshes; a logout
// elsewhere with the page's session closes its socket and the page shows it
// is signed out (the table goes on); a role change closes it too and the page
// shows what the user may do now (an admin demoted loses the admin page).
//
// The page's transport records what it did in window.__pokertoteTrace (the
// test installs the array; client.ts' trace), and Playwright sees every
// socket the page opens and the token it sent in connection_init.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Server, launch, newPage, signIn, playerViaApi, waitFor, tableState, token, shot, ADMIN, page as conn, nodes, betInput, sleep } from './harness.mjs';

const TTL = 15_000;
let server, browser;
before(async () => {
  server = new Server({ timeScale: 4, env: { ACCESS_TOKEN_TTL: TTL / 1000 + 's' } });
  await server.start();
  browser = await launch();
});
const stops = []; // of the background bettors, before the server goes
after(async () => { await Promise.all(stops.map((f) => f())); await browser?.close(); await server?.close(); });

/** traced opens a page that records its transport's trace and the tokens of the sockets it opens (in ctx: another tab of the same person). */
async function traced(ctx) {
  const p = ctx ? await ctx.newPage() : await newPage(browser, server);
  p.errors ??= [];
  if (ctx) p.on('pageerror', (e) => p.errors.push(e.message));
  await p.addInitScript(() => { window.__pokertoteTrace = []; });
  p.sockets = [];
  p.on('websocket', (ws) => {
    const s = { url: ws.url(), token: undefined, closed: false, opened: Date.now() };
    p.sockets.push(s);
    ws.on('framesent', (f) => {
      try { const m = JSON.parse(f.payload); if (m.type === 'connection_init') s.token = m.payload?.authToken ?? null; } catch { /* not JSON */ }
    });
    ws.on('close', () => { s.closed = true; });
  });
  return p;
}

const traceOf = (p) => p.evaluate(() => window.__pokertoteTrace);
const session = (p) => p.evaluate(() => JSON.parse(localStorage.getItem('pokertote.session') || 'null'));

/**
 * checkStream asserts the table's events as the page applied them: a
 * contiguous run of seq from the snapshot on, each once, no gap reload and no
 * rejoin from a stream snapshot.
 */
function checkStream(trace) {
  const snaps = trace.filter((e) => e.kind === 'tableSnapshot');
  assert.equal(snaps.length, 1, 'the table was loaded once (a gap would reload it)');
  const from = snaps[0].seq;
  const evs = trace.filter((e) => e.kind === 'tableEvent');
  assert.deepEqual(evs.filter((e) => e.applied === 'gap'), [], 'the page never saw a gap');
  assert.deepEqual(evs.filter((e) => e.type === 'TableSnapshot'), [], 'the stream resumed by afterSeq, never rejoined');
  const applied = evs.filter((e) => e.applied === 'applied').map((e) => e.seq);
  assert.ok(applied.length > 0, 'events were shown');
  applied.forEach((seq, i) => assert.equal(seq, from + 1 + i, `event ${i} shown has seq ${seq}, want ${from + 1 + i} (no gap, no duplicate)`));
  return { applied, duplicates: evs.filter((e) => e.applied === 'duplicate').length };
}

async function lastSeq(id) {
  return Number((await server.gql('query($id:ID!){table(id:$id){lastSeq}}', { id })).table.lastSeq);
}

/**
 * bettor places small bets from another player through the API while a
 * round is open, so that events (pools) keep coming while the page changes
 * sockets. It signs in again before its own 15 s token runs out.
 */
async function bettor(email) {
  await playerViaApi(server, email, '1000000.00');
  let stop = false, n = 0;
  const done = (async () => {
    let tok, at = 0;
    while (!stop) {
      try {
        if (Date.now() - at > TTL / 2) { tok = (await server.login(email, 'player-password-123')).accessToken; at = Date.now(); }
        const d = (await server.gql('query($id:ID!){table(id:$id){positions currentDraw{id openRound}}}', { id: '1' })).table;
        if (d.currentDraw?.openRound) {
          await server.gql('mutation($i:PlaceBetInput!){placeBet(input:$i){id}}', { i: betInput(d.currentDraw.id, 'WIN', String(1 + (n % d.positions)), '100.00', `bg-${email}-${n}`) }, tok).then(() => n++, () => undefined);
        }
      } catch { /* the server is going away, or busy: try again */ }
      await sleep(300);
    }
  })();
  const end = async () => { stop = true; await done; return n; };
  stops.push(end);
  return end;
}


test('a player keeps a live table past two token expiries: new sockets with new tokens, no gap, no duplicate, a bet accepted after', async () => {
  const email = 'long-session@pokertote.test';
  await playerViaApi(server, email);
  const page = await traced();
  await signIn(page, email, 'player-password-123');
  const signedInAt = Date.now();
  const first = await session(page);
  page.sockets.length = 0; // the account page's socket goes with its document (Playwright reports no close)
  // Every refresh either tab sends, with the refresh token it spends.
  const refreshes = [];
  page.context().on('request', (r) => {
    const body = r.method() === 'POST' && r.url().endsWith('/query') ? r.postDataJSON() : null;
    if (body?.query?.includes('refreshToken(')) refreshes.push(body.variables.token);
  });
  const stopBets = await bettor('busy-table@pokertote.test');
  await page.goto('/table/1');
  // A second tab of the same person, at the same table: the session is
  // refreshed once for both (a refresh token spent twice ends the session).
  const tab2 = await traced(page.context());
  await tab2.goto('/table/1');
  await waitFor(async () => (await tableState(page))?.seq > 0 && (await tableState(tab2))?.seq > 0, 'the table, in both tabs', 30_000);

  // Two expiries of the signed-in token's lifetime, and some.
  // (Either tab may be the one that refreshes; the other adopts.)
  await waitFor(async () => refreshes.length >= 2 && Date.now() > signedInAt + 2 * TTL + 3000, 'two refreshes and two expiries', 4 * TTL);
  const s2 = await session(page);
  assert.notEqual(s2.accessToken, first.accessToken, 'the access token was refreshed');
  assert.notEqual(s2.refreshToken, first.refreshToken, 'the refresh token rotated');

  // Every refresh opened a socket with the new token, and the old one was
  // closed: one socket open, with the current token (waited for, as a
  // refresh may be under way).
  let seen;
  await waitFor(async () => {
    const now = (await session(page)).accessToken;
    const open = page.sockets.filter((s) => !s.closed);
    seen = JSON.stringify({ current: now.slice(-8), sockets: page.sockets.map((s) => [s.token?.slice(-8), s.closed]) });
    return open.length === 1 && open[0].token === now;
  }, 'one socket open, with the current token', 10_000).catch((e) => { throw new Error(e.message + ': ' + seen); });
  const tokens = page.sockets.map((s) => s.token).filter(Boolean);
  assert.ok(new Set(tokens).size >= 3, `sockets opened with ${new Set(tokens).size} distinct tokens, want the first and two refreshed`);
  assert.ok(page.sockets.filter((s) => s.token === first.accessToken).every((s) => s.closed), 'the first token\'s socket is closed');
  // The page refreshed ahead: the server never had to close a socket on it.
  const trace = await traceOf(page);
  assert.deepEqual(trace.filter((e) => e.kind === 'closed' && e.action !== 'none'), [], 'no socket was closed by the server');
  assert.deepEqual(trace.filter((e) => e.kind === 'signedOut'), [], 'still signed in');
  // Once across tabs: no refresh token was sent twice, both tabs hold the
  // same session, and the other tab adopted rotations rather than refreshing.
  assert.ok(refreshes.length >= 2, `${refreshes.length} refreshes`);
  assert.equal(new Set(refreshes).size, refreshes.length, 'no refresh token was spent twice');
  await waitFor(async () => (await traceOf(tab2)).filter((e) => e.kind === 'connect').at(-1).token === (await session(page)).accessToken.slice(-16),
    'the other tab\'s socket carries the current token', 10_000);
  const t2 = await traceOf(tab2);
  assert.deepEqual(t2.filter((e) => e.kind === 'signedOut' || (e.kind === 'closed' && e.action !== 'none')), [], 'the other tab was not cut off');
  assert.ok(t2.filter((e) => e.kind === 'connected').length >= 3, 'the other tab moved to new sockets too');
  checkStream(t2);

  // The page shows what the server has, and has shown every event once.
  const background = await stopBets();
  await waitFor(async () => (await tableState(page)).seq === await lastSeq('1'), 'the page caught up with the table', 30_000);
  const { applied, duplicates } = checkStream(await traceOf(page));
  const lastConnected = trace.filter((e) => e.kind === 'connected').at(-1).at;
  await waitFor(async () => (await traceOf(page)).some((e) => e.kind === 'tableEvent' && e.applied === 'applied' && e.at > lastConnected), 'events after the last reconnection', 30_000)
    .catch(async (e) => { throw new Error(e.message + ': ' + JSON.stringify((await traceOf(page)).slice(-30))); });
  console.log(`# ${applied.length} events shown in order (seq ${applied[0]}..${applied.at(-1)}), ${duplicates} duplicates of the sockets' overlap dropped, ${new Set(tokens).size} tokens, ${background} bets of another player meanwhile; ${refreshes.length} refreshes for two tabs`);

  // A bet after the refreshes, through the slip, is accepted and recorded.
  const d = await waitFor(async () => {
    const cd = (await server.gql('query($id:ID!){table(id:$id){currentDraw{id openRound roundClosesAt}}}', { id: '1' })).table.currentDraw;
    return cd?.openRound && Date.parse(cd.roundClosesAt) - Date.now() > 4000 ? cd : null;
  }, 'an open round with time left', 120_000);
  await page.locator('input[name=market][value=WIN]').check();
  const win = await page.locator('select[name=win] option:not([disabled])').evaluateAll((os) => os.map((o) => o.value));
  await page.locator('select[name=win]').selectOption(win[0]);
  await page.locator('input[name=stake]').fill('100');
  await page.locator('.slip button[type=submit]').click();
  const answer = await waitFor(async () => (await page.locator('.slip .alert').count()) > 0 && page.locator('.slip .alert').first().textContent(), 'the bet\'s answer', 15_000);
  assert.equal(answer, 'Bet accepted');
  const mine = nodes((await server.gql(`query($d:ID){myBets(drawId:$d){${conn('id stake')}}}`, { d: d.id }, await token(page))).myBets);
  assert.equal(mine.length, 1);
  assert.equal(mine[0].stake, '100.00');
  await shot(page, 'session-after-two-expiries');
  for (const p of [page, tab2]) if (p.errors.length) throw new Error('script errors: ' + p.errors.join('; '));
});

test('a logout elsewhere closes the page\'s socket and signs it out; a role change closes it and the page shows the new rights', async () => {
  const admin = await server.login(ADMIN.email, ADMIN.password);

  // Logout elsewhere with the page's session (its refresh token): the
  // server closes the socket 4401 TOKEN_REVOKED, the page's refresh is
  // refused and it signs out with the reason; the table goes on for it.
  const email = 'revoked@pokertote.test';
  await playerViaApi(server, email);
  const page = await traced();
  await signIn(page, email, 'player-password-123');
  await page.goto('/table/1');
  await waitFor(async () => (await tableState(page))?.seq > 0, 'the table', 30_000);
  await waitFor(async () => (await traceOf(page)).some((e) => e.kind === 'connected'), 'a socket', 10_000);
  const began = Date.now();
  await server.gql('mutation($t:String!){logout(refreshToken:$t)}', { t: (await session(page)).refreshToken });
  const close = await waitFor(async () => (await traceOf(page)).find((e) => e.kind === 'closed' && e.action !== 'none'), 'the socket closed', 10_000);
  assert.equal(close.code, 4401);
  assert.equal(close.reason, 'TOKEN_REVOKED');
  console.log(`# logout to the page's socket closed: ${close.at - began} ms`);
  await page.getByTestId('session-notice').getByText('You were signed out: sign in again.').waitFor({ timeout: 10_000 });
  assert.equal(await session(page), null, 'the session is gone');
  assert.equal(await page.getByTestId('balance').count(), 0, 'no balance shown');
  await page.getByRole('navigation').getByRole('link', { name: 'Sign in' }).waitFor();
  const out = (await traceOf(page)).find((e) => e.kind === 'signedOut');
  assert.equal(out.reason, 'REFRESH_REVOKED');
  await waitFor(async () => (await traceOf(page)).some((e) => e.kind === 'tableEvent' && e.applied === 'applied' && e.at > out.at), 'the table goes on, anonymously', 30_000);
  checkStream(await traceOf(page));
  await shot(page, 'session-signed-out');

  // A role change: promoted, the page refreshes (RIGHTS_CHANGED) and shows
  // the admin page; demoted, it loses it.
  const email2 = 'promoted@pokertote.test';
  const reg = await playerViaApi(server, email2);
  const p2 = await traced();
  await signIn(p2, email2, 'player-password-123');
  await p2.goto('/table/1');
  await waitFor(async () => (await traceOf(p2)).some((e) => e.kind === 'connected'), 'a socket', 30_000);
  const adminLink = p2.getByRole('navigation').getByRole('link', { name: 'Admin' });
  assert.equal(await adminLink.count(), 0);
  const setRole = (role) => server.gql('mutation($u:ID!,$r:Role!){setRole(userId:$u,role:$r){role}}', { u: reg.user.id, r: role }, admin.accessToken);
  const closes = async () => (await traceOf(p2)).filter((e) => e.kind === 'closed' && e.action !== 'none');
  await setRole('ADMIN');
  await waitFor(async () => (await closes()).length === 1, 'the socket closed on promotion', 10_000);
  assert.deepEqual((await closes()).map((e) => [e.code, e.reason]), [[4403, 'RIGHTS_CHANGED']]);
  await adminLink.waitFor({ timeout: 10_000 });
  await p2.getByTestId('session-notice').getByText('Your account rights have changed').waitFor();
  await adminLink.click();
  await p2.locator('#admin-h').waitFor();

  await setRole('PLAYER');
  await waitFor(async () => (await closes()).length === 2, 'the socket closed on demotion', 10_000);
  assert.deepEqual((await closes()).map((e) => [e.code, e.reason]), [[4403, 'RIGHTS_CHANGED'], [4403, 'RIGHTS_CHANGED']]);
  await p2.getByRole('alert').getByText('You may not do this.').waitFor({ timeout: 10_000 });
  assert.equal(await p2.locator('#admin-h').count(), 0, 'the admin page is gone');
  assert.equal(await adminLink.count(), 0, 'the admin link is gone');
  assert.notEqual(await session(p2), null, 'still signed in, as a player');
  // The socket is back, and the page's token carries the new rights.
  await waitFor(async () => (await traceOf(p2)).filter((e) => e.kind === 'connected').length >= 3, 'the socket reconnected', 10_000);
  const me = (await server.gql('{me{role}}', {}, await token(p2))).me;
  assert.equal(me.role, 'PLAYER');
  await shot(p2, 'session-demoted');
  for (const p of [page, p2]) if (p.errors.length) throw new Error('script errors: ' + p.errors.join('; '));
});

test('an admin disables an account from the cashier: the player\'s page is closed 4401 ACCOUNT_DISABLED and signed out, sign-in is refused until the admin enables it', async () => {
  const email = 'disabled@pokertote.test';
  await playerViaApi(server, email);
  const page = await traced();
  await signIn(page, email, 'player-password-123');
  await page.goto('/table/1');
  await waitFor(async () => (await traceOf(page)).some((e) => e.kind === 'connected'), 'a socket', 30_000);

  // The operator, on the admin page: find the player, give a reason, confirm.
  const adm = await newPage(browser, server);
  await signIn(adm, ADMIN.email, ADMIN.password);
  await adm.goto('/admin');
  await adm.locator('input[name=cash-email]').fill(email);
  await adm.getByRole('button', { name: 'Find' }).click();
  const state = adm.getByTestId('account-state');
  await state.getByText('The account is enabled.').waitFor({ timeout: 10_000 });
  // No reason, no disabling: the confirmation is asked, the server is not.
  await state.getByRole('button', { name: 'Disable account' }).click();
  await state.getByRole('button', { name: 'Confirm' }).click();
  await state.getByTestId('account-msg').getByText('Enter a reason.').waitFor({ timeout: 10_000 });
  assert.equal((await traceOf(page)).filter((e) => e.kind === 'closed' && e.action !== 'none').length, 0, 'nothing happened to the player');
  await state.locator('input[name=disable-reason]').fill('chargeback fraud');
  await state.getByRole('button', { name: 'Disable account' }).click();
  await state.getByRole('alertdialog').getByText(`Disable ${email}?`).waitFor();
  const began = Date.now();
  await state.getByRole('button', { name: 'Confirm' }).click();
  await state.getByTestId('account-msg').getByText(`${email} is disabled.`).waitFor({ timeout: 10_000 });
  await state.getByText('chargeback fraud').waitFor();

  // The player's page: closed with the reason, signed out, told why.
  const close = await waitFor(async () => (await traceOf(page)).find((e) => e.kind === 'closed' && e.action !== 'none'), 'the socket closed', 10_000);
  assert.deepEqual([close.code, close.reason], [4401, 'ACCOUNT_DISABLED']);
  console.log(`# disable to the player's socket closed: ${close.at - began} ms`);
  await page.getByTestId('session-notice').getByText('This account has been disabled. Contact support.').waitFor({ timeout: 10_000 });
  assert.equal(await session(page), null, 'the session is gone');
  // Signing in again is refused with the same text, at the form.
  await page.goto('/account');
  await page.getByLabel('Email').first().fill(email);
  await page.getByLabel('Password').first().fill('player-password-123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('This account has been disabled. Contact support.').first().waitFor({ timeout: 10_000 });
  assert.equal(await page.getByTestId('user-email').count(), 0, 'not signed in');
  await shot(page, 'session-disabled');

  // Enabled again, the player signs in anew.
  await state.getByRole('button', { name: 'Enable account' }).click();
  await state.getByRole('button', { name: 'Confirm' }).click();
  await state.getByTestId('account-msg').getByText(`${email} is enabled.`).waitFor({ timeout: 10_000 });
  await signIn(page, email, 'player-password-123');
  for (const p of [page, adm]) if (p.errors?.length) throw new Error('script errors: ' + p.errors.join('; '));
});
