// The admin adapter: every call the back office makes (verifications, the
// cashier, table settings, pause/resume, void, jackpot, the audit log), and
// the paged lists' shape, live here only.
import { gql } from './client';
import * as ops from './ops';
import type {
  PendingVerificationsQuery, TablesQuery, UserByEmailQuery, AuditLogQuery, DepositMutation, WithdrawMutation,
  DisableAccountMutation, EnableAccountMutation, RejectionReason, ApiKeysQuery, CreateApiKeyMutation, CreateTableMutation,
} from '../gql/graphql';

export type Pending = PendingVerificationsQuery['pendingVerifications']['edges'][number]['node'];
export type AdminTables = TablesQuery;
export type FoundUser = NonNullable<UserByEmailQuery['userByEmail']>;
export type AuditEntry = AuditLogQuery['auditLog']['edges'][number]['node'];

/** pendingVerifications lists the verifications waiting for a decision, oldest first. */
export async function pendingVerifications(): Promise<Pending[]> {
  return (await gql<PendingVerificationsQuery>(ops.PendingVerifications)).pendingVerifications.edges.map((e) => e.node);
}

/** decideVerification approves, or rejects with a reason from the list (the player reads it translated). */
export const decideVerification = (id: string, approve: boolean, rejectReason: RejectionReason | null) =>
  gql(ops.DecideVerification, { input: { id, approve, rejectReason: approve ? null : rejectReason } });

/** The reasons a document may be refused for, in the order the back office offers them. */
export const REJECTION_REASONS: RejectionReason[] = ['DOCUMENT_UNREADABLE', 'DOCUMENT_EXPIRED', 'NAME_MISMATCH', 'DATE_OF_BIRTH_MISMATCH', 'DOCUMENT_NOT_ACCEPTED', 'DUPLICATE_DOCUMENT', 'OTHER'];

export type ApiKey = ApiKeysQuery['apiKeys'][number];
export const apiKeys = async () => (await gql<ApiKeysQuery>(ops.ApiKeys)).apiKeys;
/** createApiKey makes a partner's key; the secret is in the answer only, this once. */
export const createApiKey = async (name: string, requestsPerMinute: number | null) =>
  (await gql<CreateApiKeyMutation>(ops.CreateApiKey, { input: { name, requestsPerMinute } })).createApiKey;
export const revokeApiKey = (id: string) => gql(ops.RevokeApiKey, { id });

export interface NewTable { name: string; positions: number; minStake?: string; maxStake?: string; commission?: string }
export const createTable = async (input: NewTable) => (await gql<CreateTableMutation>(ops.CreateTable, { input })).createTable;

/** userByEmail finds a user for the cashier (null when no one has the address). */
export async function userByEmail(email: string): Promise<FoundUser | null> {
  return (await gql<UserByEmailQuery>(ops.UserByEmail, { email })).userByEmail ?? null;
}

/** disableAccount ends the user's sessions everywhere and refuses their sign-in until enabled; enableAccount undoes it. Both answer the account's state. */
export async function disableAccount(userId: string, reason: string) {
  return (await gql<DisableAccountMutation>(ops.DisableAccount, { userId, reason })).disableAccount;
}
export async function enableAccount(userId: string) {
  return (await gql<EnableAccountMutation>(ops.EnableAccount, { userId })).enableAccount;
}

/** cash deposits or withdraws and returns the resulting balance. */
export async function cash(kind: 'deposit' | 'withdraw', userId: string, amount: string, idempotencyKey: string): Promise<{ amount: string; balance: string }> {
  const input = { input: { userId, amount, idempotencyKey, memo: 'cashier desk' } };
  if (kind === 'deposit') return (await gql<DepositMutation>(ops.Deposit, input)).deposit;
  return (await gql<WithdrawMutation>(ops.Withdraw, input)).withdraw;
}

export const tables = () => gql<TablesQuery>(ops.Tables);
export const setMinStake = (tableId: string, amount: string) => gql(ops.SetMinStake, { tableId, amount });
export const setCommission = (tableId: string, percent: string) => gql(ops.SetCommission, { tableId, percent });
export const pauseTable = (tableId: string) => gql(ops.PauseTable, { tableId });
export const resumeTable = (tableId: string) => gql(ops.ResumeTable, { tableId });
export const voidDraw = (drawId: string, reason: string) => gql(ops.VoidDraw, { drawId, reason });
export const jackpotTopUp = (amount: string, key: string) => gql(ops.JackpotTopUp, { amount, key });
export const setJackpotEnabled = (enabled: boolean) => gql(ops.SetJackpotEnabled, { enabled });

/** AuditFilter narrows the audit trail on the server; every field given must match (from inclusive, to exclusive, RFC 3339). */
export interface AuditFilter { actorId?: string; action?: string; tableId?: string; from?: string; to?: string }

/**
 * The actions the server records (domain/*: the account, cashier, tote,
 * protection and API key services), offered by the audit log's filter; an
 * action the list does not know yet is offered once an entry shows it.
 */
export const AUDIT_ACTIONS = [
  'VERIFICATION_APPROVED', 'VERIFICATION_REJECTED', 'ROLE_CHANGED', 'ACCOUNT_DISABLED', 'ACCOUNT_ENABLED', 'DEPOSIT', 'WITHDRAWAL',
  'TOTE_TABLE_CREATED', 'TOTE_TABLE_UPDATED', 'TOTE_TABLE_PAUSED', 'TOTE_TABLE_RESUMED', 'TOTE_DRAW_VOIDED',
  'TOTE_JACKPOT_TOPUP', 'TOTE_JACKPOT_ENABLED', 'EXCLUSION_REGISTER_ADDED', 'EXCLUSION_REGISTER_REMOVED',
  'API_KEY_CREATED', 'API_KEY_REVOKED', 'WEBHOOK_CREATED', 'WEBHOOK_DELETED', 'WEBHOOK_REPLAYED', 'BETTING_STOPPED', 'BETTING_RESUMED',
  'REPORT_EXPORTED', 'TRUSTED_DOCUMENTS_REGISTERED', 'TRUSTED_DOCUMENTS_REVOKED',
];

/** auditLog reads a page of the audit trail that f selects, newest first, and the cursor of the next (null at the end). */
export async function auditLog(first = 50, after?: string | null, f: AuditFilter = {}): Promise<{ rows: AuditEntry[]; next: string | null }> {
  const c = (await gql<AuditLogQuery>(ops.AuditLog, { first, after: after ?? null, ...f })).auditLog;
  return { rows: c.edges.map((e) => e.node), next: c.pageInfo.hasNextPage ? c.pageInfo.endCursor ?? null : null };
}
