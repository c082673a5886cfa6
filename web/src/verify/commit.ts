// Checks of a version-3 result (issue 26, docs/fairness.md sections 6 and
// 11), as domain/tote/verify/verify_void.go and bet_roots.go make them: the void's
// structured cause against the committed times, and each closed round's
// bet root against the round's pools.
import type { DrawResultJson } from './pools';

export interface VoidDetail { kind: string; at: string; street?: number; round?: number; deadline?: string; signature?: string; why?: string }
export interface BetRoot { round: number; root: string; numBets: number; stakes: number; at?: string }
interface V3 { voidReason?: string; voidDetail?: VoidDetail; betRoots?: BetRoot[]; hands?: unknown[]; beacons?: { closesAt: string[]; rounds: number[]; deadlines?: string[]; signatures?: string[]; chain?: { genesisUnixMs: number; periodMs: number } } }

const STREETS = ['pockets', 'flop', 'turn', 'river'];
const ms = (s?: string) => (s ? Date.parse(s) : NaN);
/** fmt writes a time as the Go verifier does: 2006-01-02T15:04:05.000Z. */
const fmt = (s?: string) => (s ? new Date(Date.parse(s)).toISOString() : '');

/** voidReason is the reason written from a cause (tote.VoidDetail.Reason). */
export function voidReason(v: VoidDetail): string {
  if (v.kind === 'ADMIN_BEFORE_DEAL') return `voided by an admin before betting round 1 closed: ${v.why ?? ''}`;
  if (v.kind === 'BEACON_MISSING') return `beacon failure: round ${v.round ?? 0} (the ${STREETS[(v.street ?? 0) - 1] ?? `street ${v.street}`}) was not available by ${fmt(v.deadline)} (${v.why ?? ''}); every stake is refunded`;
  if (v.kind === 'BEACON_BEFORE_CLOSE') return `beacon early: round ${v.round ?? 0} (the ${STREETS[(v.street ?? 0) - 1] ?? `street ${v.street}`}) was already published when betting round ${v.street ?? 0} closed at ${fmt(v.at)}; every stake is refunded`;
  if (v.kind === 'ROOT_LATE') return `bet root late: betting round ${v.street ?? 0} closed at ${fmt(v.at)}, once round ${v.round ?? 0} (the ${STREETS[(v.street ?? 0) - 1] ?? `street ${v.street}`}) was due; every stake is refunded`;
  return `${v.kind}: ${v.why ?? ''}`;
}

