// The player-protection adapter: the player's own limits, time-out and
// self-exclusion, and this day's, week's and month's counters.
import { signal } from '@preact/signals';
import { gql } from './client';
import * as ops from './ops';
import type { MyProtectionQuery, SetLimitMutation, TakeTimeOutMutation, SelfExcludeMutation, LimitKind, LimitPeriod } from '../gql/graphql';

export type Protection = MyProtectionQuery['myProtection'];
export type Exclusion = NonNullable<Protection['exclusion']>;
export const LIMIT_KINDS: LimitKind[] = ['DEPOSIT', 'STAKE', 'LOSS'];
export const LIMIT_PERIODS: LimitPeriod[] = ['DAY', 'WEEK', 'MONTH'];
/** The breaks a player may take, in hours (the server takes 24 to 1008). */
export const TIME_OUT_HOURS = [24, 72, 168, 336, 1008];
/** Self-exclusion in months (6 to 60), or permanent (null). */
export const EXCLUSION_MONTHS: (number | null)[] = [6, 12, 24, 60, null];

/** The signed-in player's protection as last read; the bet slip reads it to stand still during a break. */
export const protection = signal<Protection | null>(null);

export async function loadProtection(): Promise<Protection> {
  const p = (await gql<MyProtectionQuery>(ops.MyProtection)).myProtection;
  protection.value = p;
  return p;
}

export async function setLimit(kind: LimitKind, period: LimitPeriod, amount: string | null) {
  const r = (await gql<SetLimitMutation>(ops.SetLimit, { input: { kind, period, amount } })).setLimit;
  await loadProtection();
  return r;
}

export async function takeTimeOut(hours: number) {
  const r = (await gql<TakeTimeOutMutation>(ops.TakeTimeOut, { hours })).takeTimeOut;
  await loadProtection();
  return r;
}

export async function selfExclude(months: number | null) {
  const r = (await gql<SelfExcludeMutation>(ops.SelfExclude, { months })).selfExclude;
  await loadProtection();
  return r;
}

/** activeExclusion is the break or exclusion in force now, if any (its end checked against the clock too). */
export function activeExclusion(p: Protection | null, now = Date.now()): Exclusion | null {
  const e = p?.exclusion;
  if (!e || !e.active) return null;
  if (e.until && Date.parse(e.until) <= now) return null;
  return e;
}
