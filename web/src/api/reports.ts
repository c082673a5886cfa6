// The back office's adapter: the reports, their CSV files, partners'
// webhooks and the emergency stop. The operations' shapes live here only.
import { gql, session, ApiError } from './client';
import * as ops from './ops';
import type {
  DailyReportQuery, LiabilityQuery, TopPlayersQuery, WebhookEndpointsQuery, CreateWebhookEndpointMutation, BettingStopQuery,
  WebhookEventType,
} from '../gql/graphql';

export type Daily = DailyReportQuery['dailyReport'];
export type DailyRow = Daily['rows'][number];
export type Figures = DailyRow['figures'];
export type Liability = LiabilityQuery['liability'];
export type Player = TopPlayersQuery['topPlayers'][number];
export type Endpoint = WebhookEndpointsQuery['webhookEndpoints'][number];
export type Stop = BettingStopQuery['bettingStop'];

export const daily = async (from: string, to: string) => (await gql<DailyReportQuery>(ops.DailyReport, { from, to })).dailyReport;
export const liability = async () => (await gql<LiabilityQuery>(ops.Liability)).liability;
export const topPlayers = async (from: string, to: string, winners: boolean) =>
  (await gql<TopPlayersQuery>(ops.TopPlayers, { from, to, winners })).topPlayers;

/** isoDay is the operator's calendar day of t (Asia/Almaty, UTC+5, no daylight saving), as YYYY-MM-DD. */
export function isoDay(t: Date): string {
  return new Date(t.getTime() + 5 * 3600_000).toISOString().slice(0, 10);
}

/** lastDays is the range of the n gaming days ending today. */
export function lastDays(n: number, now = new Date()): { from: string; to: string } {
  return { from: isoDay(new Date(now.getTime() - (n - 1) * 86_400_000)), to: isoDay(now) };
}

/**
 * download fetches /export/<name> with the session's token (a plain link
 * cannot carry it) and saves the file under the name the server gives.
 */
export async function download(name: string, params: Record<string, string>): Promise<void> {
  const q = new URLSearchParams(params).toString();
  const res = await fetch(`/export/${name}${q ? '?' + q : ''}`, { headers: { Authorization: 'Bearer ' + (session.value?.accessToken ?? '') } });
  if (!res.ok) {
    const body = await res.json().catch(() => null) as { errors?: { message: string; extensions?: { code?: string; reason?: string } }[] } | null;
    const e = body?.errors?.[0];
    throw new ApiError(e?.message ?? res.statusText, e?.extensions?.code ?? 'INTERNAL', e?.extensions?.reason ?? '');
  }
  const file = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? name;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = file;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const endpoints = async () => (await gql<WebhookEndpointsQuery>(ops.WebhookEndpoints)).webhookEndpoints;
export const createEndpoint = async (url: string, eventTypes: WebhookEventType[], description: string) =>
  (await gql<CreateWebhookEndpointMutation>(ops.CreateWebhookEndpoint, { input: { url, eventTypes, description } })).createWebhookEndpoint;
export const deleteEndpoint = (id: string) => gql(ops.DeleteWebhookEndpoint, { id });
export const replayEndpoint = (id: string, from: string | null) => gql(ops.ReplayWebhookEndpoint, { id, from: from || null });
export const stopState = async () => (await gql<BettingStopQuery>(ops.BettingStop)).bettingStop;
export const stopAll = (reason: string) => gql(ops.StopAllBetting, { reason });
export const resumeAll = () => gql(ops.ResumeAllBetting);

export type FoundPlayer = import('../gql/graphql').PlayersQuery['players'][number];
export type PlayerPage = import('../gql/graphql').PlayerPageQuery;
export const players = async (search: string) => (await gql<import('../gql/graphql').PlayersQuery>(ops.Players, { search })).players;
export const playerPage = (id: string, from: string, to: string) => gql<PlayerPage>(ops.PlayerPage, { id, from, to });
export type ProtectionEvent = import('../gql/graphql').ProtectionEventsQuery['protectionEvents'][number];
export const protectionEvents = async (from: string, to: string) =>
  (await gql<import('../gql/graphql').ProtectionEventsQuery>(ops.ProtectionEvents, { from, to })).protectionEvents;
