import { useEffect, useRef, useState } from 'preact/hooks';
import { me, userTick } from '../api/account';
import { betHistory, ALL_MARKETS, type HistoryBet, type HistoryFilter } from '../api/bets';
import { listTables } from '../api/table';
import { t, money, dateTime, tableName, errorText } from '../i18n';
import { Field, Alert, Link } from '../ui';
import { selectionText } from './Table';
import type { BetStatus } from '../gql/graphql';

const STATUSES: BetStatus[] = ['ACCEPTED', 'WON', 'LOST', 'REFUNDED'];
const MARKETS = ALL_MARKETS;
const PAGE = 50;

/**
 * BetHistory: the player's bets across draws and tables, newest first, a
 * page at a time, filtered by status, market and table on the server (a
 * filter reloads from the first page, and "more" continues the filtered
 * list); each row names its table and draw and links to the draw's check.
 */
export function BetHistory() {
  const user = me.value;
  const [rows, setRows] = useState<HistoryBet[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [f, setF] = useState<HistoryFilter>({ status: '', market: '', table: '' });
  const [tables, setTables] = useState<Map<string, string>>(new Map());
  const [err, setErr] = useState('');
  // Only the newest request may fill the list: an answer for a filter the
  // player has since changed is dropped.
  const req = useRef(0);
  const load = (after: string | null, keep: HistoryBet[]) => {
    const n = ++req.current;
    betHistory(PAGE, after, f).then((p) => {
      if (n !== req.current) return;
      setRows([...keep, ...p.rows]); setNext(p.next); setErr('');
    }, (e) => { if (n === req.current) setErr(errorText(e)); });
  };
  useEffect(() => { if (user) { setRows(null); setNext(null); load(null, []); } }, [!!user, userTick.value, f.status, f.market, f.table]);
  // The table filter offers every table, not only those of the loaded rows.
  useEffect(() => { if (user) listTables().then((d) => setTables(new Map(d.tables.map((x) => [x.id, x.name]))), () => undefined); }, [!!user]);
  if (!user) return <section><h1>{t('betHistory')}</h1><p><Link href="/account">{t('signIn')}</Link></p></section>;
  const more = () => { if (next && rows) load(next, rows); };
  const known = new Map(tables);
  for (const b of rows ?? []) if (!known.has(b.draw.table.id)) known.set(b.draw.table.id, b.draw.table.name);
  const shown = rows ?? [];
  const set = (k: keyof HistoryFilter) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLSelectElement).value } as HistoryFilter);
  return (
    <section aria-labelledby="bh-h" class="bet-history">
      <h1 id="bh-h">{t('betHistory')}</h1>
      {err && <Alert kind="error">{err}</Alert>}
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label={t('status')}><select name="bh-status" value={f.status} onChange={set('status')}><option value="">{t('any')}</option>{STATUSES.map((s) => <option key={s} value={s}>{t(s)}</option>)}</select></Field>
        <Field label={t('market')}><select name="bh-market" value={f.market} onChange={set('market')}><option value="">{t('any')}</option>{MARKETS.map((m) => <option key={m} value={m}>{t(m)}</option>)}</select></Field>
        <Field label={t('table')}><select name="bh-table" value={f.table} onChange={set('table')}><option value="">{t('any')}</option>{[...known.entries()].map(([id, name]) => <option key={id} value={id}>{tableName(name)}</option>)}</select></Field>
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
