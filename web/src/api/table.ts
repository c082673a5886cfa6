// The live table's adapter: the one place that knows the shape of the table
// snapshot query and of TableEvent. It folds events into a TableState that
// the views render, so a change of the event shape (typed events, a join
// snapshot) changes this file only.
//
// Resuming without gaps: every event carries seq, +1 per event of the table.
// The state remembers the last seq applied; events at or below it are
// duplicates (a resubscription replays from an older afterSeq) and are
// ignored, and a jump (seq > last+1) means events were missed, so the state is
// reloaded from the snapshot query and the stream resumes after it.
import { gql, subscribe, trace } from './client';
import { TableSnapshot, TableEvents, DrawBurns, Tables, DrawResultJson, DrawHeading as DrawHeadingQ } from './ops';
import type { TableSnapshotQuery, TableEventsSubscription, DrawBurnsQuery, TablesQuery, DrawResultJsonQuery, DrawHeadingQuery } from '../gql/graphql';

import { fold, fromSnapshot, type TableState } from './tableState';
import type { PublicLeaf } from '../verify/merkle';
import { recordEvent } from './recorded';
export * from './tableState';

/** loadTable fetches the snapshot. */
export async function loadTable(id: string): Promise<TableState | null> {
  return fromSnapshot(await gql<TableSnapshotQuery>(TableSnapshot, { id }));
}

/**
 * watchTable keeps onState called with the table as it stands: a snapshot,
 * then every event folded in, resuming after the last seq on reconnection and
 * reloading on a gap. It returns a stop function.
 */
export function watchTable(id: string, onState: (s: TableState) => void, onError: (e: unknown) => void): () => void {
  let state: TableState | null = null;
  let stopSub: (() => void) | null = null;
  let stopped = false;
  const start = async () => {
    try {
      const s = await loadTable(id);
      if (stopped || !s) return;
      state = s;
      trace({ kind: 'tableSnapshot', table: id, seq: s.seq });
      onState(s);
      stopSub?.();
      stopSub = subscribe<TableEventsSubscription>(TableEvents, () => ({ tableId: id, afterSeq: state!.seq }), (data) => {
        if (!state) return;
        const ev = data.tableEvents;
        recordEvent(ev);
        const n = fold(state, ev);
        trace({ kind: 'tableEvent', table: id, seq: Number(ev.seq), type: ev.__typename, applied: n === 'gap' ? 'gap' : n === state ? 'duplicate' : 'applied' });
        if (n === 'gap') { void start(); return; }
        if (n !== state) {
          state = n;
          onState(n);
          // The burned cards are revealed with the result but not carried by
          // the events: read them once the draw is over.
          const d = n.draw;
          if (d && (d.phase === 'SETTLED' || d.phase === 'VOID') && d.burned.length === 0 && d.shuffle.serverSeed) {
            gql<DrawBurnsQuery>(DrawBurns, { id: d.id }).then((r) => {
              if (state?.draw?.id === d.id && r.draw) { state = { ...state, draw: { ...state.draw, burned: r.draw.burned } }; onState(state); }
            }, () => undefined);
          }
        }
      }, (e) => {
        // afterSeq no longer served (pruned, or past a restored stream):
        // join afresh from the snapshot.
        if (reasonOf(e) === 'EVENTS_PRUNED' || reasonOf(e) === 'INVALID_SEQ') { stopSub?.(); if (!stopped) setTimeout(start, 500); return; }
        onError(e);
      });
    } catch (e) {
      onError(e);
      if (!stopped) setTimeout(start, 1000);
    }
  };
  void start();
  return () => { stopped = true; stopSub?.(); };
}

/** reasonOf is the reason of a subscription's error (graphql-ws hands over the GraphQL errors). */
function reasonOf(e: unknown): string {
  const first = Array.isArray(e) ? e[0] : e;
  return (first as { extensions?: { reason?: string } } | undefined)?.extensions?.reason ?? '';
}

/** The lobby's list: every table with its current draw, and the jackpot. */
export type TablesList = TablesQuery;
export const listTables = () => gql<TablesQuery>(Tables);

/** publishedResult reads a finished draw's published result JSON (null until it is published). */
export type DrawHeading = NonNullable<DrawHeadingQuery['draw']>;
/** drawHeading reads a draw's number and table, to name it as the table does (null when there is no such draw). */
export async function drawHeading(drawId: string): Promise<DrawHeading | null> {
  return (await gql<DrawHeadingQuery>(DrawHeadingQ, { id: drawId })).draw ?? null;
}

export async function publishedResult(drawId: string): Promise<string | null> {
  return (await gql<DrawResultJsonQuery>(DrawResultJson, { id: drawId })).draw?.resultJson ?? null;
}

/**
 * publishedLeaves streams a finished draw's bets, each as the leaf its
 * round's root commits to (GET /draws/{id}/leaves, one JSON per line),
 * reading the body as it arrives: a large round is never held as text.
 */
export async function* publishedLeaves(drawId: string): AsyncGenerator<PublicLeaf> {
  const res = await fetch(`/draws/${encodeURIComponent(drawId)}/leaves`);
  if (!res.ok || !res.body) throw new Error(`leaves: ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (value) rest += value;
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (line) yield JSON.parse(line) as PublicLeaf;
    }
    if (done) break;
  }
  if (rest.trim()) throw new Error('leaves: the download was cut short');
}
