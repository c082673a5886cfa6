// Every refusal a player can meet on the bet, Hold'em, account and cashier
// paths reads as a sentence in Russian, Kazakh and English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from './bundle.mjs';

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
  assert.match(i18n.errorText({ code: 'INTERNAL', reason: 'SOMETHING_NEW', message: 'boom' }), /boom/, 'an unknown reason still shows the server message');
});

test('money is shown with grouping, two decimals and the tenge sign', () => {
  assert.equal(i18n.money('1234567.50'), '1\u202f234\u202f567.50\u00a0₸');
  assert.equal(i18n.money('-100.00'), '−100.00\u00a0₸');
  assert.equal(i18n.money(null), '—');
});
