// The account adapter: who is signed in, their balance live, sign in / out,
// register, and the user event stream (bets settled, balance changes).
import { signal } from '@preact/signals';
import { gql, session, setSession, subscribe, onSessionChange, type Session } from './client';
// The header shows the connection's state and why a session ended; the
// signals live in the client, and screens reach them through this adapter.
export { online, sessionNotice } from './client';
import { Me, Login, Register, Logout, MyEvents, SubmitVerification, MyLedger, Terms as TermsOp, AcceptTerms } from './ops';
import type { MyLedgerQuery, MeQuery, LoginMutation, RegisterMutation, MyEventsSubscription, RegisterInput, VerificationInput, SubmitVerificationMutation, TermsQuery, AcceptTermsMutation } from '../gql/graphql';

export type Me = NonNullable<MeQuery['me']>;
export const me = signal<Me | null>(null);
/** The terms in force and when the signed-in user accepted them (acceptedAt null: ask them to accept). */
export type Terms = TermsQuery['terms'];
export const terms = signal<Terms | null>(null);
/** Bumped on every user event so lists (my bets, Hold'em) reload. */
export const userTick = signal(0);
export const lastUserEvent = signal<MyEventsSubscription['myEvents'] | null>(null);

let stopEvents: (() => void) | null = null;

export async function loadMe(): Promise<void> {
  if (!session.value) { stopMyEvents(); me.value = null; return; }
  try {
    const r = await gql<MeQuery>(Me);
    me.value = r.me;
    terms.value = r.terms;
  } catch {
    me.value = null;
  }
  stopMyEvents();
  if (me.value) {
    // myEvents has no seq to resume from: on a new socket it goes on from
    // now, and the user's state is read again instead (balance, then every
    // list through userTick).
    stopEvents = subscribe<MyEventsSubscription>(MyEvents, () => ({}), (d) => {
      const ev = d.myEvents;
      lastUserEvent.value = ev;
      if (ev.__typename === 'BalanceChanged' && me.value) me.value = { ...me.value, balance: ev.balance };
      userTick.value++;
    }, undefined, () => { void rereadMe(); });
  }
}

function stopMyEvents() {
  stopEvents?.();
  stopEvents = null;
}

/** rereadMe reads the user again without restarting their stream. */
async function rereadMe() {
  try {
    const r = await gql<MeQuery>(Me);
    if (r.me && session.value) { me.value = r.me; terms.value = r.terms; userTick.value++; }
  } catch { /* the next event or reconnection reads it */ }
}

// The server ended the session or changed the user's rights (a role, a
// time-out), or another tab signed in or out: who the user is is read again,
// so the page re-renders with what they may do now.
onSessionChange((c) => {
  if (c === 'signedOut') { stopMyEvents(); me.value = null; return; }
  if (c === 'rightsChanged' || c === 'signedIn') void loadMe();
});

// The payload's user is asked for its id only: the private fields (balance,
// verification) need the token, which the request did not carry yet; loadMe
// reads them with it.
function keep(p: Session) {
  setSession({ accessToken: p.accessToken, accessTokenExpiresAt: p.accessTokenExpiresAt, refreshToken: p.refreshToken, refreshTokenExpiresAt: p.refreshTokenExpiresAt });
}

export async function login(email: string, password: string) {
  keep((await gql<LoginMutation>(Login, { email, password })).login);
  await loadMe();
}

/** termsVersion reads the version of the terms in force, which registration accepts. */
export async function termsVersion(): Promise<string> {
  return (await gql<TermsQuery>(TermsOp)).terms.version;
}

/** acceptTerms records that the signed-in user accepted the terms of version (the one they were shown). */
export async function acceptTerms(version: string) {
  terms.value = (await gql<AcceptTermsMutation>(AcceptTerms, { version })).acceptTerms;
}

/** register opens a player account; input.acceptedTerms is the version the player accepted (termsVersion). */
export async function register(input: RegisterInput) {
  keep((await gql<RegisterMutation>(Register, { input })).register);
  await loadMe();
}

export async function logout() {
  const s = session.value;
  stopMyEvents();
  // Signed out here first: the socket turns anonymous before the server,
  // hearing the logout, closes the old one (TOKEN_REVOKED), which is then
  // not this tab's to act on.
  setSession(null);
  me.value = null;
  if (s) await gql(Logout, { token: s.refreshToken }).catch(() => undefined);
}

export async function submitVerification(input: VerificationInput) {
  const r = await gql<SubmitVerificationMutation>(SubmitVerification, { input });
  await loadMe();
  return r.submitVerification;
}

export type LedgerEntry = MyLedgerQuery['myLedger']['edges'][number]['node'];

/** A page of the ledger and the cursor of the next one (null at the end). */
export interface LedgerPage { rows: LedgerEntry[]; next: string | null }

/** ledger lists entries of the signed-in player's wallet, newest first, a page after the cursor. */
export async function ledger(first = 20, after?: string | null): Promise<LedgerPage> {
  const c = (await gql<MyLedgerQuery>(MyLedger, { first, after: after ?? null })).myLedger;
  return { rows: c.edges.map((e) => e.node), next: c.pageInfo.hasNextPage ? c.pageInfo.endCursor ?? null : null };
}

/** ageOn reports the age in whole years of someone born on dob (YYYY-MM-DD) on the given day. */
export function ageOn(dob: string, today = new Date()): number {
  const [y, m, d] = dob.split('-').map(Number);
  let age = today.getFullYear() - y;
  if (today.getMonth() + 1 < m || (today.getMonth() + 1 === m && today.getDate() < d)) age--;
  return age;
}

/** newKey makes an idempotency key. */
export function newKey(): string {
  return crypto.randomUUID();
}
