// The browser's own exact enumeration of a round's chances (SPEC 1.9), the
// same counts as the Go side's domain/odds (Compute, ComputeExpress,
// ExpressCanReach) and tote.ChancesAtOpening, written independently. How a
// market's chances are counted is its grading rule's (markets.gen.ts's
// GRADING, interpreted in ./grades.ts):
//
//   BOARDS         every selection; paid = the boards on which its grade pays
//                  it, read from one tally of the boards: the boards each
//                  position wins or ties (PLACED_WITHIN 1, WIN), each winning
//                  category (CATEGORY_IS, COMBINATION) and, when a market of
//                  the round reads places (PLACED_WITHIN n > 1), each
//                  position's place;
//                  of   = every completion of the board from the unseen cards:
//                         C(u,5) (POCKET), C(u,2) (FLOP), u (TURN)
//   COUPONS f-t-r  (POCKET only; COUPON_LEGS, EXPRESS) paid = ordered deals of
//                  flop, turn, river guessing at least 2 of 3:
//                  |FT| + |FR| + |TR| − 2|FTR|;
//                  of = C(u,4)·4·(u−4); listed only when at or above suspendAt,
//                  and only counted when half the sum of each prediction's own
//                  best chance reaches the line (no coupon can otherwise).
//
// Cards are numbers rank·4 + suit (ranks 2..A = 0..12). A hand's value is
// category·2^26 plus its order within the category, computed from the four
// suits' 13-bit rank masks, so that equal values tie exactly as the Go
// evaluator's do.

import { MARKETS, type MarketRule } from '../markets.gen';
import { gradingOf, gradingProblem, paidOnBoards, readsPlaces, selectionsOf, type BoardTally } from './grades';

export const CATEGORIES = ['HIGH_CARD', 'PAIR', 'TWO_PAIR', 'THREE_OF_A_KIND', 'STRAIGHT', 'FLUSH', 'FULL_HOUSE', 'FOUR_OF_A_KIND', 'STRAIGHT_FLUSH', 'ROYAL_FLUSH'];

export interface SelectionChance { market: string; selection: string; paid: number; of: number }

const POP = new Uint8Array(8192);
const HI = new Int8Array(8192); // highest rank held, −1 for none
const TOP2 = new Uint16Array(8192); // the two highest ranks held
const TOP3 = new Uint16Array(8192);
const TOP5 = new Uint16Array(8192);
const STRAIGHT = new Uint8Array(8192); // 1 + the top rank of the best straight, 0 for none
for (let m = 1; m < 8192; m++) {
  POP[m] = POP[m >> 1] + (m & 1);
  HI[m] = 31 - Math.clz32(m);
  const top = (k: number) => { let t = 0; for (let r = 12; r >= 0 && k > 0; r--) if (m & (1 << r)) { t |= 1 << r; k--; } return t; };
  TOP2[m] = top(2); TOP3[m] = top(3); TOP5[m] = top(5);
  for (let r = 12; r >= 4 && !STRAIGHT[m]; r--) if (((m >> (r - 4)) & 31) === 31) STRAIGHT[m] = r + 1;
  if (!STRAIGHT[m] && (m & 0x100f) === 0x100f) STRAIGHT[m] = 4; // A-2-3-4-5: five high
}
HI[0] = -1;

const CAT = 1 << 26;

/** rankValue scores 5 to 7 cards none of whose suits holds five (c, d, h, s: each suit's rank mask). */
function rankValue(c: number, d: number, h: number, s: number): number {
  const any = c | d | h | s;
  const cd = c & d;
  const hs = h & s;
  const four = cd & hs;
  if (four) return 7 * CAT + (HI[four] << 4) + HI[any & ~four];
  const three = (cd & (h | s)) | (hs & (c | d));
  const two = cd | hs | ((c | d) & (h | s));
  if (three) {
    const t = HI[three];
    const rest = two & ~(1 << t);
    if (rest) return 6 * CAT + (t << 4) + HI[rest];
  }
  const st = STRAIGHT[any];
  if (st) return 4 * CAT + st;
  if (three) { const t = HI[three]; return 3 * CAT + (t << 13) + TOP2[any & ~(1 << t)]; }
  if (two) {
    if (POP[two] >= 2) { const p = TOP2[two]; return 2 * CAT + (p << 13) + (1 << HI[any & ~p]); }
    return CAT + (HI[two] << 13) + TOP3[any & ~two];
  }
  return TOP5[any];
}

