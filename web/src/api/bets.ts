// The bet adapter: builds PlaceBetInput from a slip (the one place that knows
// how a selection is written: today a string, "3", "FLUSH", "2-5-5"), checks a
// stake before it is sent, and lists my bets.
import { gql } from './client';
import { PlaceBet, MyBets } from './ops';
import type { PlaceBetMutation, MyBetsQuery, Market, BettingRound, SelectionInput, HandCategory } from '../gql/graphql';

export type MyBet = MyBetsQuery['myBets']['edges'][number]['node'];


export interface Slip {
  drawId: string;
  market: Market;
  /** WIN: [position]; COMBINATION: [category]; EXPRESS: [flop, turn, river]. */
  pick: string[];
  stake: string;
  /** One key per slip: retries and double clicks send the same key, so the server bets once. */
  key: string;
}

/** marketsIn lists the markets a round offers (EXPRESS only before the flop). */
export function marketsIn(round: BettingRound | null | undefined): Market[] {
  if (!round) return [];
  return round === 'PRE_DEAL' || round === 'POCKET' ? ['WIN', 'COMBINATION', 'EXPRESS'] : ['WIN', 'COMBINATION'];
}

/** tiyn parses "150", "150.5" or "150.50" into tiyn, or null. */
export function tiyn(s: string): bigint | null {
  const m = /^(\d{1,12})(?:[.,](\d{1,2}))?$/.exec(s.trim());
  if (!m) return null;
  return BigInt(m[1]) * 100n + BigInt((m[2] ?? '').padEnd(2, '0') || '0');
}

export const fmtTiyn = (v: bigint) => `${v / 100n}.${String(v % 100n).padStart(2, '0')}`;

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

/** selectionOf writes the slip's pick as the @oneOf SelectionInput (its field names the market). */
export function selectionOf(s: Slip): SelectionInput {
  if (s.market === 'WIN') return { position: Number(s.pick[0]) };
  if (s.market === 'COMBINATION') return { combination: s.pick[0] as HandCategory };
  const [flop, turn, river] = s.pick.map(Number);
  return { express: { flop, turn, river } };
}

export async function placeBet(s: Slip) {
  const stake = fmtTiyn(tiyn(s.stake)!);
  const r = await gql<PlaceBetMutation>(PlaceBet, {
    input: { drawId: s.drawId, selection: selectionOf(s), stake, idempotencyKey: s.key },
  });
  return r.placeBet;
}

/** myBets lists the player's latest bets (of one draw when drawId is given), newest first. */
export async function myBets(drawId?: string): Promise<MyBet[]> {
  return (await gql<MyBetsQuery>(MyBets, { drawId, first: 20 })).myBets.edges.map((e) => e.node);
}
