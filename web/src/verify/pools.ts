// An independent TypeScript recomputation of the totalizator's pool
// arithmetic (SPEC 1.5–1.6), in exact integer tiyn with BigInt:
//
//   G = Σ stakes; C = floor(G·commission/10000); J = floor(G·jackpotRate/10000) while enabled
//   N = G − C − J; coefficient = max(1.10, floor(100·fund/winningStakes)/100)
//   payout = floor(stake·coef/100); breakage = fund − paid (or top-up when negative)
//   no winning stake: every stake is refunded (NO_WINNER); a void draw refunds all
//   EXPRESS: fund1 = floor(N·share1/10000) for 3 of 3 (+ the jackpot while enabled),
//   fund2 = N − fund1 for 2 of 3; an unbacked fund1 rolls into the jackpot
//   (enabled) or into fund2 (disabled).
//
// A version-2 result (issue 8) publishes each pool's backed selections with
// their bets, stakes and payouts summed instead of every bet. Everything that
// depends on sums is recomputed exactly (the pool settled with one "bet" per
// selection staking its total gives the same cuts, funds and coefficients);
// a selection of n bets staking S in a category of coefficient k must return
// P with S·k/100 − n < P ≤ S·k/100 (each bet's floor loses less than 1), and
// the categories' paid, breakage and top-up follow from the selections'.
//
// What each market is (the rounds that offer it, how its selections are
// written, one category or EXPRESS's two, its grading rule) is read from
// ../markets.gen.ts, generated from the server's registry; how an outcome
// pays a selection is its rule's kind, interpreted in ./grades.ts. A market
// the registry does not declare or whose rule this verifier does not know is
// reported, never settled as another.
import { CATEGORIES } from './fair';
import { type MarketRule } from '../markets.gen';
import { gradingProblem, graderOf, placesOf, readsPlaces, ruleOf, selectionsOf, type Outcome } from './grades';

export { ruleOf } from './grades';

export interface ResultBet { id: number; selection: string; stake: number; payout: number; refund?: boolean }
export interface ResultSelection { selection: string; numBets: number; stakes: number; payout: number; cat2?: number; refund?: boolean; guessed?: number }
export interface ResultCategory { category: number; coef: number; paid: number; fund: number; jackpot?: number; stakes?: number; numBets?: number; breakage?: number; topUp?: number; rollover?: number }
/** Cat is a category recomputed: the fields of ResultCategory, exactly. */
interface Cat { category: number; fund: bigint; jackpot: bigint; stakes: bigint; numBets: number; coef: bigint; paid: bigint; breakage: bigint; topUp: bigint; rollover: bigint }
export interface PoolResult {
  poolId: string; round: string; market: string; numBets: number;
  gross: number; commission: number; jackpotContribution: number; net: number;
  paid: number; breakage: number; topUp: number; jackpotPaid: number; rollover: number;
  refunded: boolean; refunds: number; jackpotBefore: number; winning?: string[] | null;
  categories: ResultCategory[] | null; bets: ResultBet[] | null; selections?: ResultSelection[] | null;
}
export interface DrawResultJson {
  version?: number; drawId: number; positions: number; void?: boolean;
  pockets?: string[][]; board?: string[]; burns?: string[];
  winners?: number[]; category: string; flopLeaders?: number[]; turnLeaders?: number[];
  commission: number; jackpotEnabled: boolean; jackpotRate: number; expressShares: [number, number];
  jackpotBefore: number; jackpotAfter: number; pools: PoolResult[] | null;
  serverSeed: string; commitment: string; publicSeed?: string;
}

const MIN_COEF = 110n;
const B = (x: number | undefined) => BigInt(x ?? 0);

interface Settled {
  gross: bigint; commission: bigint; jc: bigint; net: bigint; paid: bigint; breakage: bigint; topUp: bigint;
  jackpotPaid: bigint; rollover: bigint; refunded: boolean; refunds: bigint; payouts: bigint[]; coefs: bigint[];
  // per category (1, 2): its fund and which bets are in it; guessed per EXPRESS bet
  funds: bigint[]; member: boolean[][]; guessed: number[];
  cats: Cat[]; winning: string[];
}

