// The transport: GraphQL over HTTP POST /query (queries, mutations) and
// graphql-ws over the same path (subscriptions), with the session's tokens.
// Nothing here knows an operation's shape.
//
// A session ends everywhere at once (issue 22), so this module keeps it alive
// and follows the server when it ends it:
// - the access token is refreshed before it expires (session.ts' refreshIn),
//   once per tab however many callers need it, and once across tabs (a Web
//   Lock, and the other tabs adopt the rotated session from localStorage): the
//   refresh token rotates and a second use of one ends the whole session;
// - a new token gets a new socket (a socket is never re-authenticated in
//   place): every live subscription is subscribed again on it with its
//   variables evaluated afresh (the table stream's afterSeq, so it resumes
//   with no gap), and the old socket is closed once the new one is up;
// - a close by the server is acted on by its code and reason
//   (session.ts' closeAction): refresh and reconnect, sign out with the
//   reason's text, or reconnect after a backoff with jitter.
import { createClient, type Client } from 'graphql-ws';
import { signal } from '@preact/signals';
import { withFragments, Refresh } from './ops';
import { backoff, closeAction, expiresWithin, refreshIn, refusedRefresh, type Session } from './session';
export type { Session } from './session';

/** A GraphQL error with the server's stable code and reason (extensions). */
export class ApiError extends Error {
  constructor(message: string, public code: string, public reason: string) { super(message); }
}

/**
 * trace records what the transport did for the browser tests, when the page
 * has a globalThis.__pokertoteTrace array (the tests install one); otherwise
 * nothing.
 */
export function trace(e: Record<string, unknown>) {
  const t = (globalThis as { __pokertoteTrace?: unknown[] }).__pokertoteTrace;
  if (Array.isArray(t)) t.push({ ...e, at: Date.now() });
}

const KEY = 'pokertote.session';
const LOCK = 'pokertote.refresh';

function load(): Session | null {
  try { return JSON.parse(localStorage.getItem(KEY) || 'null'); } catch { return null; }
}

/** The signed-in session (tokens), persisted in localStorage so reloads and other tabs share it. */
export const session = signal<Session | null>(load());

/**
 * A text key (i18n) telling the player why the session changed under them
 * (signed out by the server, rights changed); the header shows it until
 * dismissed or the next sign-in.
 */
export const sessionNotice = signal<string | null>(null);

/** What happened to the session: the account adapter re-reads the user on each. */
export type SessionChange = 'signedIn' | 'renewed' | 'rightsChanged' | 'signedOut';
const listeners: ((c: SessionChange) => void)[] = [];
export function onSessionChange(fn: (c: SessionChange) => void) { listeners.push(fn); }
function emit(c: SessionChange) { for (const fn of listeners) fn(c); }

/** setSession replaces the session (sign in, refresh, sign out), for this tab and the others. */
export function setSession(s: Session | null) {
  if (s && !s.receivedAt) s = { ...s, receivedAt: Date.now() };
  if (s) localStorage.setItem(KEY, JSON.stringify(s)); else localStorage.removeItem(KEY);
  adopt(s);
}

/** adopt makes s this tab's session (written already, here or by another tab). */
function adopt(s: Session | null) {
  const prev = session.value;
  session.value = s;
  if (s && !prev) sessionNotice.value = null; // signed in: the last session's notice is over
  schedule(0);
  if (prev?.accessToken !== s?.accessToken) rotate();
}

/** signOut ends the session here because the server ended it, with the reason's text for the player. */
function signOut(reason: string) {
  trace({ kind: 'signedOut', reason });
  emit('signedOut'); // first: the user's own streams stop before the socket turns anonymous
  setSession(null);
  sessionNotice.value = 'err.' + (reason || 'INVALID_TOKEN');
}