/** handValue scores the best five of 5 to 7 distinct cards given as rank masks per suit. */
export function handValue(c: number, d: number, h: number, s: number): number {
  const f = POP[c] >= 5 ? c : POP[d] >= 5 ? d : POP[h] >= 5 ? h : POP[s] >= 5 ? s : 0;
  if (!f) return rankValue(c, d, h, s);
  const st = STRAIGHT[f];
  if (st) return (st === 13 ? 9 : 8) * CAT + st;
  return 5 * CAT + TOP5[f];
}

/** valueOf scores the best five of 5 to 7 distinct cards. */
export function valueOf(cs: number[]): number {
  const m = [0, 0, 0, 0];
  for (const x of cs) m[x & 3] |= 1 << (x >> 2);
  return handValue(m[0], m[1], m[2], m[3]);
}

export const categoryOfValue = (v: number) => CATEGORIES[Math.floor(v / CAT)];

// A set of cards is two 32-bit words: clubs | diamonds << 16 and hearts |
// spades << 16, so that adding a card is two ORs and no branch.
const lo = (x: number) => ((x & 3) === 0 ? 1 << (x >> 2) : (x & 3) === 1 ? 1 << (16 + (x >> 2)) : 0);
const hi = (x: number) => ((x & 3) === 2 ? 1 << (x >> 2) : (x & 3) === 3 ? 1 << (16 + (x >> 2)) : 0);
const M = 0x1fff;

/** flushable: the board of a and b holds three cards of a suit, so a pocket may complete a flush. */
const flushable = (a: number, b: number) => POP[a & M] >= 3 || POP[a >>> 16] >= 3 || POP[b & M] >= 3 || POP[b >>> 16] >= 3;

/** A deal: the pockets' and the unseen cards' words. */
class Deal {
  readonly n: number;
  readonly pl: Int32Array; readonly ph: Int32Array; // pockets
  readonly ul: Int32Array; readonly uh: Int32Array; // unseen cards, ascending
  readonly bl: number; readonly bh: number; // the board so far
  best = 0; // the winning hand's value at the last winners()
  readonly vals: Float64Array; // each position's hand value at the last winners()
  constructor(pockets: number[][], board: number[]) {
    this.n = pockets.length;
    this.vals = new Float64Array(this.n);
    this.pl = Int32Array.from(pockets, (p) => lo(p[0]) | lo(p[1]));
    this.ph = Int32Array.from(pockets, (p) => hi(p[0]) | hi(p[1]));
    const used = new Set([...pockets.flat(), ...board]);
    const unseen = Array.from({ length: 52 }, (_, c) => c).filter((c) => !used.has(c));
    this.ul = Int32Array.from(unseen, lo);
    this.uh = Int32Array.from(unseen, hi);
    this.bl = board.reduce((a, x) => a | lo(x), 0);
    this.bh = board.reduce((a, x) => a | hi(x), 0);
  }

  /** winners is the set of positions holding the best hand with the board (a, b), bit p for position p; best is its value. */
  winners(a: number, b: number, flush: boolean): number {
    const { pl, ph, n, vals } = this;
    let best = -1;
    let won = 0;
    for (let i = 0; i < n; i++) {
      const x = a | pl[i];
      const y = b | ph[i];
      const v = flush ? handValue(x & M, x >>> 16, y & M, y >>> 16) : rankValue(x & M, x >>> 16, y & M, y >>> 16);
      vals[i] = v;
      if (v > best) { best = v; won = 1 << i; } else if (v === best) won |= 1 << i;
    }
    this.best = best;
    return won;
  }
}

/** pause yields to the page now and then, so that a long enumeration does not freeze it. */
export type Pause = () => Promise<void>;
export function timeSlicer(sliceMs = 30): Pause {
  let last = Date.now();
  return async () => {
    if (Date.now() - last < sliceMs) return;
    await new Promise((r) => setTimeout(r, 0));
    last = Date.now();
  };
}

/** Boards: the tally of every completion of the board, by winner set, by the winning category and (places, when asked) by each position's place: places[p·n + place − 1]. */
interface Boards { boards: number; winners: Float64Array; cats: Float64Array; places: Float64Array | null }

