// Every bet public (docs/fairness.md, section 11): a finished draw publishes
// each accepted bet as a leaf without identity, round by round in the order
// its root commits to them (GET /draws/{id}/leaves, NDJSON). verifyLeaves
// recomputes from the bets what the result only sums, as the Go verifier's
// CheckLeaves does: each round's root (folded one leaf at a time, as a
// compact range, so a large round needs no tree in memory), bet count and
// stakes; each selection's bets, stakes and exact payout (the sum of every
// bet's floor(stake × coef)); and that every bet is one the draw could take.
import { bytesToHex } from './fair';
import { publicLeafHash, type PublicLeaf } from './merkle';
import { gradeProblem, ruleOf, selectionProblem, selectionRates, type DrawResultJson, type SelectionRate } from './pools';
import type { Beacons } from './beacon';
import type { VoidDetail, BetRoot } from './commit';

type Full = DrawResultJson & { beacons?: Beacons; betRoots?: BetRoot[]; voidDetail?: VoidDetail };

const ROUND_NO: Record<string, number> = { PRE_DEAL: 1, POCKET: 2, FLOP: 3, TURN: 4 };
const MAX_LEAF_PROBLEMS = 20;

async function sha(...parts: Uint8Array[]): Promise<Uint8Array<ArrayBuffer>> {
  const n = parts.reduce((a, p) => a + p.length, 0);
  const buf = new Uint8Array(n);
  let o = 0;
  for (const p of parts) { buf.set(p, o); o += p.length; }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', buf));
}

/** Folder is a round's root folded one leaf at a time (RFC 6962, a compact range). */
class Folder {
  private stack: { size: number; hash: Uint8Array }[] = [];
  n = 0;
  stakes = 0;
  async add(hash: Uint8Array, stake: number) {
    this.n++;
    this.stakes += stake;
    let node = { size: 1, hash };
    while (this.stack.length && this.stack[this.stack.length - 1].size === node.size) {
      const left = this.stack.pop()!;
      node = { size: node.size * 2, hash: await sha(Uint8Array.of(1), left.hash, node.hash) };
    }
    this.stack.push(node);
  }
  async root(): Promise<string> {
    if (!this.stack.length) return bytesToHex(await sha());
    let acc = this.stack[this.stack.length - 1].hash;
    for (let i = this.stack.length - 2; i >= 0; i--) acc = await sha(Uint8Array.of(1), this.stack[i].hash, acc);
    return bytesToHex(acc);
  }
}

/** openAtVoid: round r was open when the draw was voided (its bets refunded, no root). */
function openAtVoid(r: Full, round: number): boolean {
  const v = r.voidDetail;
  if (!r.void || !v) return false;
  if (v.kind === 'ADMIN_BEFORE_DEAL') return round === 1;
  return (v.kind === 'BEACON_BEFORE_CLOSE' || v.kind === 'ROOT_LATE') && round === v.street;
}

/** leafProblem says why a leaf is no bet the draw could take, or null. */
function leafProblem(r: Full, l: PublicLeaf): string | null {
  const rounds: readonly number[] = ruleOf(l.market)?.rounds ?? [];
  if (!(l.round >= 1 && l.round <= 4) || !rounds.includes(l.round)) return `${l.market} is not offered in round ${l.round}`;
  const sel = selectionProblem(l.market, l.selection, r.positions);
  if (sel) return sel;
  if (!Number.isSafeInteger(l.stake) || l.stake <= 0) return `stake ${l.stake} is not a whole number of tiyn`;
  const b = r.beacons;
  if (!b || b.version < 4) return null;
  if (l.ref === undefined) return 'a fair deal 4 leaf carries a reference, not an id';
  const t = b.terms;
  if (t && (l.stake < t.minStake || l.stake > t.maxStake)) return `a stake of ${l.stake} tiyn is outside the draw's ${t.minStake} to ${t.maxStake}`;
  const at = Date.parse(l.placedAt ?? '');
  if (!(at < Date.parse(b.closesAt[l.round - 1]))) return `placed at ${l.placedAt}, not before round ${l.round} closed`;
  if (l.round > 1 && !(at >= b.chain.genesisUnixMs + (b.rounds[l.round - 2] - 1) * b.chain.periodMs)) return `placed at ${l.placedAt}, before the street it bets on was drawn`;
  return null;
}

