// What this browser recorded of each draw it watched (docs/fairness.md,
// section 7): the commitment and the four beacon rounds with their close
// times from DrawOpened (or the join snapshot), and each round's bet root
// from RoundClosed. The result is published only after the seed is
// revealed, so whoever publishes it could recompute every hash in it; the
// verifier (views/Verify.tsx) checks it against these instead. Kept in
// localStorage for the last MAX draws.
import type { Recorded } from '../verify';
import type { TableEvent } from './tableState';
import { tiyn } from './bets';

const ROUND_NUMBER: Record<string, number> = { PRE_DEAL: 1, POCKET: 2, FLOP: 3, TURN: 4 };

const PREFIX = 'pokertote.recorded.';
const INDEX = 'pokertote.recorded';
const MAX = 50;

type Streets = { round: number; closesAt: string }[] | null | undefined;

/** Kept is what the browser keeps of a draw: what it recorded, and its own bets as placed. */
type Kept = Recorded & { fromOpen?: boolean; placed?: PlacedBet[] };

function load(drawId: string): Kept {
  try { return JSON.parse(localStorage.getItem(PREFIX + drawId) ?? '{}') as Kept; } catch { return {}; }
}

function save(drawId: string, r: Kept) {
  try {
    localStorage.setItem(PREFIX + drawId, JSON.stringify(r));
    const ids: string[] = JSON.parse(localStorage.getItem(INDEX) ?? '[]').filter((x: string) => x !== drawId);
    ids.push(drawId);
    for (const old of ids.splice(0, Math.max(0, ids.length - MAX))) localStorage.removeItem(PREFIX + old);
    localStorage.setItem(INDEX, JSON.stringify(ids));
  } catch { /* storage full or disabled: nothing recorded */ }
}

const rounds = (s: Streets) => (s && s.length === 4 ? s.map((x) => ({ round: Number(x.round), closesAt: x.closesAt })) : undefined);

/** recordEvent keeps what a table event commits to, for the draw it belongs to. */
export function recordEvent(ev: TableEvent) {
  switch (ev.__typename) {
    case 'DrawOpened':
      save(ev.drawId, { commitment: ev.commitment, rounds: rounds(ev.beacons?.streets), fromOpen: true });
      break;
    case 'TableSnapshot': {
      const d = ev.draw;
      if (!d) break;
      const r = load(d.drawId);
      // Joined while round 1 was still open: every later close is seen.
      if (!r.commitment) save(d.drawId, { ...r, commitment: d.commitment, rounds: rounds(d.beacons?.streets), fromOpen: d.phase === 'PRE_DEAL' });
      break;
    }
    case 'DrawVoided': {
      // Watched from the start, the player saw every round that closed:
      // a result publishing another number of roots is caught.
      const r = load(ev.drawId);
      if (r.fromOpen) save(ev.drawId, { ...r, closedRounds: (r.roots ?? []).length });
      break;
    }
    case 'RoundClosed': {
      const b = ev.betRoot;
      if (!b) break;
      const r = load(ev.drawId);
      const root = { round: ROUND_NUMBER[b.round] ?? 0, root: b.root, numBets: b.numBets, stakes: Number(tiyn(b.stakes) ?? -1n), ...(b.publishedAt ? { at: b.publishedAt } : {}) };
      save(ev.drawId, { ...r, roots: [...(r.roots ?? []).filter((x) => x.round !== root.round), root].sort((a, c) => a.round - c.round) });
      break;
    }
  }
}

/** recordedOf is what this browser recorded of a draw, or undefined when it did not watch it. */
export function recordedOf(drawId: string): Recorded | undefined {
  const { fromOpen: _, ...r } = load(drawId);
  return r.commitment || r.roots?.length ? r : undefined;
}

/** PlacedBet is a bet as the server accepted it, kept to check its inclusion proof against. */
export interface PlacedBet { id: string; round: string; market: string; selection: string; stake: string }

/** recordPlaced keeps a bet as it was placed, under its draw. */
export function recordPlaced(drawId: string, b: PlacedBet) {
  const r = load(drawId);
  save(drawId, { ...r, placed: [...(r.placed ?? []).filter((x) => x.id !== b.id), b] });
}

/** placedOf is the bet as it was placed in this browser, if it was. */
export function placedOf(drawId: string, betId: string): PlacedBet | undefined {
  return load(drawId).placed?.find((x) => x.id === betId);
}

/** seenRoots is the bet root of each closed round of a draw as this browser saw it, by round number. */
export function seenRoots(drawId: string): Record<number, string> {
  return Object.fromEntries((load(drawId).roots ?? []).map((x) => [x.round, x.root]));
}
