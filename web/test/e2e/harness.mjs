// Test harness: builds and starts the Go server (temp DATA_DIR, fast clock,
// a bootstrap admin, a port in 22000-22999), launches Debian's Chromium
// headless through playwright-core, and talks GraphQL from Node to check what
// the browser shows against the server's own records (ledger, bets).
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const REPO = resolve(import.meta.dirname, '../../..');
export const SHOTS = resolve(import.meta.dirname, '../../test-results');
export const ADMIN = { email: 'admin@pokertote.test', password: 'admin-password-1234' };
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

let binary;
/** buildServer builds cmd/server once per test process. */
export function buildServer() {
  if (binary) return binary;
  const dir = mkdtempSync(join(tmpdir(), 'pokertote-e2e-bin-'));
  binary = join(dir, 'pokertote');
  execFileSync('go', ['build', '-o', binary, './cmd/server'], { cwd: REPO, stdio: 'inherit' });
  return binary;
}

function portFree(port) {
  return new Promise((ok) => {
    const s = net.createServer().once('error', () => ok(false)).once('listening', () => s.close(() => ok(true)));
    s.listen(port, '127.0.0.1');
  });
}

/**
 * freePort picks a free port in 22100-22999, or in E2E_PORTS (such as
 * 18200-18299) where engineers sharing a machine each keep to a range.
 */
export async function freePort() {
  const [lo, hi] = (process.env.E2E_PORTS ?? '22100-22999').split('-').map(Number);
  for (let i = 0; i < 200; i++) {
    const p = lo + Math.floor(Math.random() * (hi - lo + 1));
    if (await portFree(p)) return p;
  }
  throw new Error(`no free port in ${lo}-${hi}`);
}

