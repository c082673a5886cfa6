// The Casino Hold'em adapter: settings, commitment, start, decide, reload.
import { gql } from './client';
import { HoldemSettings, HoldemCommit, HoldemStart, HoldemDecide, HoldemHandQ } from './ops';
import type { HoldemSettingsQuery, HoldemCommitMutation, HoldemStartMutation, HoldemDecideMutation, HoldemHandQQuery, HoldemStartInput, HoldemDecision } from '../gql/graphql';
import { newKey } from './account';

export type Hand = HoldemStartMutation['holdemStart'];
export type Settings = HoldemSettingsQuery['holdemSettings'];

export const settings = async () => (await gql<HoldemSettingsQuery>(HoldemSettings)).holdemSettings;
export const commit = async () => (await gql<HoldemCommitMutation>(HoldemCommit)).holdemCommit;
/**
 * randomCut draws the player's cut with WebCrypto: 16 random bytes as hex.
 * The server refuses an empty cut (CUT_REQUIRED), since the house's seed
 * alone would then fix the deck; the client shows the cut it drew, and the
 * player may type their own instead (docs/fairness.md, section 9).
 */
export const randomCut = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
/** start deals a hand; a blank cut is replaced by a random one. */
export const start = async (input: HoldemStartInput) =>
  (await gql<HoldemStartMutation>(HoldemStart, { input: { ...input, cut: input.cut?.trim() ? input.cut : randomCut() } })).holdemStart;
/** decide sends one decision with its own idempotency key (key is kept by the caller across retries). */
export const decide = async (handId: string, box: number, decision: HoldemDecision, key = newKey()) =>
  (await gql<HoldemDecideMutation>(HoldemDecide, { input: { handId, box, decision, idempotencyKey: key } })).holdemDecide;
export const reload = async (id: string) => (await gql<HoldemHandQQuery>(HoldemHandQ, { id })).holdemHand;