async function enumerateBoards(d: Deal, need: number, pause: Pause, places: boolean): Promise<Boards> {
  const n = d.n;
  const t: Boards = { boards: 0, winners: new Float64Array(1 << n), cats: new Float64Array(CATEGORIES.length), places: places ? new Float64Array(n * n) : null };
  const { ul, uh, vals } = d;
  const u = ul.length;
  const walk = (k: number, from: number, a: number, b: number) => {
    if (k === 0) {
      t.winners[d.winners(a, b, flushable(a, b))]++;
      t.cats[d.best >> 26]++;
      t.boards++;
      if (t.places) {
        for (let p = 0; p < n; p++) {
          let place = 0;
          for (let q = 0; q < n; q++) if (vals[q] > vals[p]) place++;
          t.places[p * n + place]++;
        }
      }
      return;
    }
    for (let i = from; i <= u - k; i++) walk(k - 1, i + 1, a | ul[i], b | uh[i]);
  };
  if (need === 0) walk(0, 0, d.bl, d.bh);
  for (let i = 0; need > 0 && i <= u - need; i++) {
    walk(need - 1, i + 1, d.bl | ul[i], d.bh | uh[i]);
    await pause();
  }
  return t;
}

/** winnersPaid is, per position, the boards of the tally on which it wins or ties. */
function winnersPaid(n: number, t: Boards): number[] {
  const paid = new Array<number>(n).fill(0);
  t.winners.forEach((k, set) => { for (let p = 0; p < n; p++) if (set & (1 << p)) paid[p] += k; });
  return paid;
}

const lowBit = (m: number) => 31 - Math.clz32(m & -m);

/**
 * expressCanReach is the Go side's cheap bound (odds.ExpressCanReach): a
 * coupon guessing two of three predictions has a chance of at most half the
 * sum of its predictions' chances, so of the best flop leader's, turn
 * leader's and river winner's. False means no coupon reaches bp. The float
 * arithmetic is the Go one's, operation for operation.
 */
async function expressCanReach(d: Deal, winPaid: number[], boards: number, bp: number, pause: Pause): Promise<boolean> {
  const { ul, uh, n } = d;
  const u = ul.length;
  const flop = new Float64Array(n);
  const turn = new Float64Array(n);
  let flops = 0;
  let turns = 0;
  for (let i = 0; i < u; i++) {
    for (let j = i + 1; j < u; j++) {
      for (let k = j + 1; k < u; k++) {
        const a = ul[i] | ul[j] | ul[k];
        const b = uh[i] | uh[j] | uh[k];
        flops++;
        for (let m = d.winners(a, b, true); m; m &= m - 1) flop[lowBit(m)]++;
        for (let l = k + 1; l < u; l++) {
          turns++;
          for (let m = d.winners(a | ul[l], b | uh[l], true); m; m &= m - 1) turn[lowBit(m)]++;
        }
      }
    }
    await pause();
  }
  const ratio = (x: number, y: number) => (y === 0 ? 0 : x / y);
  const best = [0, 0, 0];
  for (let p = 0; p < n; p++) {
    best[0] = Math.max(best[0], ratio(flop[p], flops));
    best[1] = Math.max(best[1], ratio(turn[p], turns));
    best[2] = Math.max(best[2], ratio(winPaid[p], boards));
  }
  return best[0] + best[1] + best[2] >= (2 * bp) / 10_000 - 1e-9;
}

/** Express holds the inclusion–exclusion counts of every coupon. */
interface Express { deals: number; ft: Float64Array; fr: Float64Array; tr: Float64Array; ftr: Float64Array }

/**
 * computeExpress counts every ordered deal of flop, turn and river from the
 * unseen cards. A deal is a four-card set Q (flop and turn) split into its
 * turn card and the flop, then a river outside Q: the leaders depend on Q's
 * splits, and the rivers each position wins with Q come from one walk over
 * the five-card boards, each adding its winners to its five four-card
 * subsets (numbered in the colexicographic order).
 */
