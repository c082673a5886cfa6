// The session's policy: what the client does on each close the server
// sends, when it refreshes its token, and how long it waits to reconnect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from './bundle.mjs';

const s = await load('api/session.ts');

test('each close the server sends has its action', () => {
  assert.equal(s.closeAction(4401, 'TOKEN_EXPIRED', true), 'renew');
  assert.equal(s.closeAction(4401, 'TOKEN_REVOKED', true), 'renew', 'a revoked token: the refresh tells whether this session lives');
  assert.equal(s.closeAction(4401, 'INVALID_TOKEN', false), 'renew');
  assert.equal(s.closeAction(4401, 'API_KEY_REVOKED', true), 'signOut');
  assert.equal(s.closeAction(4401, 'ACCOUNT_DISABLED', true), 'signOut', 'refresh is refused until an admin enables it');
  assert.equal(s.closeAction(4403, 'RIGHTS_CHANGED', true), 'rights');
  assert.equal(s.closeAction(1012, '', true), 'reconnect', 'a replica draining');
  assert.equal(s.closeAction(1006, '', true), 'reconnect', 'a dropped connection');
  assert.equal(s.closeAction(1011, 'internal error', true), 'reconnect');
  assert.equal(s.closeAction(4429, 'SOCKETS_PER_USER', true), 'reconnect');
  assert.equal(s.closeAction(1000, '', false), 'none', 'the lazy socket closing after its last subscription');
  assert.equal(s.closeAction(1000, 'terminated', true), 'reconnect', 'a normal close under live subscriptions is a lost connection');
});

test('a refresh refused ends the session; one not answered, or rate limited, does not', () => {
  for (const r of ['REFRESH_REVOKED', 'REFRESH_REUSED', 'REFRESH_EXPIRED', 'INVALID_TOKEN']) assert.ok(s.refusedRefresh('UNAUTHENTICATED', r), r);
  assert.ok(s.refusedRefresh('FORBIDDEN', 'ACCOUNT_DISABLED'));
  assert.ok(!s.refusedRefresh('FORBIDDEN', 'RATE_LIMITED'));
  assert.ok(!s.refusedRefresh('UNAVAILABLE', 'DATABASE_UNAVAILABLE'));
  assert.ok(!s.refusedRefresh('NETWORK', ''));
  assert.ok(!s.refusedRefresh('INTERNAL', ''));
});

const at = (ms) => new Date(ms).toISOString();
const session = (receivedAt, life) => ({ accessToken: 'a', refreshToken: 'r', refreshTokenExpiresAt: at(receivedAt + 1e9), accessTokenExpiresAt: at(receivedAt + life), receivedAt });

test('the token is refreshed a quarter of its life before expiry, at most a minute, with a little jitter', () => {
  const t0 = Date.parse('2026-12-01T10:00:00Z');
  // 15 minutes: a minute before (up to 6 s earlier at random).
  assert.equal(s.refreshIn(session(t0, 900_000), t0, 0), 840_000);
  assert.ok(Math.abs(s.refreshIn(session(t0, 900_000), t0, 0.999) - (900_000 - 65_994)) < 1);
  // 15 seconds: 3.75 s before.
  assert.equal(s.refreshIn(session(t0, 15_000), t0, 0), 11_250);
  assert.ok(s.refreshIn(session(t0, 15_000), t0, 0.5) < 11_250);
  // 2 seconds: at least a second before.
  assert.equal(s.refreshIn(session(t0, 2_000), t0, 0), 1_000);
  // Overdue (a session loaded from storage after a night): now.
  assert.equal(s.refreshIn(session(t0, 15_000), t0 + 60_000, 0), 0);
  // Unknown lifetime (stored before receivedAt existed): a minute before.
  const old = { ...session(t0, 900_000), receivedAt: undefined };
  assert.equal(s.refreshIn(old, t0, 0), 840_000);
  assert.equal(s.refreshIn({ ...old, accessTokenExpiresAt: 'garbage' }, t0, 0), 0);
  assert.ok(s.expiresWithin(session(t0, 4_000), t0, 5_000));
  assert.ok(!s.expiresWithin(session(t0, 6_000), t0, 5_000));
});

test('reconnection waits are jittered, grow, and are capped', () => {
  assert.equal(s.backoff(0, 0), 0);
  assert.equal(s.backoff(0, 0.999), 499);
  assert.equal(s.backoff(3, 0.999), 3996);
  assert.equal(s.backoff(10, 0.999), 14985, 'capped at 15 s');
  assert.equal(s.backoff(1e6, 0.999), 14985, 'no overflow');
  // Spread: many clients of a restarted replica do not come back together.
  const waits = Array.from({ length: 1000 }, () => s.backoff(2, Math.random()));
  assert.ok(Math.max(...waits) - Math.min(...waits) > 1500, 'waits spread over the window');
  assert.ok(waits.every((w) => w >= 0 && w < 2000));
});
