// The browser's check of suspended selections (SPEC 1.9): a selection whose
// exact chance of being paid reached the draw's suspendAt when its round
// opened takes no bet in that round. Every round that opened after the deal
// (POCKET once every pocket is published, FLOP with the flop, TURN with the
// turn) is recomputed here from the published cards by exact enumeration
// (./enumerate.ts: every WIN position and COMBINATION category, and in the
// POCKET round the EXPRESS coupons at or above the line); the published
// chances must equal the recomputed ones, and a pool that took a bet on a
// selection the recomputation suspends fails the draw.
import { atLeast, chancesAtOpening, timeSlicer, ROUND_POCKET, ROUND_FLOP, ROUND_TURN, type Pause, type SelectionChance } from './enumerate';
import type { DrawResultJson, PoolResult } from './pools';

export { atLeast, chancesAtOpening, type SelectionChance } from './enumerate';
export interface RoundChances { round: number; chances: SelectionChance[] }
export type SuspensionJson = DrawResultJson & { suspendAt?: number; chances?: RoundChances[] | null };

/** parseCard reads "Ah" as rank·4 + suit, or −1. */
export const parseCard = (s: string) => {
  const r = '23456789TJQKA'.indexOf(s?.[0] ?? '');
  const u = 'cdhs'.indexOf(s?.[1] ?? '');
  return s?.length === 2 && r >= 0 && u >= 0 ? r * 4 + u : -1;
};

function backed(p: PoolResult): string[] {
  return [...(p.bets ?? []).map((b) => b.selection), ...(p.selections ?? []).filter((s) => s.numBets > 0).map((s) => s.selection)];
}

const key = (c: SelectionChance | null) => `${c?.market} ${c?.selection} ${c?.paid}/${c?.of}`;

/**
 * checkSuspension returns the problems of the result's suspended selections
 * (none for results before SPEC 1.9). It yields to the page between slices
 * of the enumeration (pause), so a verifying page stays responsive.
 */
export async function checkSuspension(r: SuspensionJson, pause: Pause = timeSlicer()): Promise<{ problems: string[]; notes: string[] }> {
  const problems: string[] = [];
  const notes: string[] = [];
  if (!r.suspendAt && !(r.chances ?? []).length) {
    // Before version 3 a result predates suspension; from it on every result
    // is written with suspendAt, so one without it hides something.
    if ((r.version ?? 0) >= 3) problems.push(`suspension: a version-${r.version} result must publish suspendAt and the rounds' chances`);
    return { problems, notes };
  }
  const at = r.suspendAt ?? 0;
  if (at < 5000 || at > 9000) return { problems: [`suspension: suspendAt ${at / 100} % is outside 50 % to 90 %`], notes };
  const pockets = (r.pockets ?? []).map((p) => (p ?? []).map(parseCard));
  const board = (r.board ?? []).map(parseCard);
  const published = new Map((r.chances ?? []).filter((rc) => rc).map((rc) => [rc.round, rc.chances ?? []]));
  const rounds: [number, number][] = [[ROUND_POCKET, 0], [ROUND_FLOP, 3], [ROUND_TURN, 4]];
  for (const [round, n] of rounds) {
    const opened = pockets.length === r.positions && board.length >= n;
    const pub = published.get(round);
    if (!opened) {
      if (pub) problems.push(`suspension: chances published for round ${round}, which never opened`);
      continue;
    }
    if (!pub) { problems.push(`suspension: round ${round} opened but its chances are not published`); continue; }
    let want: SelectionChance[];
    try {
      want = await chancesAtOpening(pockets, board.slice(0, n), round, at, pause);
    } catch (e) {
      problems.push(`suspension: round ${round}: ${(e as Error).message}`);
      continue;
    }
    const w = want.map(key).join(', ');
    const g = pub.map(key).join(', ');
    if (g !== w) problems.push(`suspension: round ${round}: published chances ${g}; the cards give ${w}`);
    const suspended = new Set(want.filter((c) => atLeast(c, at)).map((c) => `${c.market} ${c.selection}`));
    for (const p of r.pools ?? []) {
      if (Number(p.round) !== round) continue;
      for (const s of backed(p)) {
        if (suspended.has(`${p.market} ${s}`)) problems.push(`suspension: pool ${p.poolId} took a bet on ${p.market} ${s}, suspended in round ${round}`);
      }
    }
  }
  for (const round of published.keys()) {
    if (!rounds.some(([x]) => x === round)) problems.push(`suspension: chances published for round ${round}, which has none`);
  }
  return { problems, notes };
}
