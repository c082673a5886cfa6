import { useEffect, useRef, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import * as admin from '../api/admin';
import * as backoffice from '../api/reports';
import type { WebhookEventType, RejectionReason } from '../gql/graphql';
import { me, newKey } from '../api/account';
import { tiyn, fmtTiyn } from '../api/bets';
import { t, has, money, num, errorText, dateTime, fromOperatorTime } from '../i18n';
import { Field, Alert } from '../ui';

/** Admin: pending verifications, cashier (by email), tables (live), jackpot, audit log. */
export function Admin() {
  if (me.value?.role !== 'ADMIN') return <section><h1>{t('admin')}</h1><Alert kind="error">{t('err.FORBIDDEN')}</Alert></section>;
  return (
    <section class="admin" aria-labelledby="admin-h">
      <h1 id="admin-h">{t('admin')}</h1>
      <Pending />
      <Cashier />
      <TablesAdmin />
      <EmergencyStop />
      <Webhooks />
      <Audit />
    </section>
  );
}

type Msg = { kind: 'error' | 'ok'; text: string } | null;

function useAction() {
  const [msg, setMsg] = useState<Msg>(null);
  const run = async (f: () => Promise<string | void>) => {
    setMsg(null);
    try { const text = await f(); setMsg({ kind: 'ok', text: text || t('done') }); } catch (e) { setMsg({ kind: 'error', text: errorText(e) }); }
  };
  return [msg && <Alert kind={msg.kind}>{msg.text}</Alert>, run] as const;
}

/** useLive calls load now and every period ms while the page is open. */
function useLive(load: () => void, period: number) {
  useEffect(() => { load(); const id = setInterval(load, period); return () => clearInterval(id); }, []);
}

/**
 * Confirm asks before an action that cannot be taken back (void, pause):
 * the first click shows what will happen and two buttons; only Confirm acts.
 */
function Confirm({ label, question, onConfirm, children }: { label: string; question: string; onConfirm: () => void; children?: ComponentChildren }) {
  const [asking, setAsking] = useState(false);
  if (!asking) return <button type="button" onClick={() => setAsking(true)}>{label}</button>;
  return (
    <div class="confirm" role="alertdialog" aria-label={label} aria-describedby="confirm-q">
      <p id="confirm-q"><b>{question}</b></p>
      {children}
      <button type="button" class="danger" autoFocus onClick={() => { setAsking(false); onConfirm(); }}>{t('confirm')}</button>{' '}
      <button type="button" class="ghost" onClick={() => setAsking(false)}>{t('cancel')}</button>
    </div>
  );
}

/**
 * Pending: each verification with what to compare (the account's name and
 * date of birth beside the document's type, number hash and date of birth,
 * a mismatch marked); approve, or reject with a reason from the list that
 * the player reads in their language.
 */
function Pending() {
  const [items, setItems] = useState<admin.Pending[] | null>(null);
  const [msg, run] = useAction();
  const load = () => admin.pendingVerifications().then(setItems, () => undefined);
  useLive(load, 3000);
  const decide = (id: string, approve: boolean, why: RejectionReason | null) => run(async () => { await admin.decideVerification(id, approve, why); await load(); });
  return (
    <section aria-labelledby="pv-h">
      <h2 id="pv-h">{t('pendingVerifications')}</h2>
      {msg}
      {items === null ? <p class="muted" aria-busy="true">{t('loading')}</p> : items.length === 0 ? <p class="muted">{t('noEntries')}</p> : (
        <ul class="pending-list">
          {items.map((v) => <PendingRow key={v.id} v={v} decide={decide} />)}
        </ul>
      )}
    </section>
  );
}

function PendingRow({ v, decide }: { v: admin.Pending; decide: (id: string, approve: boolean, why: RejectionReason | null) => void }) {
  const [why, setWhy] = useState<RejectionReason | ''>('');
  const dobDiffers = v.user.dateOfBirth !== v.dateOfBirth;
  return (
    <li class="card-form" data-email={v.user.email} data-verification={v.id}>
      <dl class="compare">
        <dt>{t('name')}</dt><dd data-testid="pv-name">{v.user.name} · {v.user.email}</dd>
        <dt>{t('docType')}</dt><dd>{t(v.documentType)} · <code title={v.documentHash}>{v.documentHash.slice(0, 12)}…</code></dd>
        <dt>{t('dobAccount')}</dt><dd>{v.user.dateOfBirth} · {t('ageYears', { n: v.user.age })}</dd>
        <dt>{t('dobDocument')}</dt><dd data-testid="pv-dob" data-differs={dobDiffers ? '' : undefined}>{v.dateOfBirth}{dobDiffers && <b class="bad"> · {t('dobDiffers')}</b>}</dd>
        <dt>{t('submitted')}</dt><dd>{dateTime(v.submittedAt)}</dd>
      </dl>
      <div class="decide">
        <button type="button" onClick={() => decide(v.id, true, null)}>{t('approve')}</button>
        <Field label={t('rejectReason')}>
          <select name="reject-reason" value={why} onChange={(e) => setWhy((e.target as HTMLSelectElement).value as RejectionReason)}>
            <option value="">—</option>
            {admin.REJECTION_REASONS.map((r) => <option key={r} value={r}>{t('rej.' + r)}</option>)}
          </select>
        </Field>
        <button type="button" class="danger" disabled={!why} onClick={() => why && decide(v.id, false, why)}>{t('reject')}</button>
      </div>
    </li>
  );
}

/** Cashier: find the player by email, then deposit or withdraw; the answer echoes the amount, the player and the resulting balance. */
function Cashier() {
  const [email, setEmail] = useState('');
  const [user, setUser] = useState<admin.FoundUser | null>(null);
  const [amount, setAmount] = useState('');
  const [key, setKey] = useState(newKey());
  const [msg, run] = useAction();
  const find = () => run(async () => {
    setUser(null);
    const u = await admin.userByEmail(email);
    if (!u) throw { reason: 'NOT_FOUND' };
    setUser(u);
    return `${u.name} · ${u.email} · ${t('balance')} ${money(u.balance)}`;
  });
  const send = (kind: 'deposit' | 'withdraw') => run(async () => {
    if (!user) throw { reason: 'NOT_FOUND' };
    const a = tiyn(amount);
    if (a === null || a <= 0n) throw { reason: 'INVALID_AMOUNT' };
    const r = await admin.cash(kind, user.id, fmtTiyn(a), key);
    setKey(newKey());
    setUser({ ...user, balance: r.balance });
    return t('cashDone', { kind: t(kind), amount: money(r.amount), email: user.email, balance: money(r.balance) });
  });
  return (
    <section aria-labelledby="cash-h" class="card-form">
      <h2 id="cash-h">{t('cashier')}</h2>
      <form class="inline" onSubmit={(e) => { e.preventDefault(); void find(); }}>
        <Field label={t('userEmail')}><input name="cash-email" type="email" autocomplete="off" value={email} onInput={(e) => { setEmail((e.target as HTMLInputElement).value); setUser(null); setKey(newKey()); }} /></Field>
        <button type="submit">{t('find')}</button>
      </form>
      <p data-testid="cash-user" class="muted">{user ? `${user.name} · ${user.email} · ${t('balance')} ${money(user.balance)}` : '\u00a0'}</p>
      <Field label={t('amount')}><input name="cash-amount" inputMode="decimal" value={amount} onInput={(e) => { setAmount((e.target as HTMLInputElement).value); setKey(newKey()); }} /></Field>
      <p><button type="button" disabled={!user} onClick={() => send('deposit')}>{t('deposit')}</button> <button type="button" disabled={!user} onClick={() => send('withdraw')}>{t('withdraw')}</button></p>
      <div aria-live="polite" data-testid="cash-msg">{msg}</div>
      {user && <AccountState user={user} onChange={(u) => setUser({ ...user, ...u })} />}
    </section>
  );
}

/**
 * AccountState shows whether the found account is disabled (with the
 * reason and time) and disables it (a reason is required; confirmed first:
 * every session of the player ends at once) or enables it again.
 */
function AccountState({ user, onChange }: { user: admin.FoundUser; onChange: (u: Pick<admin.FoundUser, 'disabledAt' | 'disabledReason'>) => void }) {
  const [reason, setReason] = useState('');
  const [msg, run] = useAction();
  const disable = () => run(async () => {
    if (!reason.trim()) throw { reason: 'INVALID_REASON' };
    onChange(await admin.disableAccount(user.id, reason.trim()));
    setReason('');
    return t('accountDisabledDone', { email: user.email });
  });
  const enable = () => run(async () => { onChange(await admin.enableAccount(user.id)); return t('accountEnabledDone', { email: user.email }); });
  return (
    <div data-testid="account-state">
      {user.disabledAt
        ? <p><b>{t('accountDisabled', { at: dateTime(user.disabledAt) })}</b>{user.disabledReason ? ` · ${user.disabledReason}` : ''}</p>
        : <p class="muted">{t('accountEnabled')}</p>}
      {user.disabledAt
        ? <Confirm label={t('enableAccount')} question={t('enableAccountQ', { email: user.email })} onConfirm={() => void enable()} />
        : <>
          <Field label={t('disableReason')}><input name="disable-reason" autocomplete="off" maxLength={500} value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} /></Field>
          <Confirm label={t('disableAccount')} question={t('disableAccountQ', { email: user.email })} onConfirm={() => void disable()} />
        </>}
      <div aria-live="polite" data-testid="account-msg">{msg}</div>
    </div>
  );
}

