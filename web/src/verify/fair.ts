// An independent TypeScript implementation of the provably fair shuffle and
// deal (SPEC 1.8, as in main at the time of writing: one shuffle per draw):
//
//   commitment = SHA-256(serverSeed)
//   block(k)   = HMAC-SHA256(key = serverSeed, publicSeed ‖ uint64_be(k)), k = 0, 1, …
//   bytes      = block(0) ‖ block(1) ‖ …
//   IntN(n)    = next byte b with b < 256 − 256 mod n (others skipped), b mod n
//   deck       = cards 0..51 (rank*4 + suit, ranks 2..A, suits c d h s),
//                Fisher–Yates from the top: for i = 51..1, swap(i, IntN(i+1))
//   deal       = pocket p: deck[p], deck[n+p]; then burn, flop ×3, burn, turn, burn, river
//
// It uses only WebCrypto and never asks the server to verify anything.

const RANKS = '23456789TJQKA';
const SUITS = 'cdhs';

export const cardName = (c: number) => RANKS[c >> 2] + SUITS[c & 3];

export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

export const bytesToHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

export async function sha256Hex(data: Uint8Array<ArrayBuffer>): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', data)));
}

/** shuffle returns the version-1 deck the seeds give, as card numbers. */
export async function shuffle(server: Uint8Array<ArrayBuffer>, pub: Uint8Array<ArrayBuffer>): Promise<number[]> {
  const deck = Array.from({ length: 52 }, (_, i) => i);
  await fisherYates(server, pub, deck);
  return deck;
}

export interface ToteDeal { pockets: number[][]; burns: number[]; board: number[] }

export function dealTote(deck: number[], n: number): ToteDeal {
  const pockets = Array.from({ length: n }, (_, p) => [deck[p], deck[n + p]]);
  const k = 2 * n;
  return {
    pockets,
    burns: [deck[k], deck[k + 4], deck[k + 6]],
    board: [deck[k + 1], deck[k + 2], deck[k + 3], deck[k + 5], deck[k + 7]],
  };
}

export const CATEGORIES = ['HIGH_CARD', 'PAIR', 'TWO_PAIR', 'THREE_OF_A_KIND', 'STRAIGHT', 'FLUSH', 'FULL_HOUSE', 'FOUR_OF_A_KIND', 'STRAIGHT_FLUSH', 'ROYAL_FLUSH'];

/** eval5 scores five cards: higher is better; the category is floor(score / 16^5). */
function eval5(cs: number[]): number {
  const ranks = cs.map((c) => c >> 2).sort((a, b) => b - a);
  const flush = cs.every((c) => (c & 3) === (cs[0] & 3));
  const counts = new Map<number, number>();
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1);
  const groups = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  let straightTop = -1;
  if (counts.size === 5) {
    if (ranks[0] - ranks[4] === 4) straightTop = ranks[0];
    else if (ranks[0] === 12 && ranks[1] === 3) straightTop = 3; // A-2-3-4-5
  }
  let cat: number;
  let kick: number[];
  if (straightTop >= 0 && flush) { cat = straightTop === 12 ? 9 : 8; kick = [straightTop]; }
  else if (groups[0][1] === 4) { cat = 7; kick = groups.map((g) => g[0]); }
  else if (groups[0][1] === 3 && groups[1][1] === 2) { cat = 6; kick = groups.map((g) => g[0]); }
  else if (flush) { cat = 5; kick = ranks; }
  else if (straightTop >= 0) { cat = 4; kick = [straightTop]; }
  else if (groups[0][1] === 3) { cat = 3; kick = groups.map((g) => g[0]); }
  else if (groups[0][1] === 2 && groups[1][1] === 2) { cat = 2; kick = groups.map((g) => g[0]); }
  else if (groups[0][1] === 2) { cat = 1; kick = groups.map((g) => g[0]); }
  else { cat = 0; kick = ranks; }
  let score = cat;
  for (let i = 0; i < 5; i++) score = score * 16 + (kick[i] ?? 0);
  return score;
}

/** evaluate scores the best five of 5 to 7 cards. */
export function evaluate(cs: number[]): number {
  let best = -1;
  const n = cs.length;
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) {
    // seven cards: drop each pair (a, b), 21 fives
    if (n === 7) best = Math.max(best, eval5(cs.filter((_, i) => i !== a && i !== b)));
  }
  if (n === 6) for (let a = 0; a < n; a++) best = Math.max(best, eval5(cs.filter((_, i) => i !== a)));
  if (n === 5) best = eval5(cs);
  return best;
}

export const categoryOf = (score: number) => CATEGORIES[Math.floor(score / 16 ** 5)];

export function leaders(pockets: number[][], board: number[]): number[] {
  let best = -1;
  let out: number[] = [];
  pockets.forEach((p, i) => {
    const v = evaluate([...p, ...board]);
    if (v > best) { best = v; out = [i + 1]; } else if (v === best) out.push(i + 1);
  });
  return out;
}

export interface Outcome { winners: number[]; category: string; flopLeaders: number[]; turnLeaders: number[] }

export function outcomeOf(d: ToteDeal): Outcome {
  let best = -1;
  for (const p of d.pockets) best = Math.max(best, evaluate([...p, ...d.board]));
  return {
    winners: leaders(d.pockets, d.board),
    category: categoryOf(best),
    flopLeaders: leaders(d.pockets, d.board.slice(0, 3)),
    turnLeaders: leaders(d.pockets, d.board.slice(0, 4)),
  };
}