function share(fund: bigint, stakes: bigint[], wins: boolean[]) {
  let s = 0n;
  let n = 0;
  stakes.forEach((st, i) => { if (wins[i]) { s += st; n++; } });
  const pays = stakes.map(() => 0n);
  if (n === 0) return { coef: 0n, paid: 0n, breakage: 0n, topUp: 0n, pays, n, fund, wins, s };
  let coef = fund > 0n ? (fund * 100n) / s : 0n;
  if (coef < MIN_COEF) coef = MIN_COEF;
  let paid = 0n;
  stakes.forEach((st, i) => { if (wins[i]) { pays[i] = (st * coef) / 100n; paid += pays[i]; } });
  return { coef, paid, breakage: paid > fund ? 0n : fund - paid, topUp: paid > fund ? paid - fund : 0n, pays, n, fund, wins, s };
}

const outcomeOf = (r: DrawResultJson, market: string): Outcome => ({
  winners: new Set(r.winners ?? []), flop: new Set(r.flopLeaders ?? []), turn: new Set(r.turnLeaders ?? []), category: r.category,
  places: !r.void && readsPlaces(market) ? placesOf(r.pockets, r.board, r.positions) : null,
});

/**
 * gradeProblem says why this verifier cannot recompute a pool of the
 * market in result r, or null when it can: the market is unknown, its rule
 * is of no kind it knows (gradingProblem), or its rule reads every
 * position's final hand and r publishes no full deal to read them from.
 */
export function gradeProblem(r: DrawResultJson, market: string): string | null {
  const why = gradingProblem(market);
  if (why) return why;
  if (!r.void && readsPlaces(market) && !placesOf(r.pockets, r.board, r.positions)) return `${market} is graded by every position's final hand, and the result publishes no full deal`;
  return null;
}

/** winningOf lists a pool's winning selections as the server does: every selection of the table its grade puts in category 1, ascending. */
function winningOf(r: DrawResultJson, rule: MarketRule): string[] {
  if (r.void) return [];
  const o = outcomeOf(r, rule.name);
  const grade = graderOf(rule.name);
  return selectionsOf(rule, r.positions).filter((s) => grade(o, s).cat1);
}

/** settle recomputes one pool from its bets and the draw's outcome. */
/** SelectionRate is how one published selection's bets are paid: refunded, or floor(stake × coef / 100) of each category it is in. */
export interface SelectionRate { refund: boolean; coefs: bigint[] }

/** selectionRates recomputes the rate of every selection a version-2 pool publishes, by selection. */
export function selectionRates(r: DrawResultJson, p: PoolResult): Map<string, SelectionRate> {
  const sels = p.selections ?? [];
  const agg = settle(r, { ...p, bets: sels.map((x, i) => ({ id: i, selection: x.selection, stake: x.stakes, payout: 0 })) }, B(p.jackpotBefore));
  return new Map(sels.map((x, i) => [x.selection, { refund: agg.refunded, coefs: [0, 1].map((c) => (agg.member[c]?.[i] ? agg.coefs[c] : 0n)) }]));
}

