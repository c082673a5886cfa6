// Beacon checks of a version-2 draw (docs/fairness.md §2, issue 10): which
// drand round fixes each street, and that each round's BLS signature is
// valid, with the public key of drand's quicknet chain taken from here, never
// from the result. BLS12-381 comes from @noble/curves (audited); it is loaded
// only when a version-2 result is checked.
import { sha256Hex, hexToBytes } from './fair';
import { FAIR_BOUND, FAIR_TERMS, MIN_PRODUCTION_WAIT_MS, canonicalHex, localChainHash, roundFor, type Terms } from './bound';

export const QUICKNET = {
  name: 'quicknet',
  hash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  scheme: 'bls-unchained-g1-rfc9380',
  publicKey: '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  genesisUnixMs: 1692803367000,
  periodMs: 3000,
};

export interface Chain { name: string; hash: string; scheme: string; publicKey: string; genesisUnixMs: number; periodMs: number }
export interface Beacons { version: number; chain: Chain; closesAt: string[]; rounds: number[]; deadlines?: string[]; signatures?: string[]; gapMs?: number; terms?: Terms }

/** roundAfter is the first round published strictly after t (Unix ms). */
export function roundAfter(t: number, c: Pick<Chain, 'genesisUnixMs' | 'periodMs'>): number {
  return t < c.genesisUnixMs ? 1 : Math.floor((t - c.genesisUnixMs) / c.periodMs) + 2;
}

/** verifyRound checks a round's signature: e(sig, g2) == e(H(SHA-256(round_be64)), publicKey). */
export async function verifyRound(round: number, sigHex: string, publicKeyHex: string): Promise<boolean> {
  const { bls12_381 } = await import('@noble/curves/bls12-381.js');
  const r = new Uint8Array(8);
  new DataView(r.buffer).setBigUint64(0, BigInt(round), false);
  const m = hexToBytes(await sha256Hex(r))!;
  const sig = hexToBytes(sigHex);
  const pk = hexToBytes(publicKeyHex);
  if (!sig || !pk) return false;
  try {
    const s = bls12_381.shortSignatures;
    return s.verify(sig, s.hash(m), pk);
  } catch {
    return false;
  }
}

/**
 * checkBeacons lists the problems of a result's beacons for the streets dealt
 * (dealt[s-1] true when street s has published cards), and a note when the
 * draw was dealt on the server's local chain (valid, but it proves nothing to
 * a player): the version (2 or 3), the chain against quicknet's constants or a
 * local chain's recomputed hash, each round against its close (fair deal 3:
 * at least one period after it), the schedule's order, every signature, all
 * hex canonical (lower-case).
 */
export async function checkBeacons(b: Beacons, dealt: boolean[]): Promise<{ problems: string[]; notes: string[] }> {
  const problems: string[] = [];
  const notes: string[] = [];
  const c = b.chain;
  const v = b.version;
  if (v !== 2 && v !== FAIR_BOUND && v !== FAIR_TERMS) return { problems: [`beacons: fair deal version ${v}, this verifier knows versions 2 to ${FAIR_TERMS}`], notes };
  if (!c) return { problems: ['beacons: no chain'], notes };
  if (!canonicalHex(c.hash, 32)) problems.push('beacon chain: the hash is not 64 lower-case hex digits');
  if (!canonicalHex(c.publicKey, 96)) problems.push('beacon chain: the public key is not 192 lower-case hex digits');
  let publicKey = QUICKNET.publicKey;
  if (c.name === 'quicknet' || c.hash === QUICKNET.hash) {
    for (const k of ['name', 'hash', 'scheme', 'publicKey', 'genesisUnixMs', 'periodMs'] as const) {
      if (c[k] !== QUICKNET[k]) problems.push(`beacon chain: ${k} is not quicknet's`);
    }
  } else if (c.name === 'local') {
    notes.push('localBeacon');
    publicKey = c.publicKey;
    const want = await localChainHash(c);
    if (want !== c.hash) problems.push(`beacon chain: local chain hash is ${c.hash}, its key, genesis and period give ${want}`);
  } else {
    problems.push(`unknown beacon chain ${c.name}`);
  }
  if (c.scheme !== QUICKNET.scheme) problems.push(`beacon scheme ${c.scheme} is not supported`);
  if (!(c.periodMs > 0)) return { problems: [...problems, 'beacon chain: the period is not positive'], notes };
  const four = (x: unknown) => Array.isArray(x) && x.length === 4;
  if (!four(b.closesAt) || !four(b.rounds) || !four(b.deadlines) || !b.rounds.every((r) => Number.isSafeInteger(r) && r >= 1)) return { problems: [...problems, 'beacons: closesAt, rounds and deadlines are four entries each, rounds whole numbers from 1'], notes };
  const roundTime = (r: number) => c.genesisUnixMs + (r - 1) * c.periodMs;
  const gap = v >= FAIR_TERMS ? b.gapMs ?? 0 : 0;
  if (v >= FAIR_TERMS && !(Number.isSafeInteger(gap) && gap >= c.periodMs)) problems.push(`beacon schedule: a gap of ${gap} ms from a close to its round, less than the chain's period`);
  if (v < FAIR_TERMS && (b.gapMs !== undefined || b.terms !== undefined)) problems.push(`beacons: a fair deal ${v} draw commits to no terms or gap`);
  for (let s = 1; s <= 4; s++) {
    const closes = Date.parse(b.closesAt?.[s - 1] ?? '');
    if (s > 1 && !(closes > Date.parse(b.closesAt[s - 2]))) problems.push(`beacon deadlines are not in order at street ${s}`);
    const want = roundFor(closes, c, v, gap);
    if (b.rounds?.[s - 1] !== want) problems.push(`street ${s}: beacon round ${b.rounds?.[s - 1]}, the round betting round ${s}'s close ${b.closesAt?.[s - 1]} commits to is ${want}`);
    const dl = Date.parse(b.deadlines?.[s - 1] ?? '');
    if (s > 1 && !(dl > Date.parse(b.deadlines?.[s - 2] ?? ''))) problems.push(`street ${s}: its deadline is not after the one before`);
    if (!(dl >= roundTime(b.rounds?.[s - 1] ?? 0))) problems.push(`street ${s}: its deadline is before its round is published`);
    else if (v >= FAIR_TERMS && c.hash === QUICKNET.hash && dl - roundTime(b.rounds[s - 1]) < MIN_PRODUCTION_WAIT_MS) problems.push(`street ${s}: its round is waited for less than the 10 minutes a draw on drand's chain must wait before voiding`);
    const sig = b.signatures?.[s - 1] ?? '';
    if (!sig) {
      if (dealt[s - 1]) problems.push(`street ${s} has cards but no beacon signature`);
      if ((b.signatures ?? []).slice(s).some((x) => x)) problems.push(`beacon signatures: a later street has one but street ${s} has none`);
      continue;
    }
    if (!canonicalHex(sig, 48)) { problems.push(`street ${s}: the signature is not 96 lower-case hex digits`); continue; }
    if (!(await verifyRound(b.rounds[s - 1], sig, publicKey))) problems.push(`street ${s}: the signature of beacon round ${b.rounds[s - 1]} does not verify`);
  }
  return { problems, notes };
}