async function computeExpress(d: Deal, pause: Pause): Promise<Express> {
  const { ul, uh, n } = d;
  const u = ul.length;
  const c1 = new Int32Array(u), c2 = new Int32Array(u), c3 = new Int32Array(u), c4 = new Int32Array(u);
  for (let i = 0; i < u; i++) { c1[i] = i; c2[i] = (i * (i - 1)) / 2; c3[i] = (i * (i - 1) * (i - 2)) / 6; c4[i] = (i * (i - 1) * (i - 2) * (i - 3)) / 24; }
  const sets = u < 4 ? 0 : (u * (u - 1) * (u - 2) * (u - 3)) / 24;
  const tab = new Int32Array(sets * n); // tab[q·n + p]: rivers p wins with the four-card set q
  const x: Express = { deals: 0, ft: new Float64Array(n * n), fr: new Float64Array(n * n), tr: new Float64Array(n * n), ftr: new Float64Array(n * n * n) };
  if (u < 5) return x;
  // The five four-card subsets of the board i<j<k<l<m are numbered
  // c1[·]+c2[·]+c3[·]+c4[·] of their cards; all but the one without m end
  // in c4[m], so their other terms are summed once per (i, j, k, l).
  for (let i = 0; i < u; i++) { c1[i] *= n; c2[i] *= n; c3[i] *= n; c4[i] *= n; }
  const rivers5 = (i: number) => {
    for (let j = i + 1; j < u; j++) {
      const aj = ul[i] | ul[j], bj = uh[i] | uh[j];
      for (let k = j + 1; k < u; k++) {
        const ak = aj | ul[k], bk = bj | uh[k];
        for (let l = k + 1; l < u; l++) {
          const al = ak | ul[l], bl = bk | uh[l];
          const r0 = c1[j] + c2[k] + c3[l], r1 = c1[i] + c2[k] + c3[l], r2 = c1[i] + c2[j] + c3[l], r3 = c1[i] + c2[j] + c3[k];
          const q4 = r3 + c4[l];
          for (let m = l + 1; m < u; m++) {
            const a = al | ul[m], b = bl | uh[m];
            const w = d.winners(a, b, flushable(a, b));
            const cm = c4[m];
            for (let mw = w; mw; mw &= mw - 1) {
              const p = lowBit(mw);
              tab[r0 + cm + p]++; tab[r1 + cm + p]++; tab[r2 + cm + p]++; tab[r3 + cm + p]++; tab[q4 + p]++;
            }
          }
        }
      }
    }
  };
  for (let i = 0; i <= u - 5; i++) { rivers5(i); await pause(); }
  const rivers = u - 4;
  const win = new Float64Array(n);
  const fa = new Int32Array(4), fb = new Int32Array(4);
  const sets4 = (i: number) => {
    for (let j = i + 1; j < u; j++) {
      for (let k = j + 1; k < u; k++) {
        for (let l = k + 1; l < u; l++) {
          const q = c1[i] + c2[j] + c3[k] + c4[l]; // already times n
          for (let p = 0; p < n; p++) win[p] = tab[q + p];
          const lt = d.winners(ul[i] | ul[j] | ul[k] | ul[l], uh[i] | uh[j] | uh[k] | uh[l], true);
          // The four flops of Q; the card left out is the turn.
          fa[0] = ul[j] | ul[k] | ul[l]; fa[1] = ul[i] | ul[k] | ul[l]; fa[2] = ul[i] | ul[j] | ul[l]; fa[3] = ul[i] | ul[j] | ul[k];
          fb[0] = uh[j] | uh[k] | uh[l]; fb[1] = uh[i] | uh[k] | uh[l]; fb[2] = uh[i] | uh[j] | uh[l]; fb[3] = uh[i] | uh[j] | uh[k];
          for (let s = 0; s < 4; s++) {
            x.deals += rivers;
            const lf = d.winners(fa[s], fb[s], true);
            for (let mf = lf; mf; mf &= mf - 1) {
              const f = lowBit(mf);
              for (let p = 0; p < n; p++) x.fr[f * n + p] += win[p];
              for (let mt = lt; mt; mt &= mt - 1) {
                const t = lowBit(mt);
                x.ft[f * n + t] += rivers;
                for (let p = 0; p < n; p++) x.ftr[(f * n + t) * n + p] += win[p];
              }
            }
            for (let mt = lt; mt; mt &= mt - 1) {
              const t = lowBit(mt);
              for (let p = 0; p < n; p++) x.tr[t * n + p] += win[p];
            }
          }
        }
      }
    }
  };
  for (let i = 0; i < u; i++) { sets4(i); await pause(); }
  return x;
}

