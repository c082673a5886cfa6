// verifyDraw: the browser's own check of a published draw result (the JSON of
// Draw.resultJson): commitment, shuffle and deal, hands and outcome, every
// pool, the void's cause and the bet roots, the suspended selections, and,
// given what the player recorded while the draw ran, that the result is the
// one they saw committed. It makes the checks verify.Result makes
// (docs/fairness.md, section 4); testdata/fairness is the corpus both run.
import { hexToBytes, sha256Hex, shuffle, dealTote, dealStreets, cardName, outcomeOf, bestFive, describe, categoryOf, type ToteDeal } from './fair';
import { verifyPools, type DrawResultJson } from './pools';
import { checkBeacons, verifyRound, QUICKNET, type Beacons } from './beacon';
import { verifyCommitted, type VoidDetail } from './commit';
import { checkSuspension } from './suspension';
import { verifyLeaves } from './leaves';
import type { PublicLeaf } from './merkle';
import { FAIR_BOUND, FAIR_TERMS, RESULT_BOUND, RESULT_TERMS, canonicalHex, checkRecorded, drawCommitment, sameTerms, termsProblems, type Recorded } from './bound';

export type { Recorded } from './bound';
export { verifyJackpotChain } from './jackpot';
export type { JackpotRun } from './jackpot';

/**
 * Verdict: ok is true when every check holds; verdict says what that means:
 * "ok" on quicknet, "local" on the server's own chain (it verifies, but proves
 * nothing to a player: never shown as a plain tick), "reject" otherwise.
 */
export interface Verdict { commitmentValid: boolean; cardsMatch: boolean; payoutsMatch: boolean; beaconsValid: boolean | null; suspensionsMatch?: boolean; problems: string[]; notes: string[]; ok: boolean; verdict: 'ok' | 'local' | 'reject' }

interface HandJson { position: number; category: string; description: string; cards: string[]; status: string }
type Full = DrawResultJson & { beacons?: Beacons; hands?: HandJson[]; voidDetail?: VoidDetail };

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/** reject is the verdict on a result that could not even be read. */
const reject = (why: string): Verdict => ({ commitmentValid: false, cardsMatch: false, payoutsMatch: false, beaconsValid: null, problems: [why], notes: [], ok: false, verdict: 'reject' });

/**
 * verifyDraw checks a published result (and what the player recorded). It
 * never throws: anything malformed is a "reject" verdict saying why.
 */
/**
 * FetchRound reads a beacon round from drand's public record: its
 * signature, or null when no relay serves it (not published, or offline).
 */
export type FetchRound = (chainHash: string, round: number) => Promise<string | null>;

/** DRAND_RELAYS are drand's public HTTP relays, asked in turn. */
export const DRAND_RELAYS = ['https://api.drand.sh', 'https://api2.drand.sh', 'https://api3.drand.sh', 'https://drand.cloudflare.com'];

/** fetchDrandRound asks drand's relays for a round (5 s each at most). */
export const fetchDrandRound: FetchRound = async (hash, round) => {
  for (const base of DRAND_RELAYS) {
    try {
      const res = await fetch(`${base}/${hash}/public/${round}`, { signal: AbortSignal.timeout(5000) });
      if (!res.ok) continue;
      const j = (await res.json()) as { round?: number; signature?: string };
      if (j.round === round && typeof j.signature === 'string') return j.signature.toLowerCase();
    } catch { /* the next relay */ }
  }
  return null;
};

/**
 * verifyDraw checks a published result (and what the player recorded). It
 * never throws: anything malformed is a "reject" verdict saying why. Given
 * fetchRound, a beacon-missing void on quicknet is checked against drand's
 * public record: a round drand has published was withheld, not missing.
 */
export async function verifyDraw(json: string, recorded?: Recorded, fetchRound?: FetchRound, leaves?: Iterable<PublicLeaf> | AsyncIterable<PublicLeaf>): Promise<Verdict> {
  let r: unknown;
  try { r = JSON.parse(json); } catch { return reject('not JSON'); }
  if (r === null || typeof r !== 'object' || Array.isArray(r)) return reject('the result is not a JSON object');
  try {
    return await verifyResult(r as Full, recorded, fetchRound, leaves);
  } catch (e) {
    return reject(`the result is malformed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * heldBeaconProblems: a beacon-missing void of a round held with a
 * signature that verifies on the draw's chain was withheld (CheckHeldBeacons);
 * a held round also settles the signature its street publishes.
 */
async function heldBeaconProblems(r: Full, held: { round: number; signature: string }[], notes: string[]): Promise<string[]> {
  const b = r.beacons;
  if (!b || !held.length) return [];
  const key = b.chain?.name === 'local' ? b.chain.publicKey : QUICKNET.publicKey;
  const out: string[] = [];
  for (const h of held) {
    if (!canonicalHex(h.signature, 48) || !(await verifyRound(h.round, h.signature, key))) continue;
    b.rounds.forEach((round, s) => {
      if (round !== h.round) return;
      const sig = b.signatures?.[s] ?? '';
      if (sig && sig !== h.signature) out.push(`beacon signature of street ${s + 1} (round ${round}): published ${sig}, the chain's is ${h.signature}`);
      const v = r.voidDetail;
      if (r.void && v?.kind === 'BEACON_MISSING' && v.round === h.round) {
        out.push(`void: round ${h.round} is published (its signature verifies), due before the void at ${v.at}: the beacon was withheld, not missing`);
        notes.push('beaconWithheld');
      }
    });
  }
  return out;
}

