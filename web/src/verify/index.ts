// verifyDraw: the browser's own check of a published draw result (the JSON of
// Draw.resultJson): commitment, shuffle and deal, outcome, and every pool.
import { hexToBytes, sha256Hex, shuffle, dealTote, dealStreets, cardName, outcomeOf, type ToteDeal } from './fair';
import { verifyPools, type DrawResultJson } from './pools';
import { checkBeacons, type Beacons } from './beacon';
import { verifyCommitted } from './commit';
import { checkSuspension } from './suspension';

export interface Verdict { commitmentValid: boolean; cardsMatch: boolean; payoutsMatch: boolean; beaconsValid: boolean | null; suspensionsMatch?: boolean; problems: string[]; notes: string[]; ok: boolean }

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

export async function verifyDraw(json: string): Promise<Verdict> {
  const problems: string[] = [];
  let r: DrawResultJson;
  try { r = JSON.parse(json); } catch { return { commitmentValid: false, cardsMatch: false, payoutsMatch: false, beaconsValid: null, problems: ['not JSON'], notes: [], ok: false }; }
  let commitmentValid = false;
  let cardsMatch = false;
  const server = hexToBytes(r.serverSeed ?? '');
  if (!server || server.length !== 32) problems.push('server seed is not 32 bytes of hex');
  else {
    const c = await sha256Hex(server);
    commitmentValid = c === (r.commitment ?? '').toLowerCase();
    if (!commitmentValid) problems.push(`SHA-256 of the server seed is ${c}, the commitment is ${r.commitment}`);
  }
  let deal: ToteDeal | null = null;
  const beacons = (r as { beacons?: Beacons }).beacons;
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
    // Version 2: per-street beacon randomness R_s = SHA-256(signature).
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
    const check = (what: string, got: string[] | undefined, want: string[]) => {
      const g = got ?? [];
      if (g.length > want.length || !same(g, want.slice(0, g.length))) { cardsMatch = false; problems.push(`${what}: published ${g.join(' ')}, the seeds deal ${want.join(' ')}`); }
    };
    (r.pockets ?? []).forEach((p, i) => check(`pocket ${i + 1}`, p, deal.pockets[i]?.map(cardName) ?? []));
    check('board', r.board, deal.board.map(cardName));
    check('burns', r.burns, deal.burns.map(cardName));
    if (!r.void) {
      const o = outcomeOf(deal as ToteDeal);
      if (!same(o.winners, r.winners) || o.category !== r.category || !same(o.flopLeaders, r.flopLeaders) || !same(o.turnLeaders, r.turnLeaders)) {
        cardsMatch = false;
        problems.push(`outcome: published winners ${r.winners} (${r.category}), leaders ${r.flopLeaders}/${r.turnLeaders}; the cards give ${o.winners} (${o.category}), ${o.flopLeaders}/${o.turnLeaders}`);
      }
    }
  } else if (commitmentValid && (r.pockets ?? []).length > 0) problems.push('cards were dealt but neither beacons nor a public seed are published');
  const poolProblems = [...verifyPools(r), ...verifyCommitted(r)];
  problems.push(...poolProblems);
  const payoutsMatch = poolProblems.length === 0;
  const dealt = (r.pockets ?? []).length > 0;
  const sus = await checkSuspension(r);
  problems.push(...sus.problems);
  notes.push(...sus.notes);
  const suspensionsMatch = sus.problems.length === 0;
  return {
    commitmentValid, cardsMatch: dealt ? cardsMatch : true, payoutsMatch, beaconsValid, suspensionsMatch, problems, notes,
    ok: commitmentValid && (dealt ? cardsMatch : true) && payoutsMatch && beaconsValid !== false && suspensionsMatch,
  };
}
