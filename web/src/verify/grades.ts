// How an outcome pays a selection, for each kind of grading rule the
// server's registry declares (parimutuel.GradeRule), written independently
// of the Go code. markets.gen.ts's GRADING gives every market its rule's
// kind and parameters; this file interprets each kind once:
//
//   PLACED_WITHIN n  a POSITION placed 1..n after the river; a position's
//                    place is 1 + the positions with a strictly better final
//                    hand (ties share a place, each counts in full). n = 1 is
//                    the published winners (WIN); more, every final hand
//                    recomputed from the published cards (TOP_TWO: n = 2).
//   CATEGORY_IS      a CATEGORY equal to the winning hand's (COMBINATION).
//   COUPON_LEGS a, b a COUPON "f-t-r" of flop leader, turn leader and river
//                    winner: category 1 from a legs guessed, category 2 from b
//                    (0: none); the legs guessed are published (EXPRESS: 3, 2).
//
// and how a round's chances of a market of that kind are counted: BOARDS
// (every selection, paid on the completions of the board its grade pays:
// PLACED_WITHIN and CATEGORY_IS, from the board tally of ./enumerate.ts) or
// COUPONS (EXPRESS's coupons reaching the threshold, ./enumerate.ts). A market
// whose kind, parameters or chances this file does not know is reported by
// gradingProblem and never graded as another.
import { CATEGORIES, evaluate } from './fair';
import { MARKETS, GRADING, type Grading, type MarketRule } from '../markets.gen';

/** Outcome is what a draw decided, as the grades read it: places[p-1] is position p's place after the river, when known. */
export interface Outcome { winners: Set<number>; flop: Set<number>; turn: Set<number>; category: string; places: number[] | null }
/** Grade is how an outcome pays one selection: the categories it wins in (cat2: TWO_TIER only) and the guessed count published with it. */
export interface Grade { cat1: boolean; cat2: boolean; guessed: number }

/**
 * BoardTally is what enumerating every completion of the board counts, as a
 * BOARDS rule reads it: the boards; per position (index p-1) the boards it
 * wins or ties; per category (CATEGORIES' order) the boards whose winning
 * hand has it; and, when some market of the round reads places, per
 * position and place the boards on which it has that place
 * (places[(p-1)·n + place-1]).
 */
export interface BoardTally { n: number; boards: number; winnersPaid: number[]; cats: ArrayLike<number>; places: Float64Array | null }

/** Kind is one kind of rule, interpreted. */
interface Kind {
  shape: MarketRule['shape'];
  chances: 'BOARDS' | 'COUPONS';
  /** why the parameters are none of this kind's, or null */
  check(g: Grading, scheme: MarketRule['scheme']): string | null;
  /** whether grading reads every position's final place (not only the published outcome) */
  readsPlaces(g: Grading): boolean;
  grade(g: Grading, o: Outcome, sel: string): Grade;
  /** per selection (selectionsOf's order), the boards of the tally on which it is paid: BOARDS rules only */
  paidOnBoards?(g: Grading, t: BoardTally): number[];
}

const int = (x: unknown, lo: number, hi: number) => Number.isInteger(x) && (x as number) >= lo && (x as number) <= hi;
const single = (g: Grading) => (g.cat1Legs ?? 0) === 0 && (g.cat2Legs ?? 0) === 0;

const KINDS: Record<string, Kind> = {
  PLACED_WITHIN: {
    shape: 'POSITION',
    chances: 'BOARDS',
    check: (g, scheme) => (int(g.within, 1, 10) && single(g) && scheme === 'SINGLE' ? null : `PLACED_WITHIN ${g.within} of scheme ${scheme}: a SINGLE market paying places 1 to 1..10`),
    readsPlaces: (g) => g.within !== 1,
    grade: (g, o, sel) => {
      const p = Number(sel);
      if (g.within === 1) return { cat1: o.winners.has(p), cat2: false, guessed: 0 };
      const place = o.places?.[p - 1] ?? 0;
      return { cat1: place >= 1 && place <= g.within!, cat2: false, guessed: 0 };
    },
    paidOnBoards: (g, t) => {
      if (g.within === 1) return t.winnersPaid.slice();
      const places = t.places;
      if (!places) throw new Error('the board tally counts no places');
      return Array.from({ length: t.n }, (_, p) => {
        let k = 0;
        for (let i = 0; i < g.within! && i < t.n; i++) k += places[p * t.n + i];
        return k;
      });
    },
  },
  CATEGORY_IS: {
    shape: 'CATEGORY',
    chances: 'BOARDS',
    check: (g, scheme) => (g.within === undefined && single(g) && scheme === 'SINGLE' ? null : 'CATEGORY_IS takes no parameters and is SINGLE'),
    readsPlaces: () => false,
    grade: (_, o, sel) => ({ cat1: sel === o.category, cat2: false, guessed: 0 }),
    paidOnBoards: (_, t) => CATEGORIES.map((_, c) => t.cats[c]),
  },
  COUPON_LEGS: {
    shape: 'COUPON',
    chances: 'COUPONS',
    check: (g, scheme) => {
      const a = g.cat1Legs;
      const b = g.cat2Legs ?? 0;
      if (g.within !== undefined || !int(a, 1, 3) || !int(b, 0, 3)) return `COUPON_LEGS ${a}, ${b}: categories from 1 to 3 legs guessed`;
      if ((scheme === 'TWO_TIER') !== b > 0 || (b > 0 && b > a!)) return `COUPON_LEGS ${a}, ${b} of scheme ${scheme}: a second category is TWO_TIER's, from fewer legs than the first`;
      // The coupon enumeration counts the deals guessing at least two legs.
      return (b > 0 ? b : a) === 2 ? null : `COUPON_LEGS ${a}, ${b}: a coupon's chances are counted from 2 legs guessed`;
    },
    readsPlaces: () => false,
    grade: (g, o, sel) => {
      const [f, t, w] = sel.split('-').map(Number);
      const n = (o.flop.has(f) ? 1 : 0) + (o.turn.has(t) ? 1 : 0) + (o.winners.has(w) ? 1 : 0);
      const b = g.cat2Legs ?? 0;
      return { cat1: n >= g.cat1Legs!, cat2: b > 0 && n >= b, guessed: n };
    },
  },
};

