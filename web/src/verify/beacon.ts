// Beacon checks of a version-2 draw (docs/fairness.md §2, issue 10): which
// drand round fixes each street, and that each round's BLS signature is
// valid, with the public key of drand's quicknet chain taken from here, never
// from the result. BLS12-381 comes from @noble/curves (audited); it is loaded
// only when a version-2 result is checked.
import { sha256Hex, hexToBytes } from './fair';

export const QUICKNET = {
  name: 'quicknet',
  hash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  scheme: 'bls-unchained-g1-rfc9380',
  publicKey: '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  genesisUnixMs: 1692803367000,
  periodMs: 3000,
};

export interface Chain { name: string; hash: string; scheme: string; publicKey: string; genesisUnixMs: number; periodMs: number }
export interface Beacons { version: number; chain: Chain; closesAt: string[]; rounds: number[]; signatures?: string[] }

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
 * a player).
 */
export async function checkBeacons(b: Beacons, dealt: boolean[]): Promise<{ problems: string[]; notes: string[] }> {
  const problems: string[] = [];
  const notes: string[] = [];
  const c = b.chain;
  let publicKey = QUICKNET.publicKey;
  if (c?.name === 'quicknet') {
    for (const k of ['hash', 'scheme', 'publicKey', 'genesisUnixMs', 'periodMs'] as const) {
      if (String(c[k]).toLowerCase() !== String(QUICKNET[k]).toLowerCase()) problems.push(`beacon chain: ${k} is not quicknet's`);
    }
  } else if (c?.name === 'local') {
    notes.push('localBeacon');
    publicKey = c.publicKey;
  } else {
    problems.push(`unknown beacon chain ${c?.name}`);
  }
  if (c?.scheme !== QUICKNET.scheme) problems.push(`beacon scheme ${c?.scheme} is not supported`);
  for (let s = 1; s <= 4; s++) {
    const closes = Date.parse(b.closesAt?.[s - 1] ?? '');
    if (s > 1 && !(closes > Date.parse(b.closesAt[s - 2]))) problems.push(`beacon deadlines are not in order at street ${s}`);
    const want = roundAfter(closes, c);
    if (b.rounds?.[s - 1] !== want) problems.push(`street ${s}: beacon round ${b.rounds?.[s - 1]}, the first after ${b.closesAt?.[s - 1]} is ${want}`);
    const sig = b.signatures?.[s - 1] ?? '';
    if (!sig) {
      if (dealt[s - 1]) problems.push(`street ${s} has cards but no beacon signature`);
      continue;
    }
    if (!(await verifyRound(b.rounds[s - 1], sig, publicKey))) problems.push(`street ${s}: the signature of beacon round ${b.rounds[s - 1]} does not verify`);
  }
  return { problems, notes };
}
