// The bet adapter: builds PlaceBetInput from a slip (the one place that knows
// how a selection is written: today a string, "3", "FLUSH", "2-5-5"), checks a
// stake before it is sent, and lists my bets.
import { gql } from './client';
import { PlaceBet, MyBets, MyBetProofs, MyBetsPage } from './ops';
import { recordPlaced, placedOf } from './recorded';
import { checkInclusion } from '../verify/merkle';
import { MARKETS, SELECTION_INPUTS, type MarketRule } from '../markets.gen';
import type { MyBetProofsQuery, PlaceBetMutation, MyBetsQuery, MyBetsPageQuery, Market, BetStatus, BettingRound, SelectionInput, HandCategory, ExpressInput } from '../gql/graphql';

export type MyBet = MyBetsQuery['myBets']['edges'][number]['node'];


export interface Slip {
  drawId: string;
  market: Market;
  /** By the market's shape: POSITION [position]; CATEGORY [category]; COUPON [flop, turn, river]. */
  pick: string[];
  stake: string;
  /** One key per slip: retries and double clicks send the same key, so the server bets once. */
  key: string;
}

/** ALL_MARKETS lists every market in the server's order (markets.gen.ts, generated from its registry). */
export const ALL_MARKETS: Market[] = MARKETS.map((m) => m.name);

/** marketsIn lists the markets a round offers, as the server's registry declares them (EXPRESS only before the flop). */
export function marketsIn(round: BettingRound | null | undefined): Market[] {
  if (!round) return [];
  const n = ROUND_NUMBER[round];
  return MARKETS.filter((m) => (m.rounds as readonly number[]).includes(n)).map((m) => m.name);
}

/** tiyn parses "150", "150.5" or "150.50" into tiyn, or null. */
export function tiyn(s: string): bigint | null {
  const m = /^(\d{1,12})(?:[.,](\d{1,2}))?$/.exec(s.trim());
  if (!m) return null;
  return BigInt(m[1]) * 100n + BigInt((m[2] ?? '').padEnd(2, '0') || '0');
}

export const fmtTiyn = (v: bigint) => `${v / 100n}.${String(v % 100n).padStart(2, '0')}`;

/** MIN_COEFFICIENT is the coefficient every winning bet is paid at least (SPEC 1.5, rule 13). */
export const MIN_COEFFICIENT = '1.10';

/**
 * paidCoefficient is what a winning bet would be paid at the pool's implied
 * coefficient now: never below the guaranteed 1.10 (floored says it was raised).
 */
export function paidCoefficient(implied: string): { value: string; floored: boolean } {
  const v = tiyn(implied);
  const min = tiyn(MIN_COEFFICIENT)!;
  if (v === null || v >= min) return { value: implied, floored: false };
  return { value: MIN_COEFFICIENT, floored: true };
}

/** checkStake returns an i18n key (and values) for a bad stake, or null. */
export function checkStake(stake: string, min: string, max: string, balance: string | null): [string, Record<string, string>?] | null {
  const v = tiyn(stake);
  if (v === null || v <= 0n) return ['stakeInvalid'];
  if (v < tiyn(min)!) return ['stakeBelowMin', { min }];
  if (v > tiyn(max)!) return ['stakeAboveMax', { max }];
  if (balance !== null && v > tiyn(balance.replace('-', ''))! && !balance.startsWith('-')) return ['stakeAboveBalance'];
  if (balance?.startsWith('-')) return ['stakeAboveBalance'];
  return null;
}

/** Shape is how a market's selection is held: POSITION, CATEGORY or COUPON (markets.gen.ts). */
export type Shape = MarketRule['shape'];

/** shapeOf is market m's selection shape, as the server's registry declares it; undefined for a market this client does not know. */
export function shapeOf(m: string): Shape | undefined {
  return MARKETS.find((r) => r.name === m)?.shape;
}

/**
 * selectionOf writes the slip's pick as the @oneOf SelectionInput: the
 * market's own field (SELECTION_INPUTS, generated from the registry), its
 * value by the market's shape. A new market of an existing shape needs
 * nothing here.
 */
export function selectionOf(s: Slip): SelectionInput {
  // The field is the market's own and the value is its shape's type; the
  // @oneOf union type cannot be built with a computed key, hence the cast.
  const one = (value: number | HandCategory | ExpressInput) => ({ [SELECTION_INPUTS[s.market]]: value }) as unknown as SelectionInput;
  switch (shapeOf(s.market)) {
    case 'POSITION': return one(Number(s.pick[0]));
    case 'CATEGORY': return one(s.pick[0] as HandCategory);
    case 'COUPON': {
      const [flop, turn, river] = s.pick.map(Number);
      return one({ flop, turn, river });
    }
  }
  throw new Error(`market ${s.market} is not in markets.gen.ts`);
}