/** settle recomputes one pool from its bets and the draw's outcome; it throws for a market gradeProblem reports. */
export function settle(r: DrawResultJson, p: PoolResult, jackpot: bigint): Settled {
  const why = gradeProblem(r, p.market);
  if (why) throw new Error(why);
  const rule = ruleOf(p.market)!;
  const bets = p.bets ?? [];
  const stakes = bets.map((b) => B(b.stake));
  const gross = stakes.reduce((a, b) => a + b, 0n);
  const out: Settled = { gross, commission: 0n, jc: 0n, net: gross, paid: 0n, breakage: 0n, topUp: 0n, jackpotPaid: 0n, rollover: 0n, refunded: false, refunds: 0n, payouts: stakes.map(() => 0n), coefs: [], funds: [], member: [], guessed: [], cats: [], winning: winningOf(r, rule) };
  const refund = () => { out.refunded = true; out.refunds = gross; out.payouts = stakes.slice(); out.net = gross; return out; };
  if (r.void) return refund();
  const o = outcomeOf(r, p.market);
  const grade = graderOf(p.market);
  const grades = bets.map((b) => grade(o, b.selection));
  const cuts = () => {
    out.commission = (gross * B(r.commission)) / 10000n;
    out.jc = r.jackpotEnabled ? (gross * B(r.jackpotRate)) / 10000n : 0n;
    out.net = gross - out.commission - out.jc;
  };
  const add = (c: ReturnType<typeof share>, jackpot = 0n, rollover = 0n) => {
    out.paid += c.paid; out.breakage += c.breakage; out.topUp += c.topUp; out.coefs.push(c.coef);
    out.funds.push(c.fund); out.member.push(c.wins);
    out.cats.push({ category: out.cats.length + 1, fund: c.fund, jackpot, stakes: c.s, numBets: c.n, coef: c.coef, paid: c.paid, breakage: c.breakage, topUp: c.topUp, rollover });
  };
  if (rule.scheme === 'SINGLE') {
    const wins = grades.map((g) => g.cat1);
    if (!wins.some(Boolean)) return refund();
    cuts();
    const c = share(out.net, stakes, wins);
    add(c);
    out.payouts = c.pays;
    return out;
  }
  // TWO_TIER (EXPRESS)
  out.guessed = grades.map((g) => g.guessed);
  const w1 = grades.map((g) => g.cat1);
  const w2 = grades.map((g) => g.cat2);
  if (!w2.some(Boolean)) return refund();
  cuts();
  let fund1 = (out.net * B(r.expressShares[0])) / 10000n;
  let fund2 = out.net - fund1;
  let pot = 0n;
  const backed1 = w1.some(Boolean);
  if (backed1 && r.jackpotEnabled) pot = jackpot;
  else if (!backed1 && r.jackpotEnabled) { out.rollover = fund1; fund1 = 0n; }
  else if (!backed1) { fund2 += fund1; fund1 = 0n; }
  const c1 = share(fund1 + pot, stakes, w1);
  out.jackpotPaid = pot;
  add(c1, pot, out.rollover);
  const c2 = share(fund2, stakes, w2);
  add(c2);
  out.payouts = stakes.map((_, i) => c1.pays[i] + c2.pays[i]);
  return out;
}

/** settleTotals recomputes a version-2 pool from its selections: the figures of the pool settled with one bet per
 * selection, with paid, breakage and top-up reckoned from the published selections, each checked against what its
 * stakes allow; problems are reported through bad. */
