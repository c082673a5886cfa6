import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import * as reports from '../api/reports';
import { me } from '../api/account';
import { t, money, num, errorText, dateTime, lang } from '../i18n';
import { Alert } from '../ui';

/** The money figures the tables show, in order (docs/reports.md). */
const FIGURES: { key: keyof reports.Figures; label: string }[] = [
  { key: 'handle', label: 'rHandle' }, { key: 'payouts', label: 'rPayouts' }, { key: 'refunds', label: 'rRefunds' },
  { key: 'ggr', label: 'rGgr' }, { key: 'commission', label: 'rCommission' }, { key: 'breakage', label: 'rBreakage' },
  { key: 'topUps', label: 'rTopUps' }, { key: 'jackpotIn', label: 'rJackpotIn' }, { key: 'jackpotOut', label: 'rJackpotOut' },
  { key: 'jackpotTopUps', label: 'rJackpotTopUps' }, { key: 'deposits', label: 'rDeposits' }, { key: 'withdrawals', label: 'rWithdrawals' },
];

const FILES = ['daily-report.csv', 'top-players.csv', 'liability.csv', 'protection-events.csv', 'regulator-reconciliation.csv', 'regulator-feed.csv'];

/** rowName names a row's game and table in the reader's language. */
function rowName(r: { game: string; tableId?: string | null; tableName?: string | null }): string {
  if (r.game === 'TOTE') return r.tableId ? `${t('game.TOTE')} · ${r.tableName ?? r.tableId}` : `${t('game.TOTE')} · ${t('noTable')}`;
  return t('game.' + r.game);
}

/** Reports: the operator's dashboard (admins): daily GGR and handle by table, totals, liability, top players, CSV files. */
export function Reports() {
  const [days, setDays] = useState(30);
  const [data, setData] = useState<{ daily: reports.Daily; liability: reports.Liability; winners: reports.Player[]; losers: reports.Player[]; protection: reports.ProtectionEvent[] } | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const range = reports.lastDays(days);
  useEffect(() => {
    setData(null);
    setErr(null);
    Promise.all([reports.daily(range.from, range.to), reports.liability(), reports.topPlayers(range.from, range.to, true), reports.topPlayers(range.from, range.to, false),
      reports.protectionEvents(range.from, range.to)])
      .then(([daily, liability, winners, losers, protection]) => setData({ daily, liability, winners, losers, protection }), (e) => setErr(errorText(e)));
  }, [days]);
  if (me.value?.role !== 'ADMIN') return <section><h1>{t('reports')}</h1><Alert kind="error">{t('err.FORBIDDEN')}</Alert></section>;
  void lang.value;
  return (
    <section class="reports" aria-labelledby="reports-h" data-from={range.from} data-to={range.to}>
      <h1 id="reports-h">{t('reports')}</h1>
      <div class="range" role="group" aria-label={t('reportsRange')}>
        {[30, 90].map((n) => (
          <button key={n} type="button" class={n === days ? '' : 'ghost'} aria-pressed={n === days} onClick={() => setDays(n)}>{t(n === 30 ? 'last30' : 'last90')}</button>
        ))}
        <span class="muted"> {range.from} — {range.to}</span>
      </div>
      {err && <Alert kind="error">{err}</Alert>}
      {!data ? <p class="muted" aria-busy="true">{t('loading')}</p> : (
        <>
          <Chart daily={data.daily} />
          <Totals totals={data.daily.totals} />
          <Liability l={data.liability} />
          <Players title="topWinners" players={data.winners} />
          <Players title="topLosers" players={data.losers} />
          <Protection events={data.protection} />
          <Downloads from={range.from} to={range.to} />
          <Daily rows={data.daily.rows} />
        </>
      )}
    </section>
  );
}