/** The tables, refreshed every 2 s so status and the current draw never go stale; the inputs keep what the operator types. */
function TablesAdmin() {
  const [data, setData] = useState<admin.AdminTables | null>(null);
  const [msg, run] = useAction();
  const load = () => admin.tables().then(setData, () => undefined);
  useLive(load, 2000);
  const act = (f: () => Promise<unknown>) => run(async () => { await f(); await load(); });
  return (
    <section aria-labelledby="tadm-h">
      <h2 id="tadm-h">{t('tables')}</h2>
      {msg}
      {!data && <p class="muted" aria-busy="true">{t('loading')}</p>}
      {data?.tables.map((tb) => <TableRow key={tb.id} tb={tb} act={act} />)}
      {data && <Jackpot jp={data.jackpot} act={act} />}
      <CreateTable onCreated={load} />
      <ApiKeys />
    </section>
  );
}

/**
 * moneyOf reads an amount typed the one way every money input takes it
 * ("100", "100,5", "100.50"), as the API writes it ("100.50"); it throws
 * INVALID_AMOUNT otherwise.
 */
function moneyOf(s: string): string {
  const v = tiyn(s);
  if (v === null) throw { reason: 'INVALID_AMOUNT' };
  return fmtTiyn(v);
}

/** percentOf reads a percentage typed with a comma or a dot ("4,5", "4.50") as the API writes it; it throws INVALID_PERCENT otherwise. */
function percentOf(s: string): string {
  const m = /^(\d{1,2})(?:[.,](\d{1,2}))?$/.exec(s.trim().replace(/%$/, '').trim());
  if (!m) throw { reason: 'INVALID_PERCENT' };
  return `${m[1]}.${(m[2] ?? '').padEnd(2, '0')}`;
}

