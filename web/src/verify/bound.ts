// What binds a result to what players saw when the draw opened (issue 26,
// docs/fairness.md section 1.1): the commitment of fair deal 3 covers the
// server seed, the number of positions, the beacon chain, and every street's
// close time, beacon round and deadline; and each street's round is the
// first at least one full period after its close. A local chain's hash is
// recomputed from its key, genesis and period.
import { hexToBytes, sha256Hex } from './fair';
import type { Chain } from './beacon';

export const FAIR_BOUND = 3;
export const RESULT_BOUND = 4;
/** Fair deal 4 (result version 5) also commits to the draw's money settings and the beacon gap. */
export const FAIR_TERMS = 4;
export const RESULT_TERMS = 5;
/** The least a quicknet draw of fair deal 4 waits for a beacon before a void (SPEC 1.8). */
export const MIN_PRODUCTION_WAIT_MS = 10 * 60 * 1000;

/** Terms is every setting that moves money in a draw (tote.DrawTerms). */
export interface Terms { commission: number; expressShares: [number, number]; jackpotRate: number; jackpotEnabled: boolean; minStake: number; maxStake: number; suspendAt: number }
export interface CommittedBeacons { version: number; chain: Chain; closesAt: string[]; rounds: number[]; deadlines?: string[]; gapMs?: number; terms?: Terms }

/** termsProblems says what no draw's terms can be (tote.DrawTerms.Check). */
export function termsProblems(t: Terms): string[] {
  const out: string[] = [];
  const int = (x: unknown) => Number.isSafeInteger(x);
  if (!int(t.commission) || t.commission < 300 || t.commission > 10000) out.push(`terms: commission ${t.commission} basis points is outside 3.00% to 100%`);
  const [e1, e2] = t.expressShares ?? [];
  if (!int(e1) || !int(e2) || e1 < 0 || e2 < 0 || e1 + e2 !== 10000) out.push('terms: EXPRESS shares do not add up to 100%');
  if (t.jackpotRate !== 1) out.push(`terms: jackpot rate ${t.jackpotRate} basis points is not the rules' 0.01%`);
  if (typeof t.jackpotEnabled !== 'boolean') out.push('terms: jackpotEnabled is not true or false');
  if (!int(t.minStake) || !int(t.maxStake) || t.minStake < 10000 || t.maxStake < t.minStake || t.maxStake > 10_000_000_000) out.push(`terms: stakes ${t.minStake} to ${t.maxStake} tiyn are not within 100.00 to 100,000,000.00`);
  if (!int(t.suspendAt) || t.suspendAt < 5000 || t.suspendAt > 9000) out.push(`terms: SUSPEND_AT ${t.suspendAt} is outside 50% to 90%`);
  return out;
}

/** sameTerms: the result settled with exactly the terms the draw committed to. */
export function sameTerms(t: Terms, r: { commission?: number; expressShares?: number[]; jackpotRate?: number; jackpotEnabled?: boolean; minStake?: number; maxStake?: number; suspendAt?: number }): boolean {
  return t.commission === r.commission && t.expressShares?.[0] === r.expressShares?.[0] && t.expressShares?.[1] === r.expressShares?.[1] &&
    t.jackpotRate === r.jackpotRate && t.jackpotEnabled === (r.jackpotEnabled ?? false) && t.minStake === (r.minStake ?? 0) &&
    t.maxStake === (r.maxStake ?? 0) && t.suspendAt === (r.suspendAt ?? 0);
}

/** canonicalHex: exactly 2*size lower-case hex digits. */
export const canonicalHex = (s: unknown, size: number) => typeof s === 'string' && s.length === 2 * size && /^[0-9a-f]*$/.test(s);

const u64 = (v: number | bigint) => {
  const b = new Uint8Array(8);
  const n = typeof v === 'bigint' ? v : Number.isFinite(v) ? BigInt(Math.trunc(v)) : 0n;
  new DataView(b.buffer).setBigUint64(0, BigInt.asUintN(64, n), false);
  return b;
};
const ascii = (s: string) => new TextEncoder().encode(s);
const str = (s: string) => { const b = ascii(s); return [Uint8Array.of(b.length), b]; };

async function sha(parts: Uint8Array[]): Promise<string> {
  const n = parts.reduce((a, p) => a + p.length, 0);
  const buf = new Uint8Array(n);
  let o = 0;
  for (const p of parts) { buf.set(p, o); o += p.length; }
  return sha256Hex(buf);
}

/**
 * drawCommitment is the commitment a draw publishes when it opens: SHA-256 of
 * the server seed for fair deal 2 (and version 1), and from fair deal 3
 * SHA-256("pokertote/tote/commitment/v3" ‖ seed ‖ positions (1) ‖ len ‖ name ‖
 * chain hash (32) ‖ len ‖ scheme ‖ public key (96) ‖ genesisUnixMs (8) ‖
 * periodMs (8) ‖ per street: closesAt ms (8) ‖ round (8) ‖ deadline ms (8));
 * fair deal 4 tags "…/v4" and appends gapMs (8) ‖ commission ‖ EXPRESS shares
 * ‖ jackpot rate (8 each) ‖ jackpot enabled (1) ‖ min stake ‖ max stake ‖
 * SUSPEND_AT (8 each). null when the chain's hash or key is not hex of its
 * size, or fair deal 4 publishes no terms.
 */