function settleTotals(r: DrawResultJson, p: PoolResult, jackpot: bigint, bad: (m: string) => void): Settled {
  const sels = p.selections ?? [];
  const agg = settle(r, { ...p, bets: sels.map((x, i) => ({ id: i, selection: x.selection, stake: x.stakes, payout: 0 })) }, jackpot);
  const paid = [0n, 0n];
  sels.forEach((x, i) => {
    const refund = agg.refunded;
    const guessed = !r.void ? agg.guessed[i] ?? 0 : 0;
    if (Boolean(x.refund) !== refund || (x.guessed ?? 0) !== guessed) bad(`selection ${x.selection} published refund ${Boolean(x.refund)} guessed ${x.guessed ?? 0}, recomputed ${refund} ${guessed}`);
    if (x.numBets < 1 || B(x.stakes) < B(x.numBets)) bad(`selection ${x.selection}: ${x.numBets} bets cannot stake ${x.stakes}`);
    if (refund) {
      if (B(x.payout) !== B(x.stakes) || B(x.cat2) !== 0n) bad(`selection ${x.selection} is refunded: published ${x.payout}, its stakes are ${x.stakes}`);
      return;
    }
    const parts = [B(x.payout) - B(x.cat2), B(x.cat2)];
    for (const c of [0, 1]) {
      const k = agg.member[c]?.[i] ? agg.coefs[c] : 0n;
      const exact = B(x.stakes) * k;
      const fits = k === 0n ? parts[c] === 0n : parts[c] >= 0n && parts[c] * 100n <= exact && (parts[c] + B(x.numBets)) * 100n > exact;
      if (!fits) bad(`selection ${x.selection}: ${x.numBets} bets staking ${x.stakes} cannot return ${parts[c]} at coefficient ${k} in category ${c + 1}`);
      if (k > 0n) paid[c] += parts[c];
    }
  });
  if (!agg.refunded) {
    agg.paid = 0n; agg.breakage = 0n; agg.topUp = 0n;
    agg.funds.forEach((fund, c) => {
      const backed = agg.member[c]?.some(Boolean);
      agg.paid += paid[c];
      if (backed && paid[c] > fund) agg.topUp += paid[c] - fund;
      else if (backed) agg.breakage += fund - paid[c];
      const cat = agg.cats[c];
      if (cat) {
        cat.numBets = sels.reduce((n, x, i) => n + (agg.member[c]?.[i] ? x.numBets : 0), 0);
        cat.paid = paid[c];
        cat.breakage = cat.numBets > 0 && paid[c] <= fund ? fund - paid[c] : 0n;
        cat.topUp = cat.numBets > 0 && paid[c] > fund ? paid[c] - fund : 0n;
      }
    });
  }
  return agg;
}

const POSITION = /^(?:[1-9]|10)$/;

/**
 * selectionProblem says why a published selection is not one its market
 * takes on a table of n positions, in the canonical form the server writes
 * (positions 1..n without leading zeros; a hand category by its name;
 * EXPRESS as flop-turn-winner), or null when it is one: by the market's
 * shape in markets.gen.ts. The Go verifier refuses the same
 * (parimutuel.ParseSelection and the table's size).
 */
export function selectionProblem(market: string, sel: string, n: number): string | null {
  const position = (x: string) => POSITION.test(x) && Number(x) <= n;
  const rule = ruleOf(market);
  if (!rule) return `unknown market ${market}`;
  switch (rule.shape) {
    case 'POSITION': return position(sel) ? null : `${market} selection "${sel}" is not a position 1 to ${n}`;
    case 'CATEGORY': return CATEGORIES.includes(sel) ? null : `${market} selection "${sel}" is not a hand category`;
    case 'COUPON': {
      const parts = sel.split('-');
      return parts.length === 3 && parts.every(position) ? null : `${market} selection "${sel}" is not flop-turn-winner positions 1 to ${n}`;
    }
  }
}

/** settingsProblems says what in a result's money settings no draw can have: a commission below 3.00%, negative rates, cuts that leave nothing, EXPRESS shares not adding up to 100%. */
export function settingsProblems(r: DrawResultJson): string[] {
  const out: string[] = [];
  const int = (x: unknown) => Number.isSafeInteger(x);
  const [s1, s2] = r.expressShares ?? [NaN, NaN];
  if (!int(r.commission) || r.commission < 300) out.push(`commission: ${r.commission} basis points, below the 3.00% a draw never goes under`);
  if (!int(r.jackpotRate) || r.jackpotRate < 0 || !int(s1) || !int(s2) || s1 < 0 || s2 < 0) out.push('settings: the jackpot rate and EXPRESS shares are non-negative whole basis points');
  else if (r.commission + r.jackpotRate >= 10000) out.push(`settings: commission ${r.commission} and jackpot ${r.jackpotRate} basis points leave nothing for the winners`);
  if (s1 + s2 !== 10000) out.push(`settings: EXPRESS shares ${s1} and ${s2} basis points do not add up to 100%`);
  return out;
}