/**
 * dealStreets is the version-2 deal (docs/fairness.md on issue 10, "The
 * cards, byte for byte"): each street s = 1..4 shuffles the cards not yet used,
 * in ascending order, with the stream of (server seed, "pokertote/tote/v2" ‖
 * byte(s) ‖ R_s), R_s the street's beacon randomness, and takes 2n cards
 * (pockets) or burn + cards. randomness[s-1] may be missing for a street never
 * dealt (a void); dealing stops there.
 */
export async function dealStreets(server: Uint8Array<ArrayBuffer>, randomness: (Uint8Array | null)[], n: number): Promise<ToteDeal> {
  const used = new Set<number>();
  const out: ToteDeal = { pockets: [], burns: [], board: [] };
  const tag = new TextEncoder().encode('pokertote/tote/v2');
  for (let s = 1; s <= 4; s++) {
    const r = randomness[s - 1];
    if (!r) break;
    const pub = new Uint8Array(tag.length + 1 + r.length);
    pub.set(tag, 0);
    pub[tag.length] = s;
    pub.set(r, tag.length + 1);
    const rest = Array.from({ length: 52 }, (_, i) => i).filter((c) => !used.has(c));
    await fisherYates(server, pub, rest);
    if (s === 1) {
      out.pockets = Array.from({ length: n }, (_, p) => [rest[p], rest[n + p]]);
      rest.slice(0, 2 * n).forEach((c) => used.add(c));
    } else {
      const m = s === 2 ? 4 : 2;
      out.burns.push(rest[0]);
      out.board.push(...rest.slice(1, m));
      rest.slice(0, m).forEach((c) => used.add(c));
    }
  }
  return out;
}

/** fisherYates shuffles cards in place with the HMAC stream of (key, pub). */
async function fisherYates(server: Uint8Array<ArrayBuffer>, pub: Uint8Array<ArrayBuffer>, cards: number[]) {
  const key = await crypto.subtle.importKey('raw', server, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  let counter = 0n;
  let block = new Uint8Array(0);
  let used = 0;
  const msg = new Uint8Array(pub.length + 8);
  msg.set(pub, 0);
  const view = new DataView(msg.buffer);
  const nextByte = async () => {
    if (used === block.length) {
      view.setBigUint64(pub.length, counter, false);
      block = new Uint8Array(await crypto.subtle.sign('HMAC', key, msg));
      counter++;
      used = 0;
    }
    return block[used++];
  };
  for (let i = cards.length - 1; i > 0; i--) {
    const n = i + 1;
    const limit = 256 - (256 % n);
    let b: number;
    do { b = await nextByte(); } while (b >= limit);
    const j = b % n;
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
}

const RANK_NAMES = ['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'jack', 'queen', 'king', 'ace'];
const plural = (r: number) => (r === 4 ? 'sixes' : RANK_NAMES[r] + 's');

/** displayRanks are the ranks of a five-card score's cards in display order (hand.Value.ranks): the biggest group first, then kickers high to low; straights from the top, the wheel 5-4-3-2-A. */
function displayRanks(score: number): number[] {
  const cat = Math.floor(score / 16 ** 5);
  const kick = [4, 3, 2, 1, 0].map((i) => Math.floor(score / 16 ** i) % 16);
  const straight = (top: number) => [0, 1, 2, 3, 4].map((i) => (top - i < 0 ? 12 : top - i));
  switch (cat) {
    case 9: return straight(12);
    case 8: case 4: return straight(kick[0]);
    case 7: return [kick[0], kick[0], kick[0], kick[0], kick[1]];
    case 6: return [kick[0], kick[0], kick[0], kick[1], kick[1]];
    case 3: return [kick[0], kick[0], kick[0], kick[1], kick[2]];
    case 2: return [kick[0], kick[0], kick[1], kick[1], kick[2]];
    case 1: return [kick[0], kick[0], kick[1], kick[2], kick[3]];
  }
  return kick;
}

/** describe writes a hand as the server does (hand.Value.Describe): "Flush, ace high", "Full house, kings over fives". */
export function describe(score: number): string {
  const r = displayRanks(score);
  switch (Math.floor(score / 16 ** 5)) {
    case 0: return 'High card, ' + RANK_NAMES[r[0]];
    case 1: return 'Pair, ' + plural(r[0]);
    case 2: return 'Two pair, ' + plural(r[0]) + ' and ' + plural(r[2]);
    case 3: return 'Three of a kind, ' + plural(r[0]);
    case 4: return 'Straight, ' + RANK_NAMES[r[0]] + ' high';
    case 5: return 'Flush, ' + RANK_NAMES[r[0]] + ' high';
    case 6: return 'Full house, ' + plural(r[0]) + ' over ' + plural(r[3]);
    case 7: return 'Four of a kind, ' + plural(r[0]);
    case 8: return 'Straight flush, ' + RANK_NAMES[r[0]] + ' high';
    case 9: return 'Royal flush';
  }
  return 'Unknown hand';
}

/**
 * bestFive is the best five of 5 to 7 cards as the server publishes them
 * (hand.BestFive): the score and the five cards in display order, each the
 * earliest card of cs with its rank (and, for a flush, the flush's suit).
 */
export function bestFive(cs: number[]): { score: number; five: number[] } {
  const score = evaluate(cs);
  const cat = Math.floor(score / 16 ** 5);
  const flush = cat === 5 || cat === 8 || cat === 9;
  let suit = -1;
  if (flush) {
    const per = [0, 0, 0, 0];
    for (const c of cs) if (++per[c & 3] >= 5) suit = c & 3;
  }
  const used = new Set<number>();
  const five = displayRanks(score).map((r) => {
    const j = cs.findIndex((c, i) => !used.has(i) && c >> 2 === r && (!flush || (c & 3) === suit));
    used.add(j);
    return cs[j];
  });
  return { score, five };
}