/** CreateTable: a new table's name, positions, stakes and commission (the rest takes the server's defaults). */
function CreateTable({ onCreated }: { onCreated: () => void }) {
  const [f, setF] = useState({ name: '', positions: '6', minStake: '100', maxStake: '', commission: '' });
  const [msg, run] = useAction();
  const set = (k: keyof typeof f) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLInputElement).value });
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      if (!f.name.trim()) throw { reason: 'INVALID_NAME' };
      const input: admin.NewTable = { name: f.name.trim(), positions: Number(f.positions), minStake: moneyOf(f.minStake) };
      if (f.maxStake.trim()) input.maxStake = moneyOf(f.maxStake);
      if (f.commission.trim()) input.commission = percentOf(f.commission);
      const tb = await admin.createTable(input);
      setF({ ...f, name: '' });
      onCreated();
      return t('tableCreated', { name: tb.name, n: tb.positions });
    });
  };
  return (
    <form class="card-form" aria-labelledby="ct-h" data-testid="create-table" onSubmit={submit}>
      <h3 id="ct-h">{t('createTable')}</h3>
      <div class="filters">
        <Field label={t('tableName')}><input name="table-name" required maxLength={100} value={f.name} onInput={set('name')} /></Field>
        <Field label={t('positions')}>
          <select name="table-positions" value={f.positions} onChange={set('positions')}>
            {Array.from({ length: 9 }, (_, i) => String(i + 2)).map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </Field>
        <Field label={t('minStake')} hint={t('moneyHint')}><input name="table-min" inputMode="decimal" value={f.minStake} onInput={set('minStake')} /></Field>
        <Field label={t('maxStake')} hint={t('moneyHint')}><input name="table-max" inputMode="decimal" value={f.maxStake} onInput={set('maxStake')} /></Field>
        <Field label={t('commission')} hint={t('percentHint')}><input name="table-commission" inputMode="decimal" value={f.commission} onInput={set('commission')} /></Field>
      </div>
      <button type="submit">{t('createTable')}</button>
      <div aria-live="polite" data-testid="create-table-msg">{msg}</div>
    </form>
  );
}