/** Chart draws each game and table's daily GGR and handle with uPlot (a canvas; the numbers are in the tables below). */
function Chart({ daily }: { daily: reports.Daily }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const days = [...new Set(daily.rows.map((r) => r.day))].sort();
    const xs = days.map((d) => Date.parse(d + 'T00:00:00+05:00') / 1000);
    const groups = new Map<string, reports.DailyRow[]>();
    for (const r of daily.rows) {
      const k = r.game + ':' + (r.tableId ?? '');
      if (r.game === 'CASHIER') continue;
      groups.set(k, [...(groups.get(k) ?? []), r]);
    }
    const series: uPlot.Series[] = [{ label: t('rDay') }];
    const data: (number | null)[][] = [xs];
    const palette = ['#2f6fdf', '#d9480f', '#2b8a3e', '#862e9c', '#e67700', '#0b7285'];
    let i = 0;
    for (const rows of groups.values()) {
      if (rows.every((r) => Number(r.figures.handle) === 0)) continue;
      const byDay = new Map(rows.map((r) => [r.day, r]));
      const color = palette[i++ % palette.length];
      series.push({ label: `${t('rGgr')} · ${rowName(rows[0])}`, stroke: color, width: 2 });
      data.push(days.map((d) => Number(byDay.get(d)?.figures.ggr ?? 0)));
      series.push({ label: `${t('rHandle')} · ${rowName(rows[0])}`, stroke: color, width: 1, dash: [6, 4] });
      data.push(days.map((d) => Number(byDay.get(d)?.figures.handle ?? 0)));
    }
    const plot = new uPlot({
      width: Math.max(300, el.clientWidth), height: 280, series,
      axes: [{}, { values: (_u: uPlot, v: number[]) => v.map((x) => num(x)) }],
      scales: { x: { time: true } },
    }, data as uPlot.AlignedData, el);
    const fit = () => plot.setSize({ width: Math.max(300, el.clientWidth), height: 280 });
    window.addEventListener('resize', fit);
    return () => { window.removeEventListener('resize', fit); plot.destroy(); };
  }, [daily, lang.value]);
  return (
    <figure class="chart">
      <figcaption>{t('chartTitle')}</figcaption>
      <div ref={box} class="chart-box" data-testid="report-chart" />
    </figure>
  );
}