/** The rounds after the deal, and the board each opens with. */
export const ROUND_POCKET = 2, ROUND_FLOP = 3, ROUND_TURN = 4;
const BOARD_AT: Record<number, number> = { [ROUND_POCKET]: 0, [ROUND_FLOP]: 3, [ROUND_TURN]: 4 };

/** atLeast is paid/of >= bp/10000, exactly. */
export const atLeast = (c: { paid: number; of: number }, bp: number) => c.of > 0 && BigInt(c.paid) * 10000n >= BigInt(bp) * BigInt(c.of);

/** What a market's chances are counted from: the deal, its boards' tally, the threshold. */
interface ChanceInput { m: MarketRule; d: Deal; t: Boards; at: number; pause: Pause }

/** tallyOf is the tally as a BOARDS rule reads it (./grades.ts). */
const tallyOf = (d: Deal, t: Boards): BoardTally => ({ n: d.n, boards: t.boards, winnersPaid: winnersPaid(d.n, t), cats: t.cats, places: t.places });

/**
 * CHANCES says, per way of counting (the server's GradeRule.Chances), which
 * chances a round opens with for a market: BOARDS, every selection paid on
 * the boards its grade pays; COUPONS, the coupons at or above the threshold
 * (paid on the ordered deals guessing two of three). A market whose rule
 * this verifier does not know fails the round.
 */
export const CHANCES: Record<string, (c: ChanceInput) => Promise<SelectionChance[]>> = {
  BOARDS: async ({ m, d, t }) => {
    const paid = paidOnBoards(m.name, tallyOf(d, t));
    return selectionsOf(m, d.n).map((selection, i) => ({ market: m.name, selection, paid: paid[i], of: t.boards }));
  },
  COUPONS: async ({ m, d, t, at, pause }) => {
    if (d.bl !== 0 || d.bh !== 0) throw new Error(`market ${m.name}: coupons are counted before the flop`);
    const out: SelectionChance[] = [];
    if (!(await expressCanReach(d, winnersPaid(d.n, t), t.boards, at, pause))) return out;
    const x = await computeExpress(d, pause);
    const n = d.n;
    for (let f = 0; f < n; f++) {
      for (let tt = 0; tt < n; tt++) {
        for (let r = 0; r < n; r++) {
          const c = { market: m.name, selection: `${f + 1}-${tt + 1}-${r + 1}`, paid: x.ft[f * n + tt] + x.fr[f * n + r] + x.tr[tt * n + r] - 2 * x.ftr[(f * n + tt) * n + r], of: x.deals };
          if (atLeast(c, at)) out.push(c);
        }
      }
    }
    return out;
  },
};

/**
 * chancesAtOpening is what round `round` opens with (tote.ChancesAtOpening):
 * each market offered in the round (markets.gen.ts, in the server's order)
 * adds its chances, counted as its rule says (CHANCES): every WIN position's
 * and COMBINATION category's chance and, in the POCKET round, every EXPRESS
 * coupon at or above `at` basis points. pockets are 2 to 10 positions' two cards; board
 * holds the cards dealt before the round (0, 3 or 4). Cards must be valid
 * and distinct.
 */
export async function chancesAtOpening(pockets: number[][], board: number[], round: number, at: number, pause: Pause = timeSlicer()): Promise<SelectionChance[]> {
  if (BOARD_AT[round] === undefined || board.length !== BOARD_AT[round]) throw new Error(`round ${round} opens with no chances computed from a board of ${board.length} cards`);
  const all = [...pockets.flat(), ...board];
  if (pockets.length < 2 || pockets.length > 10 || pockets.some((p) => p.length !== 2) || all.some((c) => !Number.isInteger(c) || c < 0 || c > 51) || new Set(all).size !== all.length) {
    throw new Error('the cards are not 2 to 10 pockets of valid, distinct cards');
  }
  const offered: MarketRule[] = MARKETS.filter((m) => (m.rounds as readonly number[]).includes(round));
  for (const m of offered) {
    const why = gradingProblem(m.name);
    if (why) throw new Error(`market ${m.name}: this verifier cannot count its chances: ${why}`);
  }
  const d = new Deal(pockets, board);
  const t = await enumerateBoards(d, 5 - board.length, pause, offered.some((m) => readsPlaces(m.name)));
  const out: SelectionChance[] = [];
  for (const m of offered) {
    const count = CHANCES[gradingOf(m.name)!.chances];
    out.push(...(await count({ m, d, t, at, pause })));
  }
  return out;
}
