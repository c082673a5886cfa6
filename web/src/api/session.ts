// The session's policy, pure (no network, no timers) so that it is
// unit-tested in Node: when to refresh the access token, what to do when the
// server closes the socket, and how long to wait before reconnecting.
//
// The server closes a socket whose authority ended (docs/frontend.md, "When a
// socket or stream is closed"): 4401 TOKEN_EXPIRED at the token's expiry,
// 4401 TOKEN_REVOKED after a logout or a reused refresh token (of any session
// of the user), 4401 API_KEY_REVOKED, 4403 RIGHTS_CHANGED after a role change,
// a time-out or a self-exclusion; 1012 when a replica restarts (drain); any
// other close or a drop is the network's.

/** The tokens of a signed-in session, as the API's AuthPayload gives them. */
export interface Session {
  accessToken: string;
  accessTokenExpiresAt: string;
  refreshToken: string;
  refreshTokenExpiresAt: string;
  /** When this client received the access token (ms since the epoch): its lifetime is expiry minus this. */
  receivedAt?: number;
}

/** Close codes of the API (graphql-ws' convention, graph/authority.go). */
export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_FORBIDDEN = 4403;

/**
 * What the client does after a close:
 * - none: the client's own close, or the lazy socket's after its last subscription (1000);
 * - renew: refresh the token, then reconnect with the new one (an expired or
 *   revoked token: the refresh itself tells whether this session still lives);
 * - rights: the same, and the page re-reads who the user is (role, protection);
 * - signOut: the credential is gone for good (a revoked API key, a disabled account);
 * - reconnect: a restart (1012), a drop or anything else: reconnect after a backoff.
 */
export type CloseAction = 'none' | 'renew' | 'rights' | 'signOut' | 'reconnect';

export function closeAction(code: number, reason: string, hasSubscriptions: boolean): CloseAction {
  if (code === 1000) return hasSubscriptions ? 'reconnect' : 'none';
  if (code === CLOSE_UNAUTHORIZED) return reason === 'API_KEY_REVOKED' || reason === 'ACCOUNT_DISABLED' ? 'signOut' : 'renew';
  if (code === CLOSE_FORBIDDEN) return 'rights';
  return 'reconnect';
}

/** The longest a token is refreshed before its expiry, and the shortest. */
const LEAD_MAX = 60_000;
const LEAD_MIN = 1_000;

/**
 * refreshIn is how long from now to wait before refreshing the session's
 * access token: a quarter of its lifetime before it expires (at most a
 * minute, at least a second), less up to a tenth of that lead at random
 * (rand in [0, 1)) so that tabs and clients do not all refresh at the same
 * instant. Zero when the token is already due.
 */
export function refreshIn(s: Session, now: number, rand: number): number {
  const exp = Date.parse(s.accessTokenExpiresAt);
  if (!Number.isFinite(exp)) return 0;
  const life = s.receivedAt ? exp - s.receivedAt : LEAD_MAX * 4;
  const lead = Math.min(LEAD_MAX, Math.max(LEAD_MIN, life / 4)) * (1 + rand / 10);
  return Math.max(0, exp - lead - now);
}

/** expiresWithin reports whether the access token expires within ms from now. */
export function expiresWithin(s: Session, now: number, ms: number): boolean {
  return Date.parse(s.accessTokenExpiresAt) - now < ms;
}

const BACKOFF_BASE = 500;
const BACKOFF_CAP = 15_000;

/**
 * backoff is the wait before reconnection attempt n (0 for the first after a
 * connection was lost): "full jitter", a random time up to 500 ms doubled per
 * attempt and capped at 15 s, so that the clients of a restarted replica do
 * not all come back at once.
 */
export function backoff(attempt: number, rand: number): number {
  return Math.floor(rand * Math.min(BACKOFF_CAP, BACKOFF_BASE * 2 ** Math.min(attempt, 16)));
}

/**
 * refusedRefresh reports whether a refresh's error is the server refusing
 * the session (sign out: revoked, reused, expired, the account disabled)
 * rather than failing to answer or limiting the rate (keep the session, try
 * again).
 */
export function refusedRefresh(code: string, reason: string): boolean {
  return code === 'UNAUTHENTICATED' || (code === 'FORBIDDEN' && reason === 'ACCOUNT_DISABLED');
}
