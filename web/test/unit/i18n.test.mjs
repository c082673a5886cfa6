// Every refusal a player can meet on the bet, Hold'em, account and cashier
// paths reads as a sentence in Russian, Kazakh and English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from './bundle.mjs';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve, join } from 'node:path';

globalThis.localStorage ??= { getItem: () => null, setItem() {}, removeItem() {} };
if (!globalThis.navigator) Object.defineProperty(globalThis, 'navigator', { value: { language: 'ru' } });
globalThis.document ??= { documentElement: {} };
const i18n = await load('i18n.ts');

const REASONS = `INSUFFICIENT_FUNDS STAKE_TOO_LOW STAKE_TOO_HIGH ROUND_CLOSED MARKET_NOT_OFFERED_IN_ROUND NOT_VERIFIED VERIFICATION_PENDING
  UNDER_AGE INVALID_SELECTION POSITION_OUT_OF_RANGE DRAW_FINISHED IDEMPOTENCY_KEY_REUSED INVALID_AMOUNT INVALID_STAKE INVALID_CREDENTIALS
  EMAIL_TAKEN INVALID_EMAIL INVALID_PASSWORD DOB_MISMATCH ALREADY_VERIFIED ANTE_OUT_OF_RANGE BONUS_OUT_OF_RANGE OUT_OF_TURN
  DECISION_TIMED_OUT HAND_SETTLED ALREADY_DECIDED INVALID_DATE_OF_BIRTH INVALID_DOCUMENT_NUMBER INVALID_NAME NOT_A_PLAYER INVALID_CUT
  UNKNOWN_COMMITMENT COMMITMENT_REQUIRED BOX_COUNT NOT_PENDING`.split(/\s+/);

test('every player-facing refusal is translated into all three languages', () => {
  for (const l of ['ru', 'kk', 'en']) {
    i18n.setLang(l);
    const seen = new Set();
    for (const r of REASONS) {
      const text = i18n.errorText({ code: 'BAD_USER_INPUT', reason: r, message: 'server text' });
      assert.ok(!text.includes('server text'), `${r} has no ${l} text`);
      seen.add(text);
    }
    assert.ok(seen.size > REASONS.length - 5, `${l}: reasons share texts`);
  }
  i18n.setLang('ru');
  assert.match(i18n.errorText({ reason: 'INSUFFICIENT_FUNDS' }), /Недостаточно средств/);
  i18n.setLang('kk');
  assert.match(i18n.errorText({ reason: 'INSUFFICIENT_FUNDS' }), /қаражат жеткіліксіз/);
  const unknown = i18n.errorText({ code: 'BAD_USER_INPUT', reason: 'SOMETHING_NEW', message: 'boom' });
  assert.doesNotMatch(unknown, /boom/, 'the server\'s English message is never shown');
  assert.match(unknown, /SOMETHING_NEW/, 'an unknown reason is named by its code');
});

// The server's reason catalogues: every constant of domain/*/reasons.go and graph/reasons.go.
const REPO = resolve(import.meta.dirname, '../../..');
function serverReasons() {
  const files = [join(REPO, 'graph/reasons.go'), ...readdirSync(join(REPO, 'domain')).map((d) => join(REPO, 'domain', d, 'reasons.go'))];
  const out = new Set();
  for (const f of files) {
    let src;
    try { src = readFileSync(f, 'utf8'); } catch { continue; }
    for (const m of src.matchAll(/^\s*Reason\w+\s*=\s*"([A-Z_]+)"/gm)) out.add(m[1]);
  }
  return [...out];
}

test("every reason of the server's catalogues reads as a sentence in ru, kk and en", () => {
  const all = serverReasons();
  assert.ok(all.length > 80, `only ${all.length} reasons found in the catalogues`);
  assert.deepEqual(all.filter((r) => !i18n.translated(r)), [], 'reasons with no text in the client catalogue');
  for (const l of ['ru', 'kk', 'en']) {
    i18n.setLang(l);
    for (const r of all) {
      const text = i18n.errorText({ code: 'BAD_USER_INPUT', reason: r, message: 'server text' });
      assert.ok(!text.includes('server text') && !text.includes(r), `${r} in ${l}: ${text}`);
    }
  }
});

test("money and numbers are written in each language's own way (Intl)", () => {
  const norm = (s) => s.replace(/[\u00a0\u202f]/g, ' ');
  i18n.setLang('ru');
  assert.equal(norm(i18n.money('5980.00')), '5 980,00 ₸', 'ru: space groups, comma decimals');
  assert.equal(norm(i18n.money('-100.50')), '−100,50 ₸');
  assert.equal(i18n.num('2.35'), '2,35');
  i18n.setLang('kk');
  assert.equal(norm(i18n.money('1234567.50')), '1 234 567,50 ₸', 'kk: space groups, comma decimals');
  i18n.setLang('en');
  assert.equal(i18n.money('1234567.50'), '₸1,234,567.50', 'en: comma groups, point decimals');
  assert.equal(i18n.num('2.35'), '2.35');
  assert.equal(i18n.money(null), '—');
});

test("dates are shown in the operator's time zone (Asia/Almaty, UTC+5)", () => {
  i18n.setLang('ru');
  // 19:30 UTC on 14 June is 00:30 on 15 June in Almaty.
  assert.match(i18n.dateTime('2025-06-14T19:30:00Z'), /15\.06\.2025.*00:30/);
});

test("times typed in the operator's zone are read as Almaty's wall clock", () => {
  // 00:30 on 15 June in Almaty is 19:30 UTC on 14 June (UTC+5).
  assert.equal(i18n.fromOperatorTime('2025-06-15T00:30'), '2025-06-14T19:30:00.000Z');
  assert.equal(i18n.fromOperatorTime('2026-12-01T19:05:30'), '2026-12-01T14:05:30.000Z');
  // Before March 2024 Almaty kept UTC+6.
  assert.equal(i18n.fromOperatorTime('2023-06-15T00:30'), '2023-06-14T18:30:00.000Z');
  for (const bad of ['', '2025-06-15', '15.06.2025 00:30', '2025-06-15T0:30']) assert.equal(i18n.fromOperatorTime(bad), null, bad);
  // It is dateTime's inverse.
  i18n.setLang('ru');
  assert.match(i18n.dateTime(i18n.fromOperatorTime('2025-01-31T23:59')), /31\.01\.2025.*23:59/);
});