/** verifyLeaves checks a result against its published leaves; it returns the problems found. */
export async function verifyLeaves(r: Full, leaves: Iterable<PublicLeaf> | AsyncIterable<PublicLeaf>): Promise<string[]> {
  const out: string[] = [];
  if ((r.version ?? 0) < 2) return ['leaves: a result before version 2 lists its bets itself'];
  const rates = new Map<string, SelectionRate>();
  // A pool of a market this verifier cannot grade is reported by verifyPools; its leaves by leafProblem.
  for (const p of r.pools ?? []) if (gradeProblem(r, p.market) === null) for (const [sel, rate] of selectionRates(r, p)) rates.set(`${ROUND_NO[p.round] ?? p.round}|${p.market}|${sel}`, rate);
  const folders = new Map<number, Folder>();
  const sums = new Map<string, { n: number; stakes: bigint; payout: bigint }>();
  let round = 0;
  let n = 0;
  let bad = 0;
  const leafBad = (m: string) => { if (++bad <= MAX_LEAF_PROBLEMS) out.push(`leaf ${n}: ${m}`); };
  for await (const l of leaves) {
    n++;
    if (l.round < round) leafBad(`of round ${l.round} after leaves of round ${round}: leaves come round by round`);
    round = Math.max(round, l.round);
    const h = await publicLeafHash(l);
    if (!h) { leafBad('it cannot be a leaf'); continue; }
    const why = leafProblem(r, l);
    if (why) leafBad(why);
    let f = folders.get(l.round);
    if (!f) { f = new Folder(); folders.set(l.round, f); }
    await f.add(h, l.stake);
    const k = `${l.round}|${l.market}|${l.selection}`;
    const s = sums.get(k) ?? { n: 0, stakes: 0n, payout: 0n };
    s.n++;
    s.stakes += BigInt(l.stake);
    const rate = rates.get(k);
    if (rate) s.payout += rate.refund ? BigInt(l.stake) : rate.coefs.reduce((a, c) => a + (BigInt(l.stake) * c) / 100n, 0n);
    sums.set(k, s);
  }
  if (bad > MAX_LEAF_PROBLEMS) out.push(`leaves: ${bad - MAX_LEAF_PROBLEMS} more leaves with problems`);
  const rooted = new Set<number>();
  for (const want of r.betRoots ?? []) {
    rooted.add(want.round);
    const f = folders.get(want.round) ?? new Folder();
    const root = await f.root();
    if (root !== want.root || f.n !== want.numBets || f.stakes !== want.stakes) out.push(`leaves of round ${want.round}: they fold to ${root} (${f.n} bets, ${f.stakes} tiyn), the published root is ${want.root} (${want.numBets} bets, ${want.stakes} tiyn)`);
  }
  for (const k of folders.keys()) if (!rooted.has(k) && !openAtVoid(r, k)) out.push(`leaves of round ${k}: the round has no published root`);
  const seen = new Set<string>();
  for (const p of r.pools ?? []) {
    for (const s of p.selections ?? []) {
      const k = `${ROUND_NO[p.round] ?? p.round}|${p.market}|${s.selection}`;
      seen.add(k);
      const got = sums.get(k);
      if (!got) out.push(`pool ${p.poolId}: selection ${s.selection} publishes ${s.numBets} bets, no leaf backs it`);
      else if (got.n !== s.numBets || got.stakes !== BigInt(s.stakes)) out.push(`pool ${p.poolId}: selection ${s.selection} publishes ${s.numBets} bets staking ${s.stakes}, its leaves ${got.n} staking ${got.stakes}`);
      else if (got.payout !== BigInt(s.payout)) out.push(`pool ${p.poolId}: selection ${s.selection} returned ${got.payout} by its leaves' payouts, published ${s.payout}`);
    }
  }
  for (const [k, s] of sums) if (!seen.has(k)) out.push(`leaves: ${s.n} bets on ${k}, which no pool publishes`);
  return out;
}
