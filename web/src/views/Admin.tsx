import { useEffect, useState } from 'preact/hooks';
import { gql } from '../api/client';
import * as ops from '../api/ops';
import type { TablesQuery } from '../gql/graphql';
import { pendingVerifications, type Pending as PendingRow } from '../api/admin';
import { me, newKey } from '../api/account';
import { tiyn, fmtTiyn } from '../api/bets';
import { t, money, errorText } from '../i18n';
import { Field, Alert } from '../ui';

/** Admin: pending verifications, cashier, tables, jackpot. */
export function Admin() {
  if (me.value?.role !== 'ADMIN') return <section><h1>{t('admin')}</h1><Alert kind="error">{t('err.FORBIDDEN')}</Alert></section>;
  return (
    <section class="admin" aria-labelledby="admin-h">
      <h1 id="admin-h">{t('admin')}</h1>
      <Pending />
      <Cashier />
      <TablesAdmin />
    </section>
  );
}

function useAction() {
  const [msg, setMsg] = useState<{ kind: 'error' | 'ok'; text: string } | null>(null);
  const run = async (f: () => Promise<unknown>) => {
    setMsg(null);
    try { await f(); setMsg({ kind: 'ok', text: t('done') }); } catch (e) { setMsg({ kind: 'error', text: errorText(e) }); }
  };
  return [msg && <Alert kind={msg.kind}>{msg.text}</Alert>, run] as const;
}

function Pending() {
  const [items, setItems] = useState<PendingRow[]>([]);
  const [msg, run] = useAction();
  const load = () => pendingVerifications().then(setItems, () => undefined);
  useEffect(() => { load(); const id = setInterval(load, 3000); return () => clearInterval(id); }, []);
  const decide = (id: string, approve: boolean) => run(async () => { await gql(ops.DecideVerification, { input: { id, approve, reason: approve ? null : 'document unreadable' } }); await load(); });
  return (
    <section aria-labelledby="pv-h">
      <h2 id="pv-h">{t('pendingVerifications')}</h2>
      {msg}
      <table class="bets">
        <thead><tr><th scope="col">{t('email')}</th><th scope="col">{t('docType')}</th><th scope="col">{t('dob')}</th><th scope="col"><span class="sr-only">{t('status')}</span></th></tr></thead>
        <tbody>
          {items.map((v) => (
            <tr key={v.id} data-email={v.user.email}>
              <td>{v.user.email} <small>({v.user.id})</small></td><td>{t(v.documentType)}</td><td>{v.dateOfBirth}</td>
              <td><button type="button" onClick={() => decide(v.id, true)}>{t('approve')}</button> <button type="button" onClick={() => decide(v.id, false)}>{t('reject')}</button></td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Cashier() {
  const [userId, setUserId] = useState('');
  const [amount, setAmount] = useState('');
  const [key, setKey] = useState(newKey());
  const [msg, run] = useAction();
  const send = (doc: string) => run(async () => {
    const a = tiyn(amount);
    if (a === null || a <= 0n) throw { reason: 'INVALID_AMOUNT' };
    await gql(doc, { input: { userId, amount: fmtTiyn(a), idempotencyKey: key, memo: 'cashier desk' } });
    setKey(newKey());
  });
  return (
    <section aria-labelledby="cash-h" class="card-form">
      <h2 id="cash-h">{t('cashier')}</h2>
      <Field label={t('userId')}><input name="cash-user" value={userId} onInput={(e) => { setUserId((e.target as HTMLInputElement).value); setKey(newKey()); }} /></Field>
      <Field label={t('amount')}><input name="cash-amount" inputMode="decimal" value={amount} onInput={(e) => { setAmount((e.target as HTMLInputElement).value); setKey(newKey()); }} /></Field>
      <p><button type="button" onClick={() => send(ops.Deposit)}>{t('deposit')}</button> <button type="button" onClick={() => send(ops.Withdraw)}>{t('withdraw')}</button></p>
      {msg}
    </section>
  );
}

function TablesAdmin() {
  const [data, setData] = useState<TablesQuery | null>(null);
  const [msg, run] = useAction();
  const load = () => gql<TablesQuery>(ops.Tables).then(setData, () => undefined);
  useEffect(() => { load(); }, []);
  const act = (f: () => Promise<unknown>) => run(async () => { await f(); await load(); });
  return (
    <section aria-labelledby="tadm-h">
      <h2 id="tadm-h">{t('tables')}</h2>
      {msg}
      {data?.tables.map((tb) => <TableRow key={tb.id} tb={tb} act={act} />)}
      {data && <Jackpot jp={data.jackpot} act={act} />}
    </section>
  );
}

function TableRow({ tb, act }: { tb: TablesQuery['tables'][number]; act: (f: () => Promise<unknown>) => void }) {
  const [min, setMin] = useState(tb.settings.minStake);
  const [com, setCom] = useState(tb.settings.commission);
  const [reason, setReason] = useState('');
  return (
    <fieldset class="card-form" data-admin-table={tb.id}>
      <legend>{tb.name} · {tb.status === 'PAUSED' ? t('paused') : t('running')}</legend>
      <Field label={t('minStake')}><input name={`min-${tb.id}`} value={min} onInput={(e) => setMin((e.target as HTMLInputElement).value)} /></Field>
      <button type="button" onClick={() => act(() => gql(ops.SetMinStake, { tableId: tb.id, amount: min }))}>{t('save')}</button>
      <Field label={t('commission')}><input name={`com-${tb.id}`} value={com} onInput={(e) => setCom((e.target as HTMLInputElement).value)} /></Field>
      <button type="button" onClick={() => act(() => gql(ops.SetCommission, { tableId: tb.id, percent: com }))}>{t('save')}</button>
      <p>{tb.status === 'PAUSED'
        ? <button type="button" onClick={() => act(() => gql(ops.ResumeTable, { tableId: tb.id }))}>{t('resume')}</button>
        : <button type="button" onClick={() => act(() => gql(ops.PauseTable, { tableId: tb.id }))}>{t('pause')}</button>}</p>
      {tb.currentDraw && tb.currentDraw.phase !== 'SETTLED' && tb.currentDraw.phase !== 'VOID' && (
        <p>
          <Field label={t('reason')}><input name={`void-${tb.id}`} value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} /></Field>
          <button type="button" onClick={() => act(() => gql(ops.VoidDraw, { drawId: tb.currentDraw!.id, reason: reason || 'operator' }))}>{t('voidDraw')} #{tb.currentDraw.number}</button>
        </p>
      )}
    </fieldset>
  );
}

function Jackpot({ jp, act }: { jp: TablesQuery['jackpot']; act: (f: () => Promise<unknown>) => void }) {
  const [amount, setAmount] = useState('');
  const [key, setKey] = useState(newKey());
  return (
    <fieldset class="card-form">
      <legend>{t('jackpot')}: {money(jp.balance)}</legend>
      <Field label={t('amount')}><input name="jackpot-amount" value={amount} onInput={(e) => { setAmount((e.target as HTMLInputElement).value); setKey(newKey()); }} /></Field>
      <button type="button" onClick={() => act(async () => { await gql(ops.JackpotTopUp, { amount, key }); setKey(newKey()); })}>{t('topUp')}</button>
      <label class="radio"><input type="checkbox" checked={jp.enabled} onChange={(e) => act(() => gql(ops.SetJackpotEnabled, { enabled: (e.target as HTMLInputElement).checked }))} /> {t('enabled')}</label>
    </fieldset>
  );
}
