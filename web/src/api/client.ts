// The transport: GraphQL over HTTP POST /query (queries, mutations) and
// graphql-ws over the same path (subscriptions), with the access token and a
// refresh on expiry. Nothing here knows an operation's shape.
import { createClient, type Client } from 'graphql-ws';
import { signal } from '@preact/signals';
import { withFragments, Refresh } from './ops';

/** A GraphQL error with the server's stable code and reason (extensions). */
export class ApiError extends Error {
  constructor(message: string, public code: string, public reason: string) { super(message); }
}

export interface Session {
  accessToken: string;
  accessTokenExpiresAt: string;
  refreshToken: string;
  refreshTokenExpiresAt: string;
}

const KEY = 'pokertote.session';

function load(): Session | null {
  try { return JSON.parse(localStorage.getItem(KEY) || 'null'); } catch { return null; }
}

/** The signed-in session (tokens), persisted in localStorage so reloads keep it. */
export const session = signal<Session | null>(load());

export function setSession(s: Session | null) {
  session.value = s;
  if (s) localStorage.setItem(KEY, JSON.stringify(s)); else localStorage.removeItem(KEY);
  resetSocket();
}

let refreshing: Promise<void> | null = null;

/** refresh rotates the refresh token once, however many callers need it at the same time. */
async function refresh(): Promise<void> {
  const s = session.value;
  if (!s) throw new ApiError('not signed in', 'UNAUTHENTICATED', '');
  refreshing ??= (async () => {
    try {
      const data = await post<{ refreshToken: Session }>(withFragments(Refresh), { token: s.refreshToken }, null);
      const p = data.refreshToken;
      setSession({ accessToken: p.accessToken, accessTokenExpiresAt: p.accessTokenExpiresAt, refreshToken: p.refreshToken, refreshTokenExpiresAt: p.refreshTokenExpiresAt });
    } catch (e) {
      setSession(null);
      throw e;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

async function post<T>(query: string, variables: unknown, token: string | null): Promise<T> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = 'Bearer ' + token;
  const res = await fetch('/query', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  let body: { data?: T; errors?: { message: string; extensions?: { code?: string; reason?: string } }[] };
  try { body = await res.json(); } catch { throw new ApiError(`HTTP ${res.status}`, 'NETWORK', ''); }
  if (body.errors?.length) {
    const e = body.errors[0];
    throw new ApiError(e.message, e.extensions?.code ?? 'INTERNAL', e.extensions?.reason ?? '');
  }
  return body.data as T;
}

function expiresSoon(s: Session): boolean {
  return Date.parse(s.accessTokenExpiresAt) - Date.now() < 5_000;
}

/** gql sends a query or mutation, refreshing the access token first when it is about to expire, and once more on UNAUTHENTICATED. */
export async function gql<T, V = Record<string, unknown>>(doc: string, variables?: V): Promise<T> {
  const query = withFragments(doc);
  let s = session.value;
  if (s && expiresSoon(s)) { await refresh(); s = session.value; }
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

let socket: Client | null = null;
/** The connection state of the WebSocket, for the header's indicator. */
export const online = signal(true);

function resetSocket() {
  const old = socket;
  socket = null;
  old?.dispose();
}

function ws(): Client {
  if (socket) return socket;
  const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/query';
  socket = createClient({
    url,
    lazy: true,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait: async (n) => new Promise((r) => setTimeout(r, Math.min(250 * 2 ** n, 3000))),
    connectionParams: async () => {
      const s = session.value;
      if (s && expiresSoon(s)) await refresh().catch(() => undefined);
      return session.value ? { authToken: session.value.accessToken } : {};
    },
    on: {
      connected: () => { online.value = true; },
      // A lazy socket closes normally (1000) when its last subscription ends
      // (a visitor leaves the table): that is not a lost connection.
      closed: (e) => { online.value = (e as { code?: number } | undefined)?.code === 1000; },
    },
  });
  return socket;
}

/**
 * subscribe runs a subscription until the returned function is called. When
 * the socket drops, graphql-ws reconnects and subscribes again with
 * variables() evaluated afresh, so a caller resumes from its last seen seq.
 */
export function subscribe<T>(doc: string, variables: () => Record<string, unknown>, next: (data: T) => void, onError?: (e: unknown) => void): () => void {
  const query = withFragments(doc);
  let stop: (() => void) | null = null;
  let done = false;
  const start = () => {
    if (done) return;
    stop = ws().subscribe<T>({ query, variables: variables() }, {
      next: (r) => { if (r.data) next(r.data as T); },
      error: (e) => { onError?.(e); setTimeout(start, 500); },
      complete: () => { if (!done) setTimeout(start, 500); },
    });
  };
  start();
  return () => { done = true; stop?.(); };
}
