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

/**
 * fold applies one event. It returns the same object when the event is a
 * duplicate, and 'gap' when events were missed (the caller reloads).
 */
export function fold(s: TableState, ev: TableEvent): TableState | 'gap' {
  const seq = Number(ev.seq);
  if (seq <= s.seq) return s;
  if (seq !== s.seq + 1) return 'gap';
  const next: TableState = { ...s, seq };
  const d = s.draw;
  switch (ev.type) {
    case 'TABLE_PAUSED': next.status = 'PAUSED'; return next;
    case 'TABLE_RESUMED': next.status = 'RUNNING'; return next;
    case 'POOL_UPDATED':
      if (d && ev.pool && ev.drawId === d.id) {
        const pools = d.pools.slice();
        const i = pools.findIndex((p) => poolKey(p) === poolKey(ev.pool!));
        if (i >= 0) pools[i] = ev.pool; else pools.push(ev.pool);
        next.draw = { ...d, pools };
      }
      return next;
    case 'ODDS_UPDATED':
      if (d && ev.odds && ev.drawId === d.id) next.draw = { ...d, odds: ev.odds };
      return next;
  }
  // Every other event carries the draw as it stands: take it, keeping the
  // live figures (pools, odds) the draw row does not repeat.
  if (ev.draw) {
    const same = d && d.id === ev.draw.id;
    next.draw = {
      ...ev.draw,
      odds: ev.odds ?? (same ? d!.odds : null),
      pools: same ? d!.pools : [],
      result: ev.result ?? (same ? d!.result : null),
    };
  }
  return next;
}

