// The browser's check of suspended selections (SPEC 1.9): a selection whose
// exact chance of being paid reached the draw's suspendAt when its round
// opened takes no bet in that round. For the FLOP and TURN rounds the chances
// of every WIN position and COMBINATION category are recomputed here from the
// published cards by enumerating every remaining board; the POCKET round's
// enumeration (up to 1.7 million boards) is left to the Go verifier
// (cmd/verify-draw), and its published chances are checked for consistency.
// Either way, a pool that took a bet on a suspended selection fails the draw.
import { evaluate, categoryOf, CATEGORIES } from './fair';
import type { DrawResultJson, PoolResult } from './pools';

export interface SelectionChance { market: string; selection: string; paid: number; of: number }
export interface RoundChances { round: number; chances: SelectionChance[] }
export type SuspensionJson = DrawResultJson & { suspendAt?: number; chances?: RoundChances[] | null };

const parseCard = (s: string) => '23456789TJQKA'.indexOf(s[0]) * 4 + 'cdhs'.indexOf(s[1]);

/** atLeast is paid/of >= bp/10000, exactly (BigInt). */
export const atLeast = (c: SelectionChance, bp: number) => c.of > 0 && BigInt(c.paid) * 10000n >= BigInt(bp) * BigInt(c.of);

/** boardChances enumerates every completion of the board (3 or 4 cards). */
export function boardChances(pockets: number[][], board: number[]): SelectionChance[] {
  const used = new Set([...pockets.flat(), ...board]);
  const unseen: number[] = [];
  for (let c = 0; c < 52; c++) if (!used.has(c)) unseen.push(c);
  const win = pockets.map(() => 0);
  const cat = CATEGORIES.map(() => 0);
  let of = 0;
  const score = (full: number[]) => {
    of++;
    const vs = pockets.map((p) => evaluate([...p, ...full]));
    const best = Math.max(...vs);
    vs.forEach((v, i) => { if (v === best) win[i]++; });
    cat[CATEGORIES.indexOf(categoryOf(best))]++;
  };
  if (board.length === 4) for (const a of unseen) score([...board, a]);
  else for (let i = 0; i < unseen.length; i++) for (let j = i + 1; j < unseen.length; j++) score([...board, unseen[i], unseen[j]]);
  return [
    ...win.map((paid, i) => ({ market: 'WIN', selection: String(i + 1), paid, of })),
    ...cat.map((paid, i) => ({ market: 'COMBINATION', selection: CATEGORIES[i], paid, of })),
  ];
}

function backed(p: PoolResult): string[] {
  return [...(p.bets ?? []).map((b) => b.selection), ...(p.selections ?? []).filter((s) => s.numBets > 0).map((s) => s.selection)];
}

/** checkSuspension returns the problems of the result's suspended selections (none for results before SPEC 1.9). */
export function checkSuspension(r: SuspensionJson): { problems: string[]; notes: string[] } {
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
  const pockets = (r.pockets ?? []).map((p) => p.map(parseCard));
  const board = (r.board ?? []).map(parseCard);
  const published = new Map((r.chances ?? []).map((rc) => [rc.round, rc.chances]));
  const key = (c: SelectionChance) => `${c.market} ${c.selection} ${c.paid}/${c.of}`;
  const rounds: [number, number][] = [[2, 0], [3, 3], [4, 4]];
  for (const [round, n] of rounds) {
    const opened = pockets.length === r.positions && board.length >= n;
    const pub = published.get(round);
    if (!opened) {
      if (pub) problems.push(`suspension: chances published for round ${round}, which never opened`);
      continue;
    }
    if (!pub) { problems.push(`suspension: round ${round} opened but its chances are not published`); continue; }
    if (n > 0) {
      const want = boardChances(pockets, board.slice(0, n)).map(key).join(', ');
      const got = pub.filter((c) => c.market !== 'EXPRESS').map(key).join(', ');
      if (got !== want) problems.push(`suspension: round ${round}: published chances ${got}; the cards give ${want}`);
    } else {
      const cats = pub.filter((c) => c.market === 'COMBINATION');
      const of = cats[0]?.of ?? 0;
      const sum = cats.reduce((s, c) => s + c.paid, 0);
      if (cats.length !== CATEGORIES.length || sum !== of || pub.some((c) => c.paid < 0 || c.paid > c.of)) problems.push(`suspension: round ${round}: the published chances do not add up`);
      notes.push('the POCKET round\'s chances are recomputed by the Go verifier (cmd/verify-draw), not in the browser');
    }
    const suspended = new Set(pub.filter((c) => atLeast(c, at)).map((c) => `${c.market} ${c.selection}`));
    for (const p of r.pools ?? []) {
      if (Number(p.round) !== round) continue;
      for (const s of backed(p)) {
        if (suspended.has(`${p.market} ${s}`)) problems.push(`suspension: pool ${p.poolId} took a bet on ${p.market} ${s}, suspended in round ${round}`);
      }
    }
  }
  return { problems, notes };
}