function Totals({ totals }: { totals: reports.Daily['totals'] }) {
  return (
    <section aria-labelledby="rt-h">
      <h2 id="rt-h">{t('rTotals')}</h2>
      <div class="scroll" tabIndex={0} role="region" aria-labelledby="rt-h">
        <table class="report" data-testid="report-totals">
          <thead><tr><th scope="col">{t('rGame')}</th><th scope="col">{t('rBets')}</th>{FIGURES.map((f) => <th scope="col" key={f.key}>{t(f.label)}</th>)}<th scope="col">{t('rHold')}</th></tr></thead>
          <tbody>
            {totals.map((r) => (
              <tr key={r.game ?? 'all'} data-game={r.game ?? 'ALL'}>
                <th scope="row">{r.game ? t('game.' + r.game) : t('allGames')}</th>
                <td class="num">{num(r.figures.bets)}</td>
                {FIGURES.map((f) => <td class="num" key={f.key} data-figure={f.key} data-value={r.figures[f.key]}>{money(String(r.figures[f.key]))}</td>)}
                <td class="num">{num(r.figures.holdPercent)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Liability({ l }: { l: reports.Liability }) {
  const rows: [string, string][] = [['lWallets', l.wallets], ['lEscrow', l.escrow], ['jackpot', l.jackpot], ['lOpenHands', l.openHands], ['lTotal', l.total]];
  return (
    <section aria-labelledby="rl-h">
      <h2 id="rl-h">{t('liability')}</h2>
      <dl class="liability" data-testid="liability">
        {rows.map(([k, v]) => <div key={k}><dt>{t(k)}</dt><dd class="num" data-value={v}>{money(v)}</dd></div>)}
      </dl>
      {l.reconciled ? <p class="muted">{t('lReconciled')}</p> : <Alert kind="error">{t('lNotReconciled')}</Alert>}
    </section>
  );
}

function Players({ title, players }: { title: string; players: reports.Player[] }) {
  return (
    <section aria-labelledby={title + '-h'}>
      <h2 id={title + '-h'}>{t(title)}</h2>
      {players.length === 0 ? <p class="muted">{t('noEntries')}</p> : (
        <div class="scroll" tabIndex={0} role="region" aria-labelledby={title + '-h'}>
        <table class="report">
          <thead><tr><th scope="col">{t('email')}</th><th scope="col">{t('rBets')}</th><th scope="col">{t('pStaked')}</th><th scope="col">{t('pReturned')}</th><th scope="col">{t('pNet')}</th></tr></thead>
          <tbody>
            {players.map((p) => (
              <tr key={p.userId} data-user={p.userId}>
                <td>{p.email || p.userId}</td><td class="num">{num(p.bets)}</td><td class="num">{money(p.staked)}</td><td class="num">{money(p.returned)}</td><td class="num">{money(p.net)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
    </section>
  );
}

function Protection({ events }: { events: reports.ProtectionEvent[] }) {
  return (
    <section aria-labelledby="rp-h">
      <h2 id="rp-h">{t('protectionEvents')}</h2>
      {events.length === 0 ? <p class="muted">{t('noEntries')}</p> : (
        <div class="scroll" tabIndex={0} role="region" aria-labelledby="rp-h">
          <table class="report" data-testid="protection-events">
            <thead><tr><th scope="col">{t('email')}</th><th scope="col">{t('peKind')}</th><th scope="col">{t('rBets')}</th><th scope="col">{t('peLast')}</th></tr></thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.userId + e.kind} data-kind={e.kind}>
                  <td><a href={'/player/' + e.userId}>{e.email || e.userId}</a></td><td>{t('pe.' + e.kind)}</td><td class="num">{num(e.count)}</td><td>{dateTime(e.last)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Downloads({ from, to }: { from: string; to: string }) {
  const [err, setErr] = useState<string | null>(null);
  const get = (name: string) => {
    setErr(null);
    const params: Record<string, string> = name === 'liability.csv' ? {} : { from, to };
    if (name === 'top-players.csv') params.winners = 'false';
    reports.download(name, params).catch((e) => setErr(errorText(e)));
  };
  return (
    <section aria-labelledby="rd-h">
      <h2 id="rd-h">{t('downloads')}</h2>
      {err && <Alert kind="error">{err}</Alert>}
      <div class="downloads">
        {FILES.map((f) => <button key={f} type="button" class="ghost" data-file={f} onClick={() => get(f)}>{t('dl.' + f)}</button>)}
      </div>
    </section>
  );
}

function Daily({ rows }: { rows: reports.DailyRow[] }) {
  const shown = rows.filter((r) => Number(r.figures.handle) !== 0 || Number(r.figures.deposits) !== 0 || Number(r.figures.withdrawals) !== 0 || Number(r.figures.jackpotTopUps) !== 0);
  return (
    <section aria-labelledby="rday-h">
      <h2 id="rday-h">{t('rDaily')}</h2>
      {shown.length === 0 ? <p class="muted">{t('noEntries')}</p> : (
        <div class="scroll" tabIndex={0} role="region" aria-labelledby="rday-h">
          <table class="report" data-testid="report-daily">
            <thead><tr><th scope="col">{t('rDay')}</th><th scope="col">{t('rGame')}</th><th scope="col">{t('rBets')}</th>{FIGURES.map((f) => <th scope="col" key={f.key}>{t(f.label)}</th>)}</tr></thead>
            <tbody>
              {shown.slice().reverse().map((r) => (
                <tr key={r.day + r.game + (r.tableId ?? '')}>
                  <th scope="row">{r.day}</th><td>{rowName(r)}</td><td class="num">{num(r.figures.bets)}</td>
                  {FIGURES.map((f) => <td class="num" key={f.key}>{money(String(r.figures[f.key]))}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
