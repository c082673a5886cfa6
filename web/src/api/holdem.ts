// The Casino Hold'em adapter: settings, commitment, start, decide, reload.
import { gql } from './client';
import { HoldemSettings, HoldemCommit, HoldemStart, HoldemDecide, HoldemHandQ } from './ops';
import type { HoldemSettingsQuery, HoldemCommitMutation, HoldemStartMutation, HoldemDecideMutation, HoldemHandQQuery, HoldemStartInput, HoldemDecision } from '../gql/graphql';
import { newKey } from './account';

export type Hand = HoldemStartMutation['holdemStart'];
export type Settings = HoldemSettingsQuery['holdemSettings'];

export const settings = async () => (await gql<HoldemSettingsQuery>(HoldemSettings)).holdemSettings;
export const commit = async () => (await gql<HoldemCommitMutation>(HoldemCommit)).holdemCommit;
export const start = async (input: HoldemStartInput) => (await gql<HoldemStartMutation>(HoldemStart, { input })).holdemStart;
/** decide sends one decision with its own idempotency key (key is kept by the caller across retries). */
export const decide = async (handId: string, box: number, decision: HoldemDecision, key = newKey()) =>
  (await gql<HoldemDecideMutation>(HoldemDecide, { input: { handId, box, decision, idempotencyKey: key } })).holdemDecide;
export const reload = async (id: string) => (await gql<HoldemHandQQuery>(HoldemHandQ, { id })).holdemHand;