/** ruleOf is the market's rule as the server's registry declares it, or undefined for a market it does not know. */
export function ruleOf(market: string): MarketRule | undefined {
  return MARKETS.find((m) => m.name === market);
}

/** gradingOf is the market's grading rule, or undefined. */
export const gradingOf = (market: string): Grading | undefined => (GRADING as Readonly<Record<string, Grading | undefined>>)[market];

/**
 * gradingProblem says why this verifier cannot grade a market, or null
 * when it can: a market the registry does not declare, a rule of a kind it
 * does not know, parameters none of its kind's, or a rule that does not fit
 * the market's shape, scheme or way of counting chances.
 */
export function gradingProblem(market: string): string | null {
  const rule = ruleOf(market);
  if (!rule) return `unknown market ${market}`;
  const g = gradingOf(market);
  const k = g && Object.prototype.hasOwnProperty.call(KINDS, g.kind) ? KINDS[g.kind] : undefined;
  if (!g || !k) return `this verifier does not know how ${market} pays (grading rule ${g?.kind ?? 'none'})`;
  if (k.shape !== rule.shape) return `${market}: a ${g.kind} rule grades ${k.shape} selections, not ${rule.shape}`;
  if (k.chances !== g.chances) return `${market}: a ${g.kind} rule counts its chances by ${k.chances}, not ${g.chances}`;
  const why = k.check(g, rule.scheme);
  return why ? `${market}: ${why}` : null;
}

/** kindOf is the market's rule and its kind interpreted; it throws for a market gradingProblem reports. */
function kindOf(market: string): { g: Grading; k: Kind } {
  const why = gradingProblem(market);
  if (why) throw new Error(why);
  const g = gradingOf(market)!;
  return { g, k: KINDS[g.kind] };
}

/** readsPlaces reports whether grading the market reads every position's place after the river. */
export const readsPlaces = (market: string) => {
  const { g, k } = kindOf(market);
  return k.readsPlaces(g);
};

/** graderOf is how the market's rule pays a selection; it throws for a market gradingProblem reports. */
export function graderOf(market: string): (o: Outcome, sel: string) => Grade {
  const { g, k } = kindOf(market);
  return (o, sel) => k.grade(g, o, sel);
}

/** paidOnBoards is, per selection of a BOARDS market (selectionsOf's order), the boards of the tally on which its grade pays it. */
export function paidOnBoards(market: string, t: BoardTally): number[] {
  const { g, k } = kindOf(market);
  if (!k.paidOnBoards) throw new Error(`${market}: a ${g.kind} rule is not counted over the boards`);
  return k.paidOnBoards(g, t);
}

/** selectionsOf lists every selection of a shape on a table of n positions, ascending, as the server writes them. */
export function selectionsOf(rule: MarketRule, n: number): string[] {
  const ps = Array.from({ length: n }, (_, i) => String(i + 1));
  switch (rule.shape) {
    case 'POSITION': return ps;
    case 'CATEGORY': return CATEGORIES.slice();
    case 'COUPON': return ps.flatMap((f) => ps.flatMap((t) => ps.map((w) => `${f}-${t}-${w}`)));
  }
}

const card = (s: string) => {
  const r = '23456789TJQKA'.indexOf(s?.[0] ?? '');
  const u = 'cdhs'.indexOf(s?.[1] ?? '');
  return s?.length === 2 && r >= 0 && u >= 0 ? r * 4 + u : -1;
};

/**
 * placesOf is every position's place after the river (index p-1) from a
 * result's published pockets and board, or null when they are not the n
 * pockets and five cards of a dealt draw. (That they are the dealt cards
 * is the card check's.)
 */
export function placesOf(pockets: string[][] | undefined, board: string[] | undefined, n: number): number[] | null {
  if ((pockets ?? []).length !== n || (board ?? []).length !== 5) return null;
  const b = board!.map(card);
  const hands = pockets!.map((p) => (p ?? []).map(card));
  if (b.some((c) => c < 0) || hands.some((h) => h.length !== 2 || h.some((c) => c < 0))) return null;
  const values = hands.map((h) => evaluate([...h, ...b]));
  return values.map((v) => 1 + values.filter((w) => w > v).length);
}