async function verifyResult(r: Full, recorded?: Recorded, fetchRound?: FetchRound, leaves?: Iterable<PublicLeaf> | AsyncIterable<PublicLeaf>): Promise<Verdict> {
  const problems: string[] = [];
  let commitmentValid = false;
  let cardsMatch = false;
  const beacons = r.beacons;
  if (!(r.positions >= 2 && r.positions <= 10)) problems.push(`positions: a table of ${r.positions} positions cannot exist`);
  const server = hexToBytes(r.serverSeed ?? '');
  if (!canonicalHex(r.serverSeed, 32) || !server) problems.push('server seed is not 64 lower-case hex digits');
  else if (!canonicalHex(r.commitment, 32)) problems.push('commitment is not 64 lower-case hex digits');
  else {
    const c = await drawCommitment(server, r.positions, beacons);
    commitmentValid = c === r.commitment;
    if (!commitmentValid) problems.push(`commitment: ${beacons && beacons.version >= FAIR_TERMS ? 'the hash of the server seed, positions, beacon commitment and terms' : beacons && beacons.version >= FAIR_BOUND ? 'the hash of the server seed, positions and beacon commitment' : 'SHA-256 of the server seed'} is ${c}, the commitment is ${r.commitment}`);
    const bv = beacons ? beacons.version : 1;
    if (bv >= FAIR_TERMS) {
      const t = beacons!.terms;
      if (!t) { commitmentValid = false; problems.push('terms: a fair deal 4 draw publishes the terms it committed to, and there are none'); }
      else {
        const tp = termsProblems(t);
        problems.push(...tp);
        if (!sameTerms(t, r as Parameters<typeof sameTerms>[1])) problems.push('terms: the draw committed to other terms than the result settled with');
        if (tp.length) commitmentValid = false;
      }
    }
    if (((r.version ?? 0) >= RESULT_BOUND) !== (bv >= FAIR_BOUND) || ((r.version ?? 0) >= RESULT_TERMS) !== (bv >= FAIR_TERMS)) {
      commitmentValid = false;
      problems.push(`versions: a result of version ${r.version ?? 0} with a fair deal of version ${bv}`);
    }
  }
  if (r.publicSeed && !/^([0-9a-f]{2})*$/.test(r.publicSeed)) { commitmentValid = false; problems.push('public seed is not lower-case hex'); }
  let deal: ToteDeal | null = null;
  let beaconsValid: boolean | null = null;
  const notes: string[] = [];
  if (beacons) {
    const pockets = (r.pockets ?? []).length > 0;
    const board = (r.board ?? []).length;
    const bc = await checkBeacons(beacons, [pockets, board >= 3, board >= 4, board >= 5]);
    beaconsValid = bc.problems.length === 0;
    problems.push(...bc.problems);
    notes.push(...bc.notes);
  }
  if (commitmentValid && server && beacons) {
    // Per-street beacon randomness R_s = SHA-256(signature).
    const rs = await Promise.all([0, 1, 2, 3].map(async (i) => {
      const sig = hexToBytes(beacons.signatures?.[i] ?? '');
      return sig && sig.length ? hexToBytes(await sha256Hex(sig)) : null;
    }));
    deal = await dealStreets(server, rs, r.positions);
  } else if (commitmentValid && server && r.publicSeed) {
    const pub = hexToBytes(r.publicSeed);
    if (!pub) problems.push('public seed is not hexadecimal');
    else deal = dealTote(await shuffle(server, pub), r.positions);
  }
  if (deal) {
    cardsMatch = true;
    const bad = (m: string) => { cardsMatch = false; problems.push(m); };
    const check = (what: string, got: string[] | undefined, want: string[]) => {
      const g = got ?? [];
      if (g.length > want.length || !same(g, want.slice(0, g.length))) bad(`${what}: published ${g.join(' ')}, the seeds deal ${want.join(' ')}`);
    };
    if ((r.pockets ?? []).length > r.positions) bad(`pockets: ${(r.pockets ?? []).length} published for ${r.positions} positions`);
    (r.pockets ?? []).forEach((p, i) => check(`pocket ${i + 1}`, p, deal.pockets[i]?.map(cardName) ?? []));
    check('board', r.board, deal.board.map(cardName));
    check('burns', r.burns, deal.burns.map(cardName));
    const full = deal.pockets.length === r.positions && deal.board.length === 5;
    const handsOf = (winners: number[]) => deal.pockets.map((p, i): HandJson => {
      const { score, five } = bestFive([...p, ...deal.board]);
      return { position: i + 1, category: categoryOf(score), description: describe(score), cards: five.map(cardName), status: winners.includes(i + 1) ? 'WIN' : 'LOSS' };
    });
    const hands = r.hands ?? [];
    if (!r.void) {
      if (!full || (r.pockets ?? []).length !== r.positions || (r.board ?? []).length !== 5) bad(`cards: a settled draw publishes ${r.positions} pockets and a board of 5`);
      else {
        const o = outcomeOf(deal);
        if (!same(o.winners, r.winners) || o.category !== r.category || !same(o.flopLeaders, r.flopLeaders) || !same(o.turnLeaders, r.turnLeaders)) {
          bad(`outcome: published winners ${r.winners} (${r.category}), leaders ${r.flopLeaders}/${r.turnLeaders}; the cards give ${o.winners} (${o.category}), ${o.flopLeaders}/${o.turnLeaders}`);
        }
        const want = handsOf(o.winners);
        if (hands.length !== want.length) bad(`hands: ${hands.length} published, ${want.length} positions`);
        else hands.forEach((h, i) => {
          const w = want[i];
          if (h.position !== w.position || h.category !== w.category || h.description !== w.description || !same(h.cards, w.cards) || h.status !== w.status) {
            bad(`hand of position ${w.position}: published ${h.category} "${h.description}" ${(h.cards ?? []).join(' ')} ${h.status}, the cards give ${w.category} "${w.description}" ${w.cards.join(' ')} ${w.status}`);
          }
        });
      }
    } else if ((r.version ?? 0) < 3 && hands.length > 0) {
      // A void after the river before version 3: its settler wrote every hand, each LOSS, no winner.
      if (!full || (r.winners ?? []).length > 0 || !same(hands, handsOf([]))) bad('hands: the void draw\'s published hands are not the cards\' (every one LOSS)');
    } else if ((r.version ?? 0) < 3 && (r.winners ?? []).length > 0) bad('hands: a void draw publishes no hands or winners');
  } else if (commitmentValid && (r.pockets ?? []).length > 0) problems.push('cards were dealt but neither beacons nor a public seed are published');
  const poolProblems = [...verifyPools(r), ...verifyCommitted(r)];
  if (leaves) {
    const lp = await verifyLeaves(r, leaves).catch((e: unknown) => [`leaves: ${e instanceof Error ? e.message : String(e)}`]);
    poolProblems.push(...lp);
    if (!lp.length) notes.push('leavesChecked');
  }
  const early = r.voidDetail;
  if (r.void && early?.kind === 'BEACON_BEFORE_CLOSE' && beacons) {
    const key = beacons.chain?.name === 'local' ? beacons.chain.publicKey : QUICKNET.publicKey;
    if (!canonicalHex(early.signature, 48) || !(await verifyRound(early.round ?? 0, early.signature ?? '', key))) poolProblems.push(`void: the early round ${early.round}'s signature does not verify`);
  }
  if (early?.signature !== undefined && early.signature !== '' && !canonicalHex(early.signature, 48)) poolProblems.push('void: the signature is not lower-case hex');
  problems.push(...poolProblems);
  const payoutsMatch = poolProblems.length === 0;
  const dealt = (r.pockets ?? []).length > 0;
  const sus = await checkSuspension(r);
  problems.push(...sus.problems);
  notes.push(...sus.notes);
  const suspensionsMatch = sus.problems.length === 0;
  if (recorded) problems.push(...checkRecorded(r, recorded));
  const held = [...(recorded?.beacons ?? [])];
  const missing = r.void && r.voidDetail?.kind === 'BEACON_MISSING' ? r.voidDetail.round : undefined;
  if (fetchRound && beacons && missing !== undefined && beacons.chain?.hash === QUICKNET.hash && !held.some((h) => h.round === missing)) {
    const sig = await fetchRound(QUICKNET.hash, missing).catch(() => null);
    if (sig) held.push({ round: missing, signature: sig });
    else notes.push('drandUnreachable');
  }
  problems.push(...(await heldBeaconProblems(r, held, notes)));
  const ok = problems.length === 0 && commitmentValid && (dealt ? cardsMatch : true) && payoutsMatch && beaconsValid !== false && suspensionsMatch;
  return {
    commitmentValid, cardsMatch: dealt ? cardsMatch : true, payoutsMatch, beaconsValid, suspensionsMatch, problems, notes,
    ok, verdict: !ok ? 'reject' : notes.includes('localBeacon') ? 'local' : 'ok',
  };
}