// Another tab rotated the session (adopt it: refreshing the old refresh token
// again would end the session), signed in, or signed out.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key !== KEY && e.key !== null) return;
    const s = load();
    if (s?.accessToken === session.value?.accessToken) return;
    const had = session.value;
    if (!s) emit('signedOut');
    adopt(s);
    if (s) emit(had ? 'renewed' : 'signedIn');
  });
  // Back on the network: reconnect now rather than at the end of a backoff.
  window.addEventListener('online', () => { if (!conn && lives.size > 0) rotate(); });
}

let refreshing: Promise<void> | null = null;

/**
 * refresh rotates the refresh token once, however many callers need it at the
 * same time in this tab, and once across tabs: under a Web Lock it first
 * rereads the stored session, and adopts it when another tab rotated it
 * meanwhile. A refusal (UNAUTHENTICATED: revoked, reused, expired;
 * FORBIDDEN: the account disabled) signs out with its reason; a network
 * failure keeps the session (the caller retries).
 */
export function refresh(): Promise<void> {
  refreshing ??= (async () => {
    const had = session.value;
    try {
      const run = async () => {
        if (!had) throw new ApiError('not signed in', 'UNAUTHENTICATED', 'LOGIN_REQUIRED');
        const stored = load();
        if (stored?.refreshToken !== had.refreshToken) {
          // Rotated (or signed out) by another tab while this one waited.
          if (!stored) throw new ApiError('signed out', 'UNAUTHENTICATED', 'REFRESH_REVOKED');
          trace({ kind: 'adopted' });
          adopt(stored);
          emit('renewed');
          return;
        }
        const data = await post<{ refreshToken: Session }>(withFragments(Refresh), { token: had.refreshToken }, null, 10_000);
        const p = data.refreshToken;
        trace({ kind: 'refreshed' });
        setSession({ accessToken: p.accessToken, accessTokenExpiresAt: p.accessTokenExpiresAt, refreshToken: p.refreshToken, refreshTokenExpiresAt: p.refreshTokenExpiresAt });
        emit('renewed');
      };
      const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
      if (locks) await locks.request(LOCK, run); else await run();
    } catch (e) {
      if (e instanceof ApiError && refusedRefresh(e.code, e.reason) && session.value === had && had) signOut(e.reason);
      throw e;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

// The refresh before expiry: one timer for the session; a refresh that could
// not reach the server is tried again after a backoff.
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
function schedule(failures: number) {
  clearTimeout(refreshTimer);
  const s = session.value;
  if (!s) return;
  const wait = failures ? backoff(failures, 0.5 + Math.random() / 2) : refreshIn(s, Date.now(), Math.random());
  refreshTimer = setTimeout(() => {
    if (session.value !== s) return;
    refresh().catch((e) => {
      if (session.value === s && !(e instanceof ApiError && refusedRefresh(e.code, e.reason))) schedule(failures + 1);
    });
  }, wait);
}
schedule(0);

async function post<T>(query: string, variables: unknown, token: string | null, timeout?: number): Promise<T> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = 'Bearer ' + token;
  const abort = timeout ? AbortSignal.timeout(timeout) : undefined;
  const res = await fetch('/query', { method: 'POST', headers, body: JSON.stringify({ query, variables }), signal: abort });
  let body: { data?: T; errors?: { message: string; extensions?: { code?: string; reason?: string } }[] };
  try { body = await res.json(); } catch { throw new ApiError(`HTTP ${res.status}`, 'NETWORK', ''); }
  if (body.errors?.length) {
    const e = body.errors[0];
    throw new ApiError(e.message, e.extensions?.code ?? 'INTERNAL', e.extensions?.reason ?? '');
  }
  return body.data as T;
}

/** gql sends a query or mutation, refreshing the access token first when it is about to expire, and once more on UNAUTHENTICATED. */
export async function gql<T, V = Record<string, unknown>>(doc: string, variables?: V): Promise<T> {
  const query = withFragments(doc);
  let s = session.value;
  if (s && expiresWithin(s, Date.now(), 5_000)) { await refresh(); s = session.value; }
  try {
    return await post<T>(query, variables ?? {}, s?.accessToken ?? null);
  } catch (e) {
    if (e instanceof ApiError && e.code === 'UNAUTHENTICATED' && session.value) {
      await refresh();
      return post<T>(query, variables ?? {}, session.value?.accessToken ?? null);
    }
    throw e;
  }
}

// ---------------------------------------------------------------- the socket

/** One live subscription: what to subscribe with (variables afresh each time) and where its data go. */
interface Live {
  query: string;
  variables: () => Record<string, unknown>;
  next: (data: unknown) => void;
  onError?: (e: unknown) => void;
  /** Called when the subscription is subscribed again on a new socket (a stream without seq re-reads its state). */
  onResume?: () => void;
  attached: number;
  done: boolean;
}

/** One socket (a graphql-ws client), opened with one token. */
interface Conn {
  client: Client;
  retired: boolean;
  handles: Map<Live, () => void>;
  /** The socket this one replaces, closed once this one is acknowledged. */
  replaces: Conn | null;
}

const lives = new Set<Live>();
let conn: Conn | null = null;
let failures = 0; // reconnections since the last acknowledged socket
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;

/** The connection state of the WebSocket, for the header's indicator. */
export const online = signal(true);

function isClose(e: unknown): e is { code: number; reason: string } {
  return typeof e === 'object' && e !== null && 'code' in e && typeof (e as { code: unknown }).code === 'number' && 'reason' in e;
}

function retire(c: Conn | null) {
  if (!c || c.retired) return;
  c.retired = true;
  c.handles.clear();
  // dispose waits for a connection under way, and rejects if it fails.
  Promise.resolve(c.client.dispose()).catch(() => undefined);
}

function open(): Conn {
  const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/query';
  const c: Conn = { client: null as unknown as Client, retired: false, handles: new Map(), replaces: null };
  c.client = createClient({
    url,
    lazy: true,
    // This module reconnects itself (reconnect below): graphql-ws' own retry
    // would subscribe again with the variables of the first subscribe (an
    // old afterSeq) and with the token it had.
    retryAttempts: 0,
    // A table left for another keeps its socket for the next subscription.
    lazyCloseTimeout: 3000,
    connectionParams: async () => {
      const due = session.value && expiresWithin(session.value, Date.now(), 2_000);
      if (refreshing || due) await (refreshing ?? refresh()).catch(() => undefined);
      const s = session.value;
      trace({ kind: 'connect', token: s ? s.accessToken.slice(-16) : null });
      return s ? { authToken: s.accessToken } : {};
    },
    on: {
      connected: () => {
        if (c.retired) return;
        trace({ kind: 'connected' });
        online.value = true;
        failures = 0;
        retire(c.replaces);
        c.replaces = null;
      },
      closed: (e) => closed(c, e),
    },
  });
  return c;
}

/** attach subscribes l on c (again, with its variables now). */
function attach(l: Live, c: Conn) {
  c.handles.get(l)?.();
  if (l.attached++ > 0) l.onResume?.();
  const stop = c.client.subscribe<unknown>({ query: l.query, variables: l.variables() }, {
    next: (r) => { if (!l.done && r.data) l.next(r.data); },
    error: (e) => {
      if (c.handles.get(l) === stop) c.handles.delete(l);
      // A closed socket is the socket's business (closed below).
      if (l.done || c.retired || conn !== c || isClose(e)) return;
      l.onError?.(e);
      later(l, c, 1000);
    },
    complete: () => {
      if (c.handles.get(l) === stop) c.handles.delete(l);
      if (!l.done && !c.retired && conn === c) later(l, c, 500);
    },
  });
  c.handles.set(l, stop);
}

/** later subscribes l again on c after a while, unless c was replaced meanwhile (which subscribed it already). */
function later(l: Live, c: Conn, ms: number) {
  setTimeout(() => { if (!l.done && conn === c && !c.retired && !c.handles.has(l)) attach(l, c); }, ms);
}

/**
 * rotate opens a new socket (the session's token changed, or the old socket
 * is gone) and subscribes every live subscription on it. An old socket that
 * is still open keeps delivering until the new one is acknowledged, so a
 * routine refresh shows no gap; the table's fold drops the overlap's
 * duplicates by seq.
 */
function rotate() {
  clearTimeout(reconnectTimer);
  const old = conn;
  if (!old && lives.size === 0) return; // nothing live: the next subscribe opens one
  const c = open();
  conn = c;
  if (old) { retire(old.replaces); old.replaces = null; }
  if (old && !old.retired) c.replaces = old;
  for (const l of lives) if (!l.done) attach(l, c);
  if (lives.size === 0) { retire(c.replaces); c.replaces = null; }
  // Bound the overlap even if the new socket never comes up.
  setTimeout(() => { if (c.replaces) { retire(c.replaces); c.replaces = null; } }, 10_000);
}

function reconnectAfter(ms: number) {
  clearTimeout(reconnectTimer);
  reconnectTimer = setTimeout(() => { if (!conn) rotate(); }, ms);
}

/** closed acts on the close of socket c by its code and reason (session.ts' closeAction). */
function closed(c: Conn, e: unknown) {
  if (c.retired || conn !== c) return;
  const code = isClose(e) ? e.code : 1006;
  const reason = isClose(e) ? e.reason : '';
  const action = closeAction(code, reason, [...lives].some((l) => !l.done));
  trace({ kind: 'closed', code, reason, action });
  if (action === 'none') return;
  retire(c.replaces);
  retire(c);
  conn = null;
  online.value = false;
  const n = failures++;
  switch (action) {
    case 'reconnect':
      reconnectAfter(backoff(n, Math.random()));
      return;
    case 'signOut':
      signOut(reason);
      reconnectAfter(0);
      return;
    case 'renew':
    case 'rights':
      // The first at once; a token refused again right after its refresh waits.
      setTimeout(() => renew(action === 'rights', 0), n > 0 ? backoff(n, Math.random()) : 0);
  }
}

/**
 * renew refreshes the token after the server closed the socket for it, then
 * reconnects (the refresh's new session already did, through rotate). A
 * refusal signs out (refresh did) and the live streams go on anonymously; a
 * network failure is retried with backoff.
 */
function renew(rights: boolean, tries: number) {
  if (!session.value) { if (!conn) rotate(); return; }
  refresh().then(() => {
    if (rights) { sessionNotice.value = 'err.RIGHTS_CHANGED'; emit('rightsChanged'); }
    if (!conn) rotate();
  }, (e) => {
    if (e instanceof ApiError && refusedRefresh(e.code, e.reason)) { if (!conn) rotate(); return; }
    setTimeout(() => renew(rights, tries + 1), backoff(tries + 1, Math.random()));
  });
}

/**
 * subscribe runs a subscription until the returned function is called. On
 * every new socket (a refreshed token, a reconnection) it is subscribed again
 * with variables() evaluated afresh, so a caller resumes from its last seen
 * seq; onResume is called then, for streams without seq to re-read their
 * state.
 */
export function subscribe<T>(doc: string, variables: () => Record<string, unknown>, next: (data: T) => void, onError?: (e: unknown) => void, onResume?: () => void): () => void {
  const l: Live = { query: withFragments(doc), variables, next: next as (d: unknown) => void, onError, onResume, attached: 0, done: false };
  lives.add(l);
  if (!conn) { clearTimeout(reconnectTimer); conn = open(); }
  attach(l, conn);
  return () => {
    l.done = true;
    lives.delete(l);
    const c = conn;
    c?.handles.get(l)?.();
    c?.handles.delete(l);
  };
}
