// The terms a player accepts are the server's: registration in the browser
// stores the acceptance of the version in force, and when the operator
// puts a new version in force (TERMS_VERSION, after a restart) the signed-in
// player is asked to accept it, and their acceptance is stored.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Server, launch, newPage, signIn, waitFor, shot } from './harness.mjs';

let server, browser;
before(async () => { server = new Server({ timeScale: 4, env: { TERMS_VERSION: 'rules-1' } }); await server.start(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const ME = { email: 'accepts@pokertote.test', password: 'player-password-123' };
const accepted = async () => (await server.gql('{terms{version acceptedAt}}', {}, (await server.login(ME.email, ME.password)).accessToken)).terms;

test('registration stores the acceptance of the terms in force, and a new version is asked for and stored', async () => {
  const page = await newPage(browser, server);
  await page.goto('/account');
  await page.fill('input[name=reg-email]', ME.email);
  await page.fill('input[name=reg-password]', ME.password);
  await page.fill('input[name=reg-name]', 'Accepts Terms');
  await page.fill('input[name=reg-dob]', '1990-01-01');
  await page.locator('input[name=reg-terms]').check();
  await page.locator('form[aria-labelledby=reg-h] button[type=submit]').click();
  await page.waitForSelector('[data-testid=user-email]');
  const first = await accepted();
  assert.equal(first.version, 'rules-1');
  assert.ok(first.acceptedAt, 'the registration stored no acceptance');
  assert.equal(await page.locator('[data-testid=terms-changed]').count(), 0, 'a player who accepted the terms in force is asked again');
  await page.context().close();

  server.extra.TERMS_VERSION = 'rules-2';
  await server.restart();
  assert.deepEqual(await accepted(), { version: 'rules-2', acceptedAt: null });
  const again = await newPage(browser, server);
  await signIn(again, ME.email, ME.password);
  const notice = again.locator('[data-testid=terms-changed]');
  await notice.waitFor();
  await shot(again, 'terms-changed');
  await notice.getByRole('button', { name: 'I accept' }).click();
  await waitFor(async () => (await notice.count()) === 0, 'the notice goes once the terms are accepted', 10_000);
  const second = await accepted();
  assert.equal(second.version, 'rules-2');
  assert.ok(second.acceptedAt, 'the acceptance of the new version was not stored');
  assert.deepEqual(again.errors, []);
});
