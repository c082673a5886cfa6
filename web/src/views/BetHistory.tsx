import { useEffect, useState } from 'preact/hooks';
import { me, userTick } from '../api/account';
import { betHistory, ALL_MARKETS, type HistoryBet } from '../api/bets';
import { t, money, dateTime, tableName, errorText } from '../i18n';
import { Field, Alert, Link } from '../ui';
import { selectionText } from './Table';

const STATUSES = ['ACCEPTED', 'WON', 'LOST', 'REFUNDED'];
const MARKETS = ALL_MARKETS;

/**
 * BetHistory: the player's bets across draws and tables, newest first, a
 * page at a time, filtered by status, market and table; each row names its
 * table and draw and links to the draw's check.
 */
export function BetHistory() {
  const user = me.value;
  const [rows, setRows] = useState<HistoryBet[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [f, setF] = useState({ status: '', market: '', table: '' });
  const [err, setErr] = useState('');
  useEffect(() => { if (user) betHistory(50).then((p) => { setRows(p.rows); setNext(p.next); }, (e) => setErr(errorText(e))); }, [!!user, userTick.value]);
  if (!user) return <section><h1>{t('betHistory')}</h1><p><Link href="/account">{t('signIn')}</Link></p></section>;
  const more = async () => { if (!next) return; const p = await betHistory(50, next); setRows([...(rows ?? []), ...p.rows]); setNext(p.next); };
  const tables = [...new Map((rows ?? []).map((b) => [b.draw.table.id, b.draw.table.name])).entries()];
  const shown = (rows ?? []).filter((b) => (!f.status || b.status === f.status) && (!f.market || b.market === f.market) && (!f.table || b.draw.table.id === f.table));
  const set = (k: keyof typeof f) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLSelectElement).value });
  return (
    <section aria-labelledby="bh-h" class="bet-history">
      <h1 id="bh-h">{t('betHistory')}</h1>
      {err && <Alert kind="error">{err}</Alert>}
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label={t('status')}><select name="bh-status" value={f.status} onChange={set('status')}><option value="">{t('any')}</option>{STATUSES.map((s) => <option key={s} value={s}>{t(s)}</option>)}</select></Field>
        <Field label={t('market')}><select name="bh-market" value={f.market} onChange={set('market')}><option value="">{t('any')}</option>{MARKETS.map((m) => <option key={m} value={m}>{t(m)}</option>)}</select></Field>
        <Field label={t('table')}><select name="bh-table" value={f.table} onChange={set('table')}><option value="">{t('any')}</option>{tables.map(([id, name]) => <option key={id} value={id}>{tableName(name)}</option>)}</select></Field>
      </form>
      {rows === null ? <p class="muted" aria-busy="true">{t('loading')}</p> : shown.length === 0 ? <p class="muted" data-testid="bh-empty">{t('noEntries')}</p> : (
        <table class="bets stack" data-testid="bet-history">
          <thead><tr><th scope="col">{t('date')}</th><th scope="col">{t('draw')}</th><th scope="col">{t('selection')}</th><th scope="col">{t('stake')}</th><th scope="col">{t('status')}</th><th scope="col">{t('payout')}</th></tr></thead>
          <tbody>{shown.map((b) => (
            <tr key={b.id} data-bet={b.id} data-status={b.status} data-market={b.market}>
              <td data-label={t('date')}><small>{dateTime(b.placedAt)}</small></td>
              <td data-label={t('draw')}>{tableName(b.draw.table.name)} · <Link href={`/verify?draw=${b.draw.id}`}>#{b.draw.number}</Link></td>
              <td data-label={t('selection')}>{t(b.round)} · {t(b.market)}: <b>{selectionText(b.market, b.selection)}</b></td>
              <td class="num" data-label={t('stake')}>{money(b.stake)}</td>
              <td data-label={t('status')}>{t(b.status)}</td>
              <td class="num" data-label={t('payout')}>{b.status === 'ACCEPTED' ? '—' : money(b.payout)}</td>
            </tr>
          ))}</tbody>
        </table>
      )}
      {next && <p><button type="button" class="ghost" onClick={() => void more()}>{t('more')}</button></p>}
    </section>
  );
}