/** verifyPools recomputes every pool and the jackpot chain; it returns the differences found. */
export function verifyPools(r: DrawResultJson): string[] {
  const problems: string[] = settingsProblems(r);
  let jackpot = B(r.jackpotBefore);
  for (const p of r.pools ?? []) {
    const id = `${p.round}/${p.market}`;
    for (const sel of [...(p.selections ?? []).map((x) => x.selection), ...(p.bets ?? []).map((b) => b.selection)]) {
      const why = selectionProblem(p.market, sel, r.positions);
      if (why) problems.push(`${id}: ${why}`);
    }
    if (!r.void && B(p.jackpotBefore) !== jackpot) problems.push(`${id}: jackpot before ${p.jackpotBefore}, expected ${jackpot}`);
    const why = gradeProblem(r, p.market);
    if (why) {
      problems.push(`${id}: ${why}: its pool is not recomputed`);
      continue;
    }
    const totals = (r.version ?? 0) >= 2;
    const s = totals ? settleTotals(r, p, B(p.jackpotBefore), (m) => problems.push(`${id}: ${m}`)) : settle(r, p, B(p.jackpotBefore));
    const cmp = (name: string, got: number | undefined, want: bigint) => {
      if (B(got) !== want) problems.push(`${id}: ${name} published ${got ?? 0}, recomputed ${want}`);
    };
    cmp('gross', p.gross, s.gross);
    cmp('commission', p.commission, s.commission);
    cmp('jackpot contribution', p.jackpotContribution, s.jc);
    cmp('net', p.net, s.net);
    cmp('paid', p.paid, s.paid);
    cmp('breakage', p.breakage, s.breakage);
    cmp('top-up', p.topUp, s.topUp);
    cmp('jackpot paid', p.jackpotPaid, s.jackpotPaid);
    cmp('rollover', p.rollover, s.rollover);
    cmp('refunds', p.refunds, s.refunds);
    if (Boolean(p.refunded) !== s.refunded) problems.push(`${id}: refunded published ${p.refunded}, recomputed ${s.refunded}`);
    const listed = totals ? (p.selections ?? []).reduce((a, x) => a + x.numBets, 0) : (p.bets ?? []).length;
    if (listed !== p.numBets) problems.push(`${id}: ${p.numBets} bets published, ${listed} listed`);
    if (totals && (p.bets ?? []).length > 0) problems.push(`${id}: a version-2 result lists bets`);
    if (totals && (p.selections ?? []).some((x, i, all) => i > 0 && !(all[i - 1].selection < x.selection))) problems.push(`${id}: selections are not in strictly ascending order`);
    const cats = s.refunded ? [] : s.cats;
    const pc = p.categories ?? [];
    if (pc.length !== cats.length) problems.push(`${id}: ${pc.length} categories published, ${cats.length} recomputed`);
    pc.forEach((c, i) => {
      const w = cats[i];
      if (!w) return;
      for (const k of ['fund', 'jackpot', 'stakes', 'coef', 'paid', 'breakage', 'topUp', 'rollover'] as const) {
        if (B(c[k]) !== w[k]) problems.push(`${id}: category ${w.category} ${k} published ${c[k] ?? 0}, recomputed ${w[k]}`);
      }
      if (c.category !== w.category || (c.numBets ?? 0) !== w.numBets) problems.push(`${id}: category ${c.category} with ${c.numBets ?? 0} bets published, recomputed category ${w.category} with ${w.numBets}`);
    });
    if (JSON.stringify(p.winning ?? []) !== JSON.stringify(s.winning)) problems.push(`${id}: winning selections published ${JSON.stringify(p.winning ?? [])}, recomputed ${JSON.stringify(s.winning)}`);
    (p.bets ?? []).forEach((b, i) => {
      if (B(b.payout) !== s.payouts[i]) problems.push(`${id}: bet ${b.id} (${b.selection}, ${b.stake}) published payout ${b.payout ?? 0}, recomputed ${s.payouts[i]}`);
    });
    jackpot += s.jc + s.rollover - s.jackpotPaid;
  }
  if (!r.void && jackpot !== B(r.jackpotAfter)) problems.push(`jackpot after: published ${r.jackpotAfter}, recomputed ${jackpot}`);
  return problems;
}
