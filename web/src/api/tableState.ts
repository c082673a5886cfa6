// The live table's state and how one event changes it (pure: no network), so
// that it is unit-tested in Node. Resuming without gaps: every event carries
// seq, +1 per event of the table. The state remembers the last seq applied;
// events at or below it are duplicates (a resubscription replays from an
// older afterSeq) and are ignored, and a jump (seq > last+1) means events were
// missed, so the caller reloads the snapshot and resumes after it.
import type { TableSnapshotQuery, TableEventsSubscription } from '../gql/graphql';

export type Snap = NonNullable<TableSnapshotQuery['table']>;
export type DrawState = NonNullable<Snap['currentDraw']>;
export type PoolState = DrawState['pools'][number];
export type TableEvent = TableEventsSubscription['tableEvents'];

export interface TableState {
  id: string;
  name: string;
  positions: number;
  status: string;
  settings: Snap['settings'];
  draw: DrawState | null;
  jackpot: { balance: string; enabled: boolean };
  seq: number;
}

/** fromSnapshot builds the state from the snapshot query. */
export function fromSnapshot(q: TableSnapshotQuery): TableState | null {
  const tb = q.table;
  if (!tb) return null;
  return {
    id: tb.id, name: tb.name, positions: tb.positions, status: tb.status, settings: tb.settings,
    draw: tb.currentDraw, jackpot: q.jackpot, seq: Number(tb.lastSeq),
  };
}

/** poolKey names a pool by its round and market. */
export const poolKey = (p: { round: string; market: string }) => p.round + '/' + p.market;

type Ev<T extends TableEvent['__typename']> = Extract<TableEvent, { __typename: T }>;

const AFTER: Record<string, string> = { PRE_DEAL: 'DEALING_POCKET', POCKET: 'DEALING_FLOP', FLOP: 'DEALING_TURN', TURN: 'DEALING_RIVER' };

/** fromEventSnapshot turns the stream's TableSnapshot into the state (keeping what it does not carry: name, settings). */
export function fromEventSnapshot(s: TableState, ev: Ev<'TableSnapshot'>): TableState {
  const d = ev.draw;
  const prev = s.draw && d && s.draw.id === d.drawId ? s.draw : null;
  return {
    ...s, seq: Number(ev.seq), status: ev.status, jackpot: ev.jackpot,
    draw: d && {
      id: d.drawId, number: d.number, phase: d.phase, openRound: d.openRound, roundClosesAt: d.roundClosesAt,
      minStake: d.minStake, maxStake: prev?.maxStake ?? s.settings.maxStake, board: d.board, burned: prev?.burned ?? [],
      openedAt: prev?.openedAt ?? ev.at, settledAt: d.result?.settledAt ?? null, voidReason: d.voidReason, voidKind: d.draw?.voidKind ?? prev?.voidKind ?? null,
      positions: d.positions, shuffle: { commitment: d.commitment, publicSeed: d.publicSeed, serverSeed: d.serverSeed },
      odds: d.odds, pools: d.pools, result: d.result,
      chances: d.chances ? [...(prev?.chances ?? []).filter((c) => c.round !== d.chances!.round), d.chances] : prev?.chances ?? [],
    },
  };
}

/**
 * suspendedIn lists the selections ("MARKET selection") the open round opened
 * suspended (SPEC 1.9): a bet on one is refused with SELECTION_SUSPENDED.
 */
export function suspendedIn(d: DrawState | null): Set<string> {
  const rc = d?.openRound ? d.chances?.find((c) => c.round === d.openRound) : undefined;
  return new Set((rc?.chances ?? []).filter((c) => c.suspended).map((c) => c.market + ' ' + c.selection));
}

/**
 * fold applies one event. It returns the same object when the event is a
 * duplicate, and 'gap' when events were missed (the caller reloads). A
 * TableSnapshot replaces the state whatever its seq.
 */
export function fold(s: TableState, ev: TableEvent): TableState | 'gap' {
  const seq = Number(ev.seq);
  if (ev.__typename === 'TableSnapshot') return fromEventSnapshot(s, ev);
  if (seq <= s.seq) return s;
  if (seq !== s.seq + 1) return 'gap';
  const next: TableState = { ...s, seq };
  const d = s.draw;
  const mine = (id: string) => d && d.id === id;
  switch (ev.__typename) {
    case 'TablePaused': next.status = 'PAUSED'; break;
    case 'TableResumed': next.status = 'RUNNING'; break;
    case 'DrawOpened':
      next.draw = {
        id: ev.drawId, number: ev.number, phase: 'PRE_DEAL', openRound: null, roundClosesAt: null, minStake: ev.minStake,
        maxStake: s.settings.maxStake, board: [], burned: [], openedAt: ev.at, settledAt: null, voidReason: null, voidKind: null,
        positions: [], shuffle: { commitment: ev.commitment, publicSeed: null, serverSeed: null }, odds: ev.odds, pools: [], result: null, chances: [],
      };
      break;
    case 'RoundOpened':
      if (mine(ev.drawId)) {
        const chances = ev.chances ? [...(d!.chances ?? []).filter((c) => c.round !== ev.round), ev.chances] : d!.chances ?? [];
        next.draw = { ...d!, phase: ev.round, openRound: ev.round, roundClosesAt: ev.closesAt, chances };
      }
      break;
    case 'RoundClosed':
      if (mine(ev.drawId)) next.draw = { ...d!, phase: (AFTER[ev.round] ?? d!.phase) as DrawState['phase'], openRound: null, roundClosesAt: null, shuffle: { ...d!.shuffle, publicSeed: ev.publicSeed ?? d!.shuffle.publicSeed } };
      break;
    case 'CardsDealt':
      if (mine(ev.drawId)) next.draw = { ...d!, board: ev.board, positions: ev.positions };
      break;
    case 'OddsUpdated':
      if (mine(ev.drawId) && ev.odds) next.draw = { ...d!, odds: ev.odds };
      break;
    case 'PoolUpdated':
      if (mine(ev.drawId)) {
        const pools = d!.pools.slice();
        const i = pools.findIndex((p) => poolKey(p) === poolKey(ev.pool));
        if (i >= 0) pools[i] = ev.pool; else pools.push(ev.pool);
        next.draw = { ...d!, pools };
      }
      break;
    case 'DrawSettled':
      if (mine(ev.drawId)) next.draw = { ...d!, phase: 'SETTLED', openRound: null, roundClosesAt: null, result: ev.result, positions: ev.positions, settledAt: ev.result.settledAt, shuffle: { ...d!.shuffle, serverSeed: ev.serverSeed } };
      break;
    case 'DrawVoided':
      if (mine(ev.drawId)) next.draw = { ...d!, phase: 'VOID', openRound: null, roundClosesAt: null, result: ev.result, voidReason: ev.reason, voidKind: ev.voidKind, shuffle: { ...d!.shuffle, serverSeed: ev.serverSeed } };
      break;
  }
  return next;
}