/** Server is one running cmd/server; restart() stops it and starts it again on the same port and data. */
export class Server {
  constructor({ timeScale = 4, env = {} } = {}) {
    this.dataDir = mkdtempSync(join(tmpdir(), 'pokertote-e2e-data-'));
    this.timeScale = timeScale;
    this.extra = env;
    this.log = '';
  }
  get url() { return `http://127.0.0.1:${this.port}`; }
  async start() {
    // freePort checks a port before the server binds it, so another test
    // process (the suite runs files side by side) may take it between the
    // two: a first start on a port of our choosing tries another port.
    const chosen = this.port === undefined;
    for (let attempt = 1; ; attempt++) {
      this.port ??= await freePort();
      try {
        return await this.startOnce();
      } catch (e) {
        if (!chosen || attempt >= 3 || !/address already in use/.test(this.log)) throw e;
        this.port = undefined;
        this.log = '';
      }
    }
  }
  async startOnce() {
    const env = {
      ...process.env, POKERTOTE_ENV: 'development', ADDR: `127.0.0.1:${this.port}`, DATA_DIR: this.dataDir,
      TIME_SCALE: String(this.timeScale), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', ...this.extra,
    };
    this.proc = spawn(buildServer(), [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (b) => { this.log = (this.log + b.toString()).slice(-20000); };
    this.proc.stdout.on('data', keep);
    this.proc.stderr.on('data', keep);
    const exited = new Promise((_, rej) => this.proc.once('exit', (c) => rej(new Error(`server exited with ${c}:\n${this.log}`))));
    exited.catch(() => undefined);
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        const r = await fetch(this.url + '/healthz');
        if (r.ok) break;
      } catch { /* not up yet */ }
      if (this.proc.exitCode !== null) await exited;
      if (Date.now() > deadline) throw new Error('server did not come up:\n' + this.log);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  async stop() {
    if (!this.proc || this.proc.exitCode !== null) return;
    const done = new Promise((r) => this.proc.once('exit', r));
    this.proc.kill('SIGTERM');
    const t = setTimeout(() => this.proc.kill('SIGKILL'), 10_000);
    await done;
    clearTimeout(t);
  }
  async restart() { await this.stop(); await this.start(); }
  async close() { await this.stop(); rmSync(this.dataDir, { recursive: true, force: true }); }

  /** gql sends one operation from Node (the test's independent view of the server). */
  async gql(query, variables = {}, token) {
    const headers = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = 'Bearer ' + token;
    const r = await fetch(this.url + '/query', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    const body = await r.json();
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  }
  async login(email, password) {
    return (await this.gql('mutation($e:String!,$p:String!){login(email:$e,password:$p){accessToken user{id}}}', { e: email, p: password })).login;
  }
}

/** page selects the fields of a paged list; nodes reads its rows (the page shape lives here only). */
export const page = (fields) => `edges { node { ${fields} } }`;
export const nodes = (conn) => conn.items ?? conn.edges.map((e) => e.node);

/** betInput is a PlaceBetInput for market and selection written "3", "FLUSH" or "1-2-3" (the input shape lives here only). */
export const betInput = (drawId, market, selection, stake, idempotencyKey) => ({
  drawId, stake, idempotencyKey,
  selection: market === 'WIN' ? { position: Number(selection) } : market === 'COMBINATION' ? { combination: selection }
    : { express: Object.fromEntries(selection.split('-').map((p, i) => [['flop', 'turn', 'river'][i], Number(p)])) },
});

/** launch starts a headless Chromium with a fresh temporary profile (Playwright's default for launch()). */
export async function launch() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

/** newPage opens a page in its own context (its own storage: another person). */
export async function newPage(browser, server, { locale = 'en-US', viewport = { width: 1280, height: 860 }, hasTouch = viewport.width < 600, timezoneId } = {}) {
  const ctx = await browser.newContext({ locale, viewport, baseURL: server.url, hasTouch, isMobile: hasTouch, timezoneId });
  const page = await ctx.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return page;
}

export const shot = (page, name) => page.screenshot({ path: join(SHOTS, name + '.png'), fullPage: true });

/** token reads the page's access token (to ask the server the same questions from Node). */
export const token = async (page) => page.evaluate(() => JSON.parse(localStorage.getItem('pokertote.session') || 'null')?.accessToken);

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** waitFor polls f until it returns a truthy value. */
export async function waitFor(f, what, timeout = 60_000) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    try { last = await f(); if (last) return last; } catch (e) { last = e; }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (last: ${last})`);
    await sleep(150);
  }
}

/** tableState reads what the table page shows: seq, phase, draw and every visible card. */
export async function tableState(page) {
  return page.evaluate(() => {
    const root = document.querySelector('.table-page');
    if (!root) return null;
    return {
      seq: Number(root.getAttribute('data-seq')), phase: root.getAttribute('data-phase'), draw: root.getAttribute('data-draw'),
      felt: document.querySelector('.felt')?.textContent ?? '',
      cards: [...document.querySelectorAll('.felt [data-card]')].map((e) => e.getAttribute('data-card')).join(' '),
      pools: [...document.querySelectorAll('.pools [data-pool]')].map((e) => e.textContent).join('|'),
    };
  });
}

/** termsVersion is the version of the terms the server has in force (registration accepts it). */
export async function termsVersion(server) {
  return (await server.gql('{terms{version}}', {})).terms.version;
}

/** registerAndVerify makes a verified player with a deposit through the API (for tests whose subject is elsewhere). */
export async function playerViaApi(server, email, deposit = '5000.00') {
  const reg = (await server.gql('mutation($i:RegisterInput!){register(input:$i){accessToken refreshToken accessTokenExpiresAt refreshTokenExpiresAt user{id}}}',
    { i: { email, password: 'player-password-123', name: 'Api Player', dateOfBirth: '1990-05-05', acceptedTerms: await termsVersion(server) } })).register;
  await server.gql('mutation($i:VerificationInput!){submitVerification(input:$i){id}}', { i: { documentType: 'PASSPORT', documentNumber: 'N' + Date.now(), dateOfBirth: '1990-05-05' } }, reg.accessToken);
  const admin = await server.login(ADMIN.email, ADMIN.password);
  const pend = await server.gql(`{pendingVerifications(first:50){${page('id user{id}')}}}`, {}, admin.accessToken);
  const v = nodes(pend.pendingVerifications).find((x) => x.user.id === reg.user.id);
  await server.gql('mutation($i:DecideVerificationInput!){decideVerification(input:$i){id}}', { i: { id: v.id, approve: true } }, admin.accessToken);
  await server.gql('mutation($i:CashInput!){deposit(input:$i){balance}}', { i: { userId: reg.user.id, amount: deposit, idempotencyKey: 'dep-' + email } }, admin.accessToken);
  return reg;
}

/** setLang switches the page's interface language (as the header's select would) and reloads it. */
export async function setLang(page, lang) {
  await page.evaluate((l) => localStorage.setItem('pokertote.lang', l), lang);
  await page.reload();
}

/** spaces writes every kind of space (no-break, narrow no-break) as a plain one, to compare formatted numbers. */
export const spaces = (s) => (s ?? '').replace(/[\s\u00a0\u202f]+/g, ' ').trim();

/** signIn fills the sign-in form. */
export async function signIn(page, email, password) {
  await page.goto('/account');
  await page.getByLabel('Email').first().fill(email);
  await page.getByLabel('Password').first().fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForSelector('[data-testid=user-email]');
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe runs axe-core's WCAG 2.1 A/AA rules in the page (evaluated through the devtools protocol, so the page's CSP does not block it) and returns the violations, each as "rule: the first nodes and why". */
export async function axe(page) {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' ' + (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 160)).join(' | ')}`);
  });
}
