// The jackpot chain check (docs/fairness.md, section 14), the same as
// domain/tote/verify.JackpotChain: a run of consecutive entries, the
// results of the draws they name, and the anchors (hashes recorded
// earlier) the checker holds.
import { sha256Hex } from './fair';

export interface JackpotEntry { seq: number; kind: string; drawId?: number; poolId?: string; amount: number; before: number; after: number; at: string; prevHash: string; hash: string }
interface PoolJ { poolId: string; jackpotContribution: number; jackpotPaid: number; rollover: number; jackpotBefore: number }
export interface JackpotResult { drawId: number; void?: boolean; jackpotBefore: number; jackpotAfter: number; pools: PoolJ[]; jackpotChain?: { after: number; last: number } }
export interface JackpotAnchor { seq: number; hash: string }
export interface JackpotRun { entries: JackpotEntry[]; results: JackpotResult[]; anchors?: JackpotAnchor[] }

/** KINDS: each kind's sign and whether it names a draw's pool (tote.JackpotKinds). */
const KINDS: Record<string, { sign: number; pool: boolean }> = {
  OPENING: { sign: 1, pool: false }, CONTRIBUTION: { sign: 1, pool: true }, ROLLOVER: { sign: 1, pool: true },
  WIN: { sign: -1, pool: true }, TOP_UP: { sign: 1, pool: false },
};
export const GENESIS = '0'.repeat(64);

const u64 = (n: number) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, BigInt.asUintN(64, BigInt(n)), false); return b; };
const ascii = (s: string) => new TextEncoder().encode(s);

