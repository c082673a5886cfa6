// The client's own check of a bet's inclusion proof (docs/fairness.md,
// section 11, issue 26): the RFC 6962 Merkle tree over SHA-256 that
// commits to a betting round's bets, published in ROUND_CLOSED before the
// next card.
//
//   leaf bytes = 'pokertote/bet/v1' ‖ id (8 bytes BE) ‖ round (1) ‖ len(market) (1) ‖ market
//                ‖ len(selection) (1) ‖ selection ‖ stake in tiyn (8 bytes BE)
//   version 2 (fair deal 4): 'pokertote/bet/v2' ‖ ref (32) ‖ round ‖ market ‖ selection ‖ stake (8)
//                ‖ placedAt in Unix ms (8), ref = SHA-256('pokertote/bet/ref' ‖ id (8 bytes BE))
//   leaf hash  = SHA-256(0x00 ‖ leaf bytes); node hash = SHA-256(0x01 ‖ left ‖ right)
//   proof      = RFC 6962 audit path, leaf first (folded by index and size)
//
// It uses only WebCrypto and never asks the server whether the proof holds.
import { hexToBytes, bytesToHex } from './fair';

export interface BetLeaf { id: number; round: number; market: string; selection: string; stake: number; version?: number; placedAt?: string }
/** PublicLeaf is a leaf as a finished draw publishes it: version 2 with ref and placedAt, version 1 with id. */
export interface PublicLeaf { id?: number; ref?: string; round: number; market: string; selection: string; stake: number; placedAt?: string }
export interface InclusionProof { root: string; index: number; size: number; path: string[] }

const DOMAIN = 'pokertote/bet/v1';
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** leafBytes encodes a bet as its round's root commits to it (no player identity). */
export function leafBytes(l: BetLeaf): Uint8Array<ArrayBuffer> {
  const m = ascii(l.market);
  const s = ascii(l.selection);
  const out = new Uint8Array(DOMAIN.length + 8 + 1 + 1 + m.length + 1 + s.length + 8);
  const dv = new DataView(out.buffer);
  let o = 0;
  out.set(ascii(DOMAIN), o); o += DOMAIN.length;
  dv.setBigUint64(o, BigInt(l.id)); o += 8;
  out[o++] = l.round;
  out[o++] = m.length; out.set(m, o); o += m.length;
  out[o++] = s.length; out.set(s, o); o += s.length;
  dv.setBigUint64(o, BigInt(l.stake));
  return out;
}

async function sha(...parts: Uint8Array[]): Promise<Uint8Array<ArrayBuffer>> {
  const n = parts.reduce((a, p) => a + p.length, 0);
  const buf = new Uint8Array(n);
  let o = 0;
  for (const p of parts) { buf.set(p, o); o += p.length; }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', buf));
}

/** betRef is a bet's reference in a version-2 leaf. */
export async function betRef(id: number): Promise<string> {
  const b = new Uint8Array(17 + 8);
  b.set(ascii('pokertote/bet/ref'));
  new DataView(b.buffer).setBigUint64(17, BigInt(id));
  return bytesToHex(await sha(b));
}

/** leafBytesV2 encodes a version-2 leaf from its reference (64 hex); null when it cannot be one. */
export function leafBytesV2(l: PublicLeaf): Uint8Array<ArrayBuffer> | null {
  const ref = hexToBytes(l.ref ?? '');
  const at = Date.parse(l.placedAt ?? '');
  if (!ref || ref.length !== 32 || !Number.isFinite(at) || !Number.isSafeInteger(l.stake) || l.market.length > 255 || l.selection.length > 255) return null;
  const m = ascii(l.market);
  const s = ascii(l.selection);
  const out = new Uint8Array(16 + 32 + 1 + 1 + m.length + 1 + s.length + 16);
  const dv = new DataView(out.buffer);
  let o = 0;
  out.set(ascii('pokertote/bet/v2'), o); o += 16;
  out.set(ref, o); o += 32;
  out[o++] = l.round;
  out[o++] = m.length; out.set(m, o); o += m.length;
  out[o++] = s.length; out.set(s, o); o += s.length;
  dv.setBigUint64(o, BigInt(l.stake)); o += 8;
  dv.setBigUint64(o, BigInt(Math.floor(at)));
  return out;
}

/** publicLeafHash hashes a published leaf; null when it cannot be a leaf. */
export async function publicLeafHash(l: PublicLeaf): Promise<Uint8Array<ArrayBuffer> | null> {
  if (l.ref === undefined) return l.id === undefined ? null : sha(Uint8Array.of(0), leafBytes({ id: l.id, round: l.round, market: l.market, selection: l.selection, stake: l.stake }));
  const b = leafBytesV2(l);
  return b ? sha(Uint8Array.of(0), b) : null;
}

/** leafHash hashes the player's own bet in its leaf version (2 from fair deal 4). */
export async function leafHash(l: BetLeaf): Promise<Uint8Array<ArrayBuffer>> {
  if ((l.version ?? 1) >= 2) {
    const h = await publicLeafHash({ ref: await betRef(l.id), round: l.round, market: l.market, selection: l.selection, stake: l.stake, placedAt: l.placedAt });
    if (h) return h;
  }
  return sha(Uint8Array.of(0), leafBytes(l));
}
const nodeHash = (a: Uint8Array, b: Uint8Array) => sha(Uint8Array.of(1), a, b);

/**
 * rootFromProof folds an RFC 6962 audit path (RFC 9162, 2.1.3.2) from a leaf
 * hash; null when the path has the wrong length for index and size.
 */
export async function rootFromProof(leaf: Uint8Array, index: number, size: number, path: string[]): Promise<string | null> {
  if (index < 0 || index >= size) return null;
  let fn = BigInt(index);
  let sn = BigInt(size - 1);
  let r: Uint8Array = leaf;
  for (const hex of path) {
    const p = hexToBytes(hex);
    if (!p || p.length !== 32 || hex !== hex.toLowerCase() || sn === 0n) return null;
    if ((fn & 1n) === 1n || fn === sn) {
      r = await nodeHash(p, r);
      if ((fn & 1n) === 0n) while ((fn & 1n) === 0n && fn !== 0n) { fn >>= 1n; sn >>= 1n; }
    } else {
      r = await nodeHash(r, p);
    }
    fn >>= 1n; sn >>= 1n;
  }
  return sn === 0n ? bytesToHex(r) : null;
}

/**
 * checkInclusion checks that the player's own bet (as they placed it) is in
 * the round's committed bets: the proof leads from its leaf to root, and
 * root is the one the player saw (ROUND_CLOSED or the result), when given.
 */
export async function checkInclusion(bet: BetLeaf, proof: InclusionProof, seenRoot?: string): Promise<{ ok: boolean; problem?: string }> {
  if (seenRoot !== undefined && seenRoot !== proof.root) return { ok: false, problem: `the proof's root ${proof.root} is not the one published (${seenRoot})` };
  const got = await rootFromProof(await leafHash(bet), proof.index, proof.size, proof.path);
  if (got === null) return { ok: false, problem: 'the proof is malformed for its index and size' };
  if (got !== proof.root) return { ok: false, problem: `the bet leads to ${got}, not to the round's root ${proof.root}` };
  return { ok: true };
}