export async function drawCommitment(seed: Uint8Array<ArrayBuffer>, positions: number, b?: CommittedBeacons | null): Promise<string | null> {
  if (!b || !(b.version >= FAIR_BOUND)) return sha256Hex(seed);
  const c = b.chain;
  const hash = hexToBytes(c?.hash ?? '');
  const pk = hexToBytes(c?.publicKey ?? '');
  if (!hash || hash.length !== 32 || !pk || pk.length !== 96) return null;
  const v4 = b.version >= FAIR_TERMS;
  if (v4 && !b.terms) return null;
  const parts: Uint8Array[] = [ascii(v4 ? 'pokertote/tote/commitment/v4' : 'pokertote/tote/commitment/v3'), seed, Uint8Array.of(positions), ...str(c.name ?? ''), hash, ...str(c.scheme ?? ''), pk, u64(c.genesisUnixMs), u64(c.periodMs)];
  for (let i = 0; i < 4; i++) parts.push(u64(Date.parse(b.closesAt?.[i] ?? '')), u64(b.rounds?.[i] ?? 0), u64(Date.parse(b.deadlines?.[i] ?? '')));
  const t = b.terms;
  if (v4 && t) {
    parts.push(u64(b.gapMs ?? 0), u64(t.commission), u64(t.expressShares?.[0] ?? 0), u64(t.expressShares?.[1] ?? 0), u64(t.jackpotRate), Uint8Array.of(t.jackpotEnabled ? 1 : 0),
      u64(t.minStake), u64(t.maxStake), u64(t.suspendAt));
  }
  return sha(parts);
}

/** roundFor is the round a betting round closing at t (Unix ms) commits to under fair-deal version v (gapMs from fair deal 4). */
export function roundFor(t: number, c: Pick<Chain, 'genesisUnixMs' | 'periodMs'>, v: number, gapMs = 0): number {
  const ms = v >= FAIR_TERMS ? t + gapMs - 1 : v >= FAIR_BOUND ? t + c.periodMs - 1 : t;
  return ms < c.genesisUnixMs ? 1 : Math.floor((ms - c.genesisUnixMs) / c.periodMs) + 2;
}

/** localChainHash: SHA-256("pokertote/local-beacon/v1" ‖ public key ‖ genesisUnixMs (8) ‖ periodMs (8)). */
export async function localChainHash(c: Chain): Promise<string | null> {
  const pk = hexToBytes(c.publicKey ?? '');
  if (!pk || pk.length !== 96) return null;
  return sha([ascii('pokertote/local-beacon/v1'), pk, u64(c.genesisUnixMs), u64(c.periodMs)]);
}

/** Recorded is what a player recorded while the draw ran, to check the result against. */
export interface Recorded {
  commitment?: string;
  rounds?: { round: number; closesAt?: string }[];
  roots?: { round: number; root: string; numBets: number; stakes: number; at?: string }[];
  /** Beacon rounds held with their signatures (recorded, or fetched from drand's record). */
  beacons?: { round: number; signature: string }[];
  /** Watching from DRAW_OPENED, the player saw the draw voided after this many betting rounds had closed. */
  closedRounds?: number;
}

/** checkRecorded compares a result with what the player recorded (tote.CheckRecordedRounds, CheckRecordedRoots). */
export function checkRecorded(r: { commitment?: string; beacons?: CommittedBeacons; betRoots?: { round: number; root: string; numBets: number; stakes: number }[] }, rec: Recorded): string[] {
  const out: string[] = [];
  if (rec.commitment && rec.commitment !== r.commitment) out.push(`commitment: published ${r.commitment}, recorded ${rec.commitment}`);
  (rec.rounds ?? []).slice(0, 4).forEach((w, i) => {
    if (!r.beacons) { out.push('beacon rounds: recorded, but the result publishes no beacons'); return; }
    if (r.beacons.rounds?.[i] !== w.round) out.push(`beacon round of street ${i + 1}: published ${r.beacons.rounds?.[i]}, recorded ${w.round}`);
    if (w.closesAt && Date.parse(w.closesAt) !== Date.parse(r.beacons.closesAt?.[i] ?? '')) out.push(`close of betting round ${i + 1}: published ${r.beacons.closesAt?.[i]}, recorded ${w.closesAt}`);
  });
  if (typeof rec.closedRounds === 'number') {
    const r2 = r as { void?: boolean; betRoots?: unknown[] };
    if (!r2.void) out.push(`the draw was seen voided after ${rec.closedRounds} betting rounds closed; the result is settled`);
    else if ((r2.betRoots ?? []).length !== rec.closedRounds) out.push(`bet roots: the draw was seen voided after ${rec.closedRounds} betting rounds closed; the result publishes ${(r2.betRoots ?? []).length} roots`);
  }
  for (const w of rec.roots ?? []) {
    const got = (r.betRoots ?? []).find((x) => x.round === w.round);
    if (!got) out.push(`bet root of round ${w.round}: recorded ${w.root}, the result publishes none`);
    else if (got.root !== w.root || got.numBets !== w.numBets || got.stakes !== w.stakes || (w.at !== undefined && Date.parse(w.at) !== Date.parse((got as { at?: string }).at ?? ''))) out.push(`bet root of round ${w.round}: published ${got.root} (${got.numBets} bets, ${got.stakes}), recorded ${w.root} (${w.numBets}, ${w.stakes})`);
  }
  return out;
}