/** jackpotBytes is tote.JackpotBytes; null when prevHash is not canonical hex. */
export function jackpotBytes(e: JackpotEntry): Uint8Array<ArrayBuffer> | null {
  if (typeof e.prevHash !== 'string' || !/^[0-9a-f]{64}$/.test(e.prevHash)) return null;
  const kind = ascii(e.kind), pool = ascii(e.poolId ?? '');
  if (kind.length > 255 || pool.length > 255) return null;
  const prev = Uint8Array.from(e.prevHash.match(/../g)!.map((h) => parseInt(h, 16)));
  const parts = [ascii('pokertote/jackpot/v1'), u64(e.seq), Uint8Array.of(kind.length), kind, u64(e.drawId ?? 0), Uint8Array.of(pool.length), pool,
    u64(e.amount), u64(e.before), u64(e.after), u64(Date.parse(e.at)), prev];
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

/** drawMoves is tote.DrawJackpotMoves: per pool its WIN, CONTRIBUTION, ROLLOVER when positive. */
function drawMoves(r: JackpotResult) {
  if (r.void) return [];
  return (r.pools ?? []).flatMap((p) => ([['WIN', p.jackpotPaid], ['CONTRIBUTION', p.jackpotContribution], ['ROLLOVER', p.rollover]] as const)
    .filter(([, a]) => a > 0).map(([kind, amount]) => ({ kind, amount, poolId: p.poolId, drawId: r.drawId })));
}

/** verifyJackpotChain returns every problem of the run (none: it holds). */
export async function verifyJackpotChain(run: JackpotRun): Promise<string[]> {
  const bad: string[] = [];
  const es = run.entries ?? [];
  if (es.length === 0) return ['jackpot chain: no entries to check'];
  const first = es[0].seq;
  for (let i = 0; i < es.length; i++) {
    const e = es[i];
    const rule = KINDS[e.kind];
    if (!rule) { bad.push(`jackpot entry ${e.seq}: unknown kind ${e.kind}`); continue; }
    if (e.seq !== first + i) { bad.push(`jackpot entry ${e.seq}: expected seq ${first + i} (an entry is missing or repeated)`); return bad; }
    const names = !!e.drawId && !!e.poolId;
    if (rule.pool !== names || (!rule.pool && (e.drawId || e.poolId))) bad.push(`jackpot entry ${e.seq}: a ${e.kind} entry with draw ${e.drawId} and pool ${e.poolId}`);
    if (e.kind === 'OPENING' ? (e.seq !== 1 || e.before !== 0 || e.prevHash !== GENESIS) : !(e.amount > 0)) bad.push(`jackpot entry ${e.seq}: amount or place not allowed for ${e.kind}`);
    if (e.seq === 1 && e.kind !== 'OPENING') bad.push('jackpot entry 1: the chain starts with OPENING');
    if (e.after !== e.before + rule.sign * e.amount || e.after < 0) bad.push(`jackpot entry ${e.seq}: after ${e.after} does not follow from before ${e.before} and ${e.kind} ${e.amount}`);
    const b = jackpotBytes(e);
    if (!b || Number.isNaN(Date.parse(e.at))) bad.push(`jackpot entry ${e.seq}: unreadable prevHash or time`);
    else if (await sha256Hex(b) !== e.hash) bad.push(`jackpot entry ${e.seq}: its fields do not hash to ${e.hash}`);
    if (i > 0 && e.prevHash !== es[i - 1].hash) bad.push(`jackpot entry ${e.seq}: prevHash is not entry ${es[i - 1].seq}'s hash`);
    if (i > 0 && e.before !== es[i - 1].after) bad.push(`jackpot entry ${e.seq}: before ${e.before}, the entry before left ${es[i - 1].after}`);
  }
  const last = es[es.length - 1].seq;
  for (const a of run.anchors ?? []) {
    if (a.seq < first || a.seq > last) bad.push(`jackpot anchor ${a.seq}: outside the run ${first}..${last}, so not checked`);
    else if (es[a.seq - first].hash !== a.hash) bad.push(`jackpot entry ${a.seq}: its hash is not the anchor held (rewritten)`);
  }
  const balanceAt = (seq: number) => seq === first - 1 ? es[0].before : es[seq - first].after;
  const claimed = new Map<number, number>();
  for (const r of run.results ?? []) {
    const c = r.jackpotChain;
    if (!c) { bad.push(`draw ${r.drawId}: the result names no jackpot entries`); continue; }
    if (c.after < first - 1 || c.last < c.after || c.last > last) { bad.push(`draw ${r.drawId}: jackpot entries ${c.after + 1}..${c.last} are not inside the run`); continue; }
    if (balanceAt(c.after) !== r.jackpotBefore) bad.push(`draw ${r.drawId}: jackpotBefore ${r.jackpotBefore}, the chain holds ${balanceAt(c.after)} after entry ${c.after}`);
    const moves = drawMoves(r);
    if (moves.length !== c.last - c.after) bad.push(`draw ${r.drawId}: the result moves the jackpot ${moves.length} times, the chain names ${c.last - c.after} entries`);
    moves.forEach((m, j) => {
      const seq = c.after + 1 + j;
      if (seq > c.last) return;
      const e = es[seq - first];
      if (e.kind !== m.kind || e.drawId !== m.drawId || e.poolId !== m.poolId || e.amount !== m.amount) bad.push(`draw ${r.drawId}: jackpot entry ${seq} is ${e.kind} ${e.amount}, the result says ${m.kind} ${m.amount} (pool ${m.poolId})`);
    });
    for (let seq = c.after + 1; seq <= c.last; seq++) {
      if (claimed.has(seq)) bad.push(`jackpot entry ${seq}: named by two results`);
      claimed.set(seq, r.drawId);
    }
    if (balanceAt(c.last) !== r.jackpotAfter) bad.push(`draw ${r.drawId}: jackpotAfter ${r.jackpotAfter}, the chain holds ${balanceAt(c.last)} after entry ${c.last}`);
    if (!r.void) {
      let bal = r.jackpotBefore;
      for (const p of r.pools ?? []) {
        if (p.jackpotBefore !== bal) bad.push(`draw ${r.drawId}: pool ${p.poolId} settled against ${p.jackpotBefore}, the draw had reached ${bal}`);
        bal += p.jackpotContribution + p.rollover - p.jackpotPaid;
      }
    }
  }
  for (const e of es) if (e.drawId && claimed.get(e.seq) !== e.drawId) bad.push(`jackpot entry ${e.seq}: names draw ${e.drawId}, whose result was not given or does not name it`);
  return bad;
}