/** pickOf is what of the slip's pickers a market of shape sh bets: a position, a category or a coupon. */
export function pickOf(sh: Shape | undefined, pick: string[], cat: string): string[] {
  return sh === 'POSITION' ? [pick[0]] : sh === 'CATEGORY' ? [cat] : pick.slice(0, 3);
}

export async function placeBet(s: Slip) {
  const stake = fmtTiyn(tiyn(s.stake)!);
  const r = await gql<PlaceBetMutation>(PlaceBet, {
    input: { drawId: s.drawId, selection: selectionOf(s), stake, idempotencyKey: s.key },
  });
  const b = r.placeBet;
  // Kept as placed: its inclusion proof is later checked against this, not
  // against the bet as the server describes it then.
  recordPlaced(s.drawId, { id: b.id, round: b.round, market: b.market, selection: b.selection, stake: b.stake });
  return b;
}

/** myBets lists the player's latest bets (of one draw when drawId is given), newest first. */
export async function myBets(drawId?: string): Promise<MyBet[]> {
  return (await gql<MyBetsQuery>(MyBets, { drawId, first: 20 })).myBets.edges.map((e) => e.node);
}

const ROUND_NUMBER: Record<BettingRound, number> = { PRE_DEAL: 1, POCKET: 2, FLOP: 3, TURN: 4 };
/** V2_PREFIX is 'pokertote/bet/v2' in hex: a version-2 leaf's first bytes. */
const V2_PREFIX = Array.from('pokertote/bet/v2', (c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');

export interface BetProofVerdict { betId: string; round: BettingRound; ok: boolean | null; root: string | null; problem?: string }

/**
 * checkMyBetProofs fetches the inclusion proof of each of the player's bets
 * of a draw and checks it in the browser (verify/merkle.ts) from the bet as
 * the player knows it (id, round, market, selection, stake), against the
 * round's root the player saw (seenRoots, by round, from ROUND_CLOSED) when
 * given. ok is null for a bet whose round has not closed yet.
 */
export async function checkMyBetProofs(drawId: string, seenRoots: Partial<Record<BettingRound, string>> = {}): Promise<BetProofVerdict[]> {
  const bets = (await gql<MyBetProofsQuery>(MyBetProofs, { drawId })).myBets.edges.map((e) => e.node);
  return Promise.all(bets.map(async (b): Promise<BetProofVerdict> => {
    const p = b.inclusionProof;
    if (!p) return { betId: b.id, round: b.round, ok: null, root: null };
    const placed = placedOf(drawId, b.id);
    if (placed && (placed.round !== b.round || placed.market !== b.market || placed.selection !== b.selection || tiyn(placed.stake) !== tiyn(b.stake))) {
      return { betId: b.id, round: b.round, ok: false, root: p.root.root, problem: `placed as ${placed.market} ${placed.selection} ${placed.stake} in ${placed.round}, the server now says ${b.market} ${b.selection} ${b.stake} in ${b.round}` };
    }
    const stake = tiyn(placed?.stake ?? b.stake);
    if (stake === null) return { betId: b.id, round: b.round, ok: false, root: p.root.root, problem: `stake ${b.stake} is not an amount` };
    // A version-2 leaf (fair deal 4) hides the id behind its reference and
    // adds the time placed; the leaf's own bytes say which version it is.
    const version = p.leafBytes.startsWith(V2_PREFIX) ? 2 : 1;
    const v = await checkInclusion({ id: Number(b.id), round: ROUND_NUMBER[b.round], market: b.market, selection: b.selection, stake: Number(stake), version, placedAt: b.placedAt },
      { root: p.root.root, index: p.index, size: p.size, path: p.path }, seenRoots[b.round]);
    return { betId: b.id, round: b.round, ok: v.ok, root: p.root.root, problem: v.problem };
  }));
}

export type HistoryBet = MyBetsPageQuery['myBets']['edges'][number]['node'];

/** HistoryFilter narrows the bet history on the server; an empty field is no filter. */
export interface HistoryFilter { status: BetStatus | ''; market: Market | ''; table: string }

/**
 * betHistory reads a page of the player's bets across draws, newest first,
 * that pass the filter, and the cursor of the next page (null at the end).
 * The server filters before it pages, so the cursor continues the filtered
 * list: pass the same filter with it.
 */
export async function betHistory(first = 50, after?: string | null, f?: HistoryFilter): Promise<{ rows: HistoryBet[]; next: string | null }> {
  const c = (await gql<MyBetsPageQuery>(MyBetsPage, {
    first, after: after ?? null, status: f?.status || null, market: f?.market || null, tableId: f?.table || null,
  })).myBets;
  return { rows: c.edges.map((e) => e.node), next: c.pageInfo.hasNextPage ? c.pageInfo.endCursor ?? null : null };
}