/** ApiKeys: partners' keys; a new key's secret is shown once; a key is revoked after a confirmation. */
function ApiKeys() {
  const [list, setList] = useState<admin.ApiKey[] | null>(null);
  const [name, setName] = useState('');
  const [rpm, setRpm] = useState('600');
  const [secret, setSecret] = useState<string | null>(null);
  const [msg, run] = useAction();
  const load = () => admin.apiKeys().then(setList, () => undefined);
  useLive(load, 10000);
  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const n = Number(rpm);
      if (!Number.isInteger(n) || n < 1 || n > 60000) throw { reason: 'INVALID_RATE' };
      const c = await admin.createApiKey(name.trim(), n);
      setSecret(c.key);
      setName('');
      await load();
      return t('apiKeyCreated', { name: c.apiKey.name });
    });
  };
  return (
    <section aria-labelledby="keys-h" data-testid="api-keys">
      <h2 id="keys-h">{t('apiKeys')}</h2>
      {secret && <Alert kind="ok"><span>{t('apiKeyOnce')}: </span><code class="secret" data-testid="api-key-secret">{secret}</code> <button type="button" class="ghost" onClick={() => setSecret(null)}>{t('dismiss')}</button></Alert>}
      <form class="inline" onSubmit={create}>
        <Field label={t('apiKeyName')}><input name="api-key-name" required maxLength={100} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} /></Field>
        <Field label={t('apiKeyRate')}><input name="api-key-rate" inputMode="numeric" value={rpm} onInput={(e) => setRpm((e.target as HTMLInputElement).value)} /></Field>
        <button type="submit">{t('apiKeyCreate')}</button>
      </form>
      <div aria-live="polite">{msg}</div>
      {list === null ? <p class="muted" aria-busy="true">{t('loading')}</p> : list.length === 0 ? <p class="muted">{t('noEntries')}</p> : (
        <table class="bets wrap">
          <thead><tr><th scope="col">{t('apiKeyName')}</th><th scope="col">ID</th><th scope="col">{t('apiKeyRate')}</th><th scope="col">{t('status')}</th></tr></thead>
          <tbody>
            {list.map((k) => (
              <tr key={k.id} data-api-key={k.id} data-revoked={k.revokedAt ? '' : undefined}>
                <td>{k.name}<br /><small class="muted">{dateTime(k.createdAt)}</small></td><td><code>ptk_{k.id}</code></td><td class="num">{num(k.requestsPerMinute)}</td>
                <td>{k.revokedAt ? <span>{t('apiKeyRevoked', { at: dateTime(k.revokedAt) })}</span>
                  : <Confirm label={t('apiKeyRevoke')} question={t('apiKeyRevokeQ', { name: k.name })} onConfirm={() => void run(async () => { await admin.revokeApiKey(k.id); await load(); })} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function TableRow({ tb, act }: { tb: admin.AdminTables['tables'][number]; act: (f: () => Promise<unknown>) => void }) {
  const [min, setMin] = useState(tb.settings.minStake);
  const [com, setCom] = useState(tb.settings.commission);
  const [reason, setReason] = useState('');
  const d = tb.currentDraw;
  return (
    <fieldset class="card-form" data-admin-table={tb.id} data-status={tb.status}>
      <legend>{tb.name} · {tb.status === 'PAUSED' ? t('paused') : t('running')}{d && <> · {t('draw')} #{d.number} · {t(d.phase)}</>}</legend>
      <Field label={t('minStake')}><input name={`min-${tb.id}`} value={min} onInput={(e) => setMin((e.target as HTMLInputElement).value)} /></Field>
      <button type="button" onClick={() => act(() => admin.setMinStake(tb.id, moneyOf(min)))}>{t('save')}</button>
      <Field label={t('commission')} hint={t('percentHint')}><input name={`com-${tb.id}`} inputMode="decimal" value={com} onInput={(e) => setCom((e.target as HTMLInputElement).value)} /></Field>
      <button type="button" onClick={() => act(() => admin.setCommission(tb.id, percentOf(com)))}>{t('save')}</button>
      <div class="admin-actions">{tb.status === 'PAUSED'
        ? <button type="button" onClick={() => act(() => admin.resumeTable(tb.id))}>{t('resume')}</button>
        : <Confirm label={t('pause')} question={t('confirmPause', { name: tb.name })} onConfirm={() => act(() => admin.pauseTable(tb.id))} />}</div>
      {d && d.openRound === 'PRE_DEAL' && (
        <div class="admin-actions" data-testid="void-form">
          <Field label={t('voidReasonStaff')} hint={t('voidReasonHint')}><input name={`void-${tb.id}`} maxLength={500} value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} /></Field>
          <Confirm key={d.id} label={`${t('voidDraw')} #${d.number}`} question={t('confirmVoid', { n: d.number })} onConfirm={() => act(async () => { if (!reason.trim()) throw { reason: 'INVALID_REASON' }; await admin.voidDraw(d.id, reason.trim()); })} />
        </div>
      )}
      {d && d.phase !== 'SETTLED' && d.phase !== 'VOID' && d.openRound !== 'PRE_DEAL' && <p class="muted" data-testid="void-closed">{t('voidOnlyRound1')}</p>}
    </fieldset>
  );
}

function Jackpot({ jp, act }: { jp: admin.AdminTables['jackpot']; act: (f: () => Promise<unknown>) => void }) {
  const [amount, setAmount] = useState('');
  const [key, setKey] = useState(newKey());
  return (
    <fieldset class="card-form">
      <legend>{t('jackpot')}: {money(jp.balance)}</legend>
      <Field label={t('amount')}><input name="jackpot-amount" value={amount} onInput={(e) => { setAmount((e.target as HTMLInputElement).value); setKey(newKey()); }} /></Field>
      <button type="button" onClick={() => act(async () => { await admin.jackpotTopUp(moneyOf(amount), key); setKey(newKey()); })}>{t('topUp')}</button>
      <p data-testid="jackpot-state">{jp.enabled ? t('jackpotOn') : t('jackpotOff')}{' '}
        {jp.enabled
          ? <Confirm label={t('jackpotDisable')} question={t('jackpotDisableQ')} onConfirm={() => act(() => admin.setJackpotEnabled(false))} />
          : <Confirm label={t('jackpotEnable')} question={t('jackpotEnableQ')} onConfirm={() => act(() => admin.setJackpotEnabled(true))} />}</p>
    </fieldset>
  );
}

/**
 * Audit: the admin actions, newest first, filtered on the server (action,
 * who acted by email, table, a time range typed in the operator's zone) and
 * paged with the connection's cursor; the first page is refreshed every 5 s
 * under the same filters. A filter applies when it is changed (a select at
 * once, a typed field when it is left or Enter is pressed).
 */
/** EmergencyStop: the state of the stop of all betting, and the stop and the resume (each asks first). */
function EmergencyStop() {
  const [st, setSt] = useState<backoffice.Stop | null>(null);
  const [reason, setReason] = useState('');
  const [msg, run] = useAction();
  const load = () => backoffice.stopState().then(setSt, () => undefined);
  useLive(load, 3000);
  return (
    <section aria-labelledby="stop-h" data-testid="emergency-stop" data-stopped={st ? String(st.stopped) : ''}>
      <h2 id="stop-h">{t('emergencyStop')}</h2>
      {msg}
      {st === null ? <p class="muted" aria-busy="true">{t('loading')}</p> : st.stopped ? (
        <>
          <Alert kind="error">{t('stopStopped', { at: dateTime(st.since) })}</Alert>
          <Confirm label={t('resumeAll')} question={t('resumeQ')} onConfirm={() => run(async () => { await backoffice.resumeAll(); await load(); })} />
        </>
      ) : (
        <>
          <p class="muted">{t('stopRunning')}</p>
          <Field label={t('reason')}><input name="stop-reason" value={reason} maxLength={500} onInput={(e) => setReason((e.target as HTMLInputElement).value)} /></Field>
          <Confirm label={t('stopAll')} question={t('stopQ')} onConfirm={() => run(async () => { await backoffice.stopAll(reason); setReason(''); await load(); })} />
        </>
      )}
    </section>
  );
}

const WEBHOOK_TYPES: WebhookEventType[] = ['DRAW_SETTLED', 'DRAW_VOIDED', 'TABLE_CREATED', 'TABLE_CHANGED',
  'REGULATOR_BET_ACCEPTED', 'REGULATOR_BET_SETTLED', 'REGULATOR_DEPOSIT', 'REGULATOR_WITHDRAWAL', 'REGULATOR_PROTECTION_CHANGED'];

/** Webhooks: partners' endpoints with their delivery state; register one (the secret shown once), replay, remove. */
function Webhooks() {
  const [list, setList] = useState<backoffice.Endpoint[] | null>(null);
  const [url, setUrl] = useState('');
  const [desc, setDesc] = useState('');
  const [types, setTypes] = useState<WebhookEventType[]>(['DRAW_SETTLED', 'DRAW_VOIDED']);
  const [secret, setSecret] = useState<string | null>(null);
  const [msg, run] = useAction();
  const load = () => backoffice.endpoints().then(setList, () => undefined);
  useLive(load, 5000);
  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const c = await backoffice.createEndpoint(url.trim(), types, desc.trim());
      setSecret(c.secret);
      setUrl('');
      setDesc('');
      await load();
    });
  };
  const toggle = (ty: WebhookEventType) => setTypes(types.includes(ty) ? types.filter((x) => x !== ty) : [...types, ty]);
  return (
    <section aria-labelledby="wh-h" data-testid="webhooks">
      <h2 id="wh-h">{t('webhooks')}</h2>
      {msg}
      {secret && <Alert kind="ok"><span>{t('whSecret')}: </span><code class="secret" data-testid="webhook-secret">{secret}</code></Alert>}
      <form onSubmit={create}>
        <Field label={t('whUrl')}><input name="webhook-url" type="url" required value={url} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} /></Field>
        <Field label={t('whDescription')}><input name="webhook-description" maxLength={200} value={desc} onInput={(e) => setDesc((e.target as HTMLInputElement).value)} /></Field>
        <fieldset><legend>{t('whTypes')}</legend>
          {WEBHOOK_TYPES.map((ty) => (
            <label key={ty} class="check"><input type="checkbox" name="webhook-type" value={ty} checked={types.includes(ty)} onChange={() => toggle(ty)} /> {ty.toLowerCase().replace(/_/g, '.')}</label>
          ))}
        </fieldset>
        <button type="submit">{t('whCreate')}</button>
      </form>
      {list === null ? <p class="muted" aria-busy="true">{t('loading')}</p> : list.length === 0 ? <p class="muted">{t('whNone')}</p> : (
        <table class="bets">
          <thead><tr><th scope="col">{t('whUrl')}</th><th scope="col">{t('whTypes')}</th><th scope="col">{t('whDelivered')}</th><th scope="col">{t('status')}</th><th scope="col"><span class="sr-only">{t('whDelete')}</span></th></tr></thead>
          <tbody>
            {list.map((ep) => <EndpointRow key={ep.id} ep={ep} act={(f) => run(async () => { await f(); await load(); })} />)}
          </tbody>
        </table>
      )}
    </section>
  );
}

function EndpointRow({ ep, act }: { ep: backoffice.Endpoint; act: (f: () => Promise<unknown>) => void }) {
  const [from, setFrom] = useState('');
  return (
    <tr data-endpoint={ep.id}>
      <td>{ep.url}<br /><span class="muted">{ep.description}</span></td>
      <td>{ep.eventTypes.length}</td>
      <td class="num">{num(ep.delivered)}</td>
      <td>
        {ep.parkedAt ? <b>{t('whParked')}: {dateTime(ep.parkedAt)}</b> : ep.failingSince ? <span>{t('whFailing')} {dateTime(ep.failingSince)}</span> : <span class="muted">OK</span>}
        {ep.lastError && <><br /><span class="muted">{ep.lastError}</span></>}
      </td>
      <td>
        <input name="replay-from" aria-label={t('whReplay')} placeholder="evt_1_1" value={from} size={10} onInput={(e) => setFrom((e.target as HTMLInputElement).value)} />{' '}
        <button type="button" class="ghost" onClick={() => act(() => backoffice.replayEndpoint(ep.id, from.trim()))}>{from.trim() ? t('whReplay') : t('whResume')}</button>{' '}
        <Confirm label={t('whDelete')} question={t('whDeleteQ')} onConfirm={() => act(() => backoffice.deleteEndpoint(ep.id))} />
      </td>
    </tr>
  );
}

function Audit() {
  const [rows, setRows] = useState<admin.AuditEntry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [extra, setExtra] = useState<admin.AuditEntry[]>([]);
  const [tables, setTables] = useState<{ id: string; name: string }[]>([]);
  const [draft, setDraft] = useState({ action: '', actor: '', table: '', from: '', to: '' });
  const [problem, setProblem] = useState('');
  // The filters in force (the server's arguments), a generation so that an
  // answer to older filters is dropped, and whether older pages are shown.
  const applied = useRef<admin.AuditFilter | null>({});
  const gen = useRef(0);
  const paged = useRef(false);
  const load = async (fresh = false) => {
    const g = fresh ? ++gen.current : gen.current;
    const f = applied.current;
    if (f === null) { setRows([]); setNext(null); return; } // an actor no one is
    try {
      const p = await admin.auditLog(50, null, f);
      if (g !== gen.current) return;
      setRows(p.rows);
      if (!paged.current) setNext(p.next);
    } catch (e) { if (g === gen.current) setProblem(errorText(e)); }
  };
  useLive(() => { void load(); }, 5000);
  useEffect(() => { admin.tables().then((d) => setTables(d.tables.map((x) => ({ id: x.id, name: x.name }))), () => undefined); }, []);
  const apply = async (d: typeof draft) => {
    const g = ++gen.current;
    setProblem('');
    let f: admin.AuditFilter | null = {};
    if (d.action) f.action = d.action;
    if (d.table) f.tableId = d.table;
    for (const k of ['from', 'to'] as const) {
      if (!d[k]) continue;
      const at = fromOperatorTime(d[k]);
      if (!at) { setProblem(t('badTime')); return; }
      f[k] = at;
    }
    if (d.actor.trim()) {
      try {
        const u = await admin.userByEmail(d.actor.trim());
        if (g !== gen.current) return;
        if (u) f.actorId = u.id; else { f = null; setProblem(t('noSuchUser')); }
      } catch (e) { setProblem(errorText(e)); return; }
    }
    applied.current = f;
    paged.current = false;
    setExtra([]);
    setRows(null);
    await load(true);
  };
  const change = (k: keyof typeof draft, now: boolean) => (e: Event) => {
    const d = { ...draft, [k]: (e.target as HTMLInputElement).value };
    setDraft(d);
    if (now) void apply(d);
  };
  const more = async () => {
    const f = applied.current;
    if (!next || f === null) return;
    const g = gen.current;
    const p = await admin.auditLog(50, next, f);
    if (g !== gen.current) return;
    paged.current = true;
    setExtra([...extra, ...p.rows]);
    setNext(p.next);
  };
  const seen = new Set<string>();
  const shown = [...(rows ?? []), ...extra].filter((r) => !seen.has(r.id) && seen.add(r.id));
  const actions = [...new Set([...admin.AUDIT_ACTIONS, ...shown.map((r) => r.action)])];
  return (
    <section aria-labelledby="audit-h" class="audit">
      <h2 id="audit-h">{t('auditLog')}</h2>
      <form class="filters" data-testid="audit-filters" onSubmit={(e) => { e.preventDefault(); void apply(draft); }}>
        <Field label={t('action')}>
          <select name="audit-action" value={draft.action} onChange={change('action', true)}>
            <option value="">{t('any')}</option>
            {actions.map((a) => <option key={a} value={a}>{actionText(a)}</option>)}
          </select>
        </Field>
        <Field label={t('filterActor')}><input name="audit-actor" type="email" autocomplete="off" value={draft.actor} onInput={change('actor', false)} onChange={change('actor', true)} /></Field>
        <Field label={t('table')}>
          <select name="audit-table" value={draft.table} onChange={change('table', true)}>
            <option value="">{t('any')}</option>
            {tables.map((x) => <option key={x.id} value={x.id}>{x.name}</option>)}
          </select>
        </Field>
        <Field label={t('fromTime')}><input name="audit-from" type="datetime-local" value={draft.from} onInput={change('from', false)} onChange={change('from', true)} /></Field>
        <Field label={t('toTime')}><input name="audit-to" type="datetime-local" value={draft.to} onInput={change('to', false)} onChange={change('to', true)} /></Field>
        <button type="submit">{t('applyFilters')}</button>
      </form>
      <div class="field-msg" aria-live="polite">{problem && <Alert kind="error">{problem}</Alert>}</div>
      {rows === null ? <p class="muted" aria-busy="true">{t('loading')}</p> : shown.length === 0 ? <p class="muted" data-testid="audit-empty">{t('noEntries')}</p> : (
        <table class="bets" data-testid="audit">
          <thead><tr><th scope="col">{t('date')}</th><th scope="col">{t('actor')}</th><th scope="col">{t('action')}</th><th scope="col">{t('details')}</th></tr></thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.id} data-action={r.action} data-subject={r.subject}>
                <td class="num"><small>{dateTime(r.createdAt)}</small></td><td>{r.actor?.email ?? '—'}</td>
                <td>{actionText(r.action)}<br /><small><code>{r.action}</code>{r.subject && <> · {subjectText(r.subject)}</>}</small></td>
                <td data-testid="audit-detail">{r.changes.length > 0
                  ? <ul class="changes">{r.changes.map((c) => <li key={c.field}>{fieldText(c.field)}: {c.from || '—'} → {c.to || '—'}</li>)}</ul>
                  : subjectText(r.subject)}
                  <details><summary>{t('staffNote')}</summary><small lang="en">{r.detail}</small></details></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next && <p><button type="button" class="ghost" onClick={more}>{t('more')}</button></p>}
    </section>
  );
}

/** subjectText names what an audit entry concerns ("table:2" → "Стол 2"). */
function subjectText(subject: string): string {
  const [kind, id] = subject.split(':');
  return kind && id && has('subj.' + kind) ? t('subj.' + kind, { id }) : subject;
}

/** fieldText names a changed setting in the interface's language (the field's own name when the catalogue does not know it). */
function fieldText(f: string): string {
  return has('field.' + f) ? t('field.' + f) : f;
}

/** actionText names an audit action in the interface's language (the code itself when the catalogue does not know it). */
function actionText(a: string): string {
  return has('audit.' + a) ? t('audit.' + a) : a;
}