/** verifyCommitted lists the problems of a version-3 result's void and bet roots; [] before version 3. */
export function verifyCommitted(r: DrawResultJson & V3): string[] {
  const out: string[] = [];
  if ((r.version ?? 0) < 3) return out;
  const b = r.beacons;
  let closed = 4;
  let openRound = 0; // a round open when the draw was voided: its bets refunded, no root
  if (r.void) {
    const v = r.voidDetail;
    if (!v) return ['void: a version-3 void publishes its cause (voidDetail)'];
    if (r.voidReason !== voidReason(v)) out.push(`void: the reason ${JSON.stringify(r.voidReason)} is not the one its cause gives`);
    if ((r.hands ?? []).length || (r.winners ?? []).length) out.push('void: a void draw publishes no hands or winners');
    if (r.jackpotAfter !== r.jackpotBefore) out.push('void: the jackpot moved');
    for (const p of r.pools ?? []) if (p.jackpotBefore !== r.jackpotBefore) out.push(`void: pool ${p.poolId} publishes another jackpot`);
    const fetched = (b?.signatures ?? []).findIndex((s) => !s);
    const nFetched = fetched < 0 ? (b?.signatures ?? []).length : fetched;
    if (!b) out.push('void: no beacons');
    else if (v.kind === 'ADMIN_BEFORE_DEAL') {
      closed = 0;
      openRound = 1;
      if (!(ms(v.at) < ms(b.closesAt[0]))) out.push('void: an admin void not before betting round 1 closed');
      if (nFetched > 0 || (r.pockets ?? []).length || (r.board ?? []).length || (r.burns ?? []).length) out.push('void: an admin void before the deal with beacons or cards');
    } else if (v.kind === 'BEACON_MISSING') {
      const s = v.street ?? 0;
      closed = s;
      if (s < 1 || s > 4) out.push(`void: a missing beacon of street ${s}`);
      else {
        if (v.round !== b.rounds[s - 1]) out.push(`void: the ${STREETS[s - 1]}'s committed round is ${b.rounds[s - 1]}, the void names ${v.round}`);
        if (ms(v.deadline) !== ms(b.deadlines?.[s - 1])) out.push(`void: the ${STREETS[s - 1]}'s deadline is not the committed one`);
        if (!(ms(v.at) > ms(b.deadlines?.[s - 1]))) out.push('void: voided before the deadline');
        if (nFetched !== s - 1) out.push(`void: ${nFetched} streets have signatures, want ${s - 1}`);
      }
    } else if (v.kind === 'BEACON_BEFORE_CLOSE' && (r.version ?? 0) >= 4) {
      const s = v.street ?? 0;
      closed = Math.max(s - 1, 0);
      openRound = s;
      if (s < 1 || s > 4) out.push(`void: an early beacon of street ${s}`);
      else {
        if (v.round !== b.rounds[s - 1]) out.push(`void: the ${STREETS[s - 1]}'s committed round is ${b.rounds[s - 1]}, the void names ${v.round}`);
        if (v.deadline) out.push('void: an early beacon names no deadline');
        if (ms(v.at) < ms(b.closesAt[s - 1])) out.push(`void: voided before betting round ${s} closed`);
        const due = b.chain ? b.chain.genesisUnixMs + ((v.round ?? 0) - 1) * b.chain.periodMs : NaN;
        if (!(ms(v.at) < due)) out.push(`void: voided at ${v.at}, not before round ${v.round} was due: a round published by then is not early`);
        if (nFetched !== s - 1) out.push(`void: ${nFetched} streets have signatures, want ${s - 1}`);
        // The round's signature itself is verified by verifyDraw (BLS is asynchronous).
      }
    } else if (v.kind === 'ROOT_LATE' && (r.version ?? 0) >= 5) {
      const s = v.street ?? 0;
      closed = Math.max(s - 1, 0);
      openRound = s;
      if (s < 1 || s > 4) out.push(`void: a late root of street ${s}`);
      else {
        if (v.round !== b.rounds[s - 1]) out.push(`void: the ${STREETS[s - 1]}'s committed round is ${b.rounds[s - 1]}, the void names ${v.round}`);
        if (v.deadline || v.signature) out.push('void: a late root names no deadline or signature');
        const due = b.chain ? b.chain.genesisUnixMs + ((v.round ?? 0) - 1) * b.chain.periodMs : NaN;
        if (!(ms(v.at) >= due)) out.push(`void: voided at ${v.at}, before round ${v.round} was due: the root could still have been published in time`);
        if (nFetched !== s - 1) out.push(`void: ${nFetched} streets have signatures, want ${s - 1}`);
      }
    } else out.push(`void: unknown cause ${v.kind}`);
  } else if (r.voidReason || r.voidDetail) out.push('void: a settled draw publishes a void reason');
  const roots = r.betRoots ?? [];
  if (roots.length !== closed) out.push(`bet roots: ${roots.length} published, ${closed} betting rounds closed`);
  const sums = new Map<number, [number, number]>();
  const roundNo: Record<string, number> = { PRE_DEAL: 1, POCKET: 2, FLOP: 3, TURN: 4 };
  for (const p of r.pools ?? []) {
    const k = roundNo[p.round] ?? Number(p.round);
    const [n, st] = sums.get(k) ?? [0, 0];
    sums.set(k, [n + p.numBets, st + p.gross]);
  }
  roots.forEach((x, i) => {
    if (x.round !== i + 1) out.push(`bet roots: root ${i + 1} is of round ${x.round}`);
    if ((r.version ?? 0) < 5) {
      if (x.at !== undefined) out.push(`bet root of round ${x.round}: a version-${r.version} result publishes no root times`);
    } else if (!x.at || !b) out.push(`bet root of round ${x.round}: a version-5 result publishes when each root was published`);
    else if (x.round >= 1 && x.round <= 4) {
      const due = b.chain ? b.chain.genesisUnixMs + (b.rounds[x.round - 1] - 1) * b.chain.periodMs : NaN;
      if (ms(x.at) < ms(b.closesAt[x.round - 1])) out.push(`bet root of round ${x.round}: published before the round's close`);
      if (!(ms(x.at) < due) && x.numBets > 0) out.push(`bet root of round ${x.round}: published at ${x.at}, once its street's beacon round was due, with ${x.numBets} bets`);
    }
    if (!/^[0-9a-f]{64}$/.test(x.root)) out.push(`bet root of round ${x.round}: not 64 lower-case hex digits`);
    const [n, st] = sums.get(x.round) ?? [0, 0];
    if (n !== x.numBets || st !== x.stakes) out.push(`bet root of round ${x.round} commits to ${x.numBets} bets staking ${x.stakes}; the pools publish ${n} staking ${st}`);
  });
  for (const [k, [n, st]] of sums) if (k > roots.length && (n > 0 || st > 0) && k !== openRound) out.push(`bet roots: round ${k}'s pools publish ${n} bets, but the round has no root`);
  return out;
}
