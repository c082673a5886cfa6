import { useEffect, useState, useMemo } from 'preact/hooks';
import { watchTable, poolKey, suspendedIn, type TableState, type DrawState } from '../api/table';
import { t, money, errorText } from '../i18n';
import { Cards, Countdown, Alert, Link } from '../ui';
import { BetSlip } from './BetSlip';

const ROUNDS = ['PRE_DEAL', 'POCKET', 'FLOP', 'TURN'] as const;
const MARKETS = ['WIN', 'COMBINATION', 'EXPRESS'] as const;

/** Table: the live table of one totalizator table, folded from its event stream. */
export function Table({ id }: { id: string }) {
  const [st, setSt] = useState<TableState | null>(null);
  const [err, setErr] = useState('');
  useEffect(() => watchTable(id, (s) => { setSt(s); setErr(''); }, (e) => setErr(errorText(e))), [id]);
  if (!st) return <p aria-busy="true">…{err && <Alert kind="error">{err}</Alert>}</p>;
  const d = st.draw;
  return (
    <section class="table-page" aria-labelledby="table-h" data-seq={st.seq} data-phase={d?.phase} data-draw={d?.id}>
      <header class="table-head">
        <h1 id="table-h">{st.name}</h1>
        <p>
          {d && <>{t('draw')} #<span data-testid="draw-number">{d.number}</span> · </>}
          <b data-testid="phase">{d ? t(d.phase) : '—'}</b>
          {st.status === 'PAUSED' && <span class="badge warn"> {t('paused')}</span>}
          {' '}{d?.openRound && <Countdown at={d.roundClosesAt} />}
        </p>
        <p class="jackpot">{t('jackpot')}: <b class="num">{money(st.jackpot.balance)}</b></p>
      </header>
      {d && <Felt d={d} n={st.positions} />}
      <div class="cols">
        <div>{d?.result && <Result d={d} />}{d && <Pools d={d} n={st.positions} />}</div>
        <aside>{d && <BetSlip draw={d} positions={st.positions} />}</aside>
      </div>
      {d && (d.phase === 'SETTLED' || d.phase === 'VOID') && <p><Link href={`/verify?draw=${d.id}`}>{t('verify')} #{d.number}</Link></p>}
    </section>
  );
}

function Felt({ d, n }: { d: DrawState; n: number }) {
  const eq = new Map((d.odds?.positions ?? []).map((p) => [p.position, p]));
  const positions = d.positions.length ? d.positions : Array.from({ length: n }, (_, i) => ({ number: i + 1, cards: [] as string[], status: 'PENDING', bestHand: null }));
  return (
    <div class="felt">
      <div class="board" aria-label={t('board')}>
        <span class="lbl">{t('board')}</span>
        <span data-testid="board"><Cards cards={d.board} slots={5} /></span>
        {d.burned.length > 0 && <span class="burns" aria-label={t('burns')}><span class="lbl">{t('burns')}</span><Cards cards={d.burned} /></span>}
      </div>
      <ol class="positions">
        {positions.map((p) => {
          const o = eq.get(p.number);
          const pct = o ? (o.equity * 100) : 0;
          return (
            <li key={p.number} class={'pos ' + p.status.toLowerCase()} data-position={p.number}>
              <span class="pn">{t('position')} {p.number}</span>
              <Cards cards={p.cards} slots={2} />
              <span class="best">{p.bestHand ? t(p.bestHand.category) : '\u00a0'}</span>
              <span class="eq" aria-label={`${t('equity')} ${pct.toFixed(1)}%`}>
                <span class="bar"><span style={{ transform: `scaleX(${o ? o.equity : 0})` }} /></span>
                <span class="num" data-testid="equity">{o ? pct.toFixed(1) + '%' : '—'}</span>
              </span>
              {p.status !== 'PENDING' && <span class={'badge ' + (p.status === 'WIN' ? 'ok' : '')}>{t(p.status === 'WIN' ? 'WIN' : 'LOSS')}</span>}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

const CATS = ['HIGH_CARD', 'PAIR', 'TWO_PAIR', 'THREE_OF_A_KIND', 'STRAIGHT', 'FLUSH', 'FULL_HOUSE', 'FOUR_OF_A_KIND', 'STRAIGHT_FLUSH', 'ROYAL_FLUSH'];
const EXPRESS_ROWS = 8;

/**
 * Pools of one round (the open one unless the viewer picks another), one
 * table per market with a fixed number of rows (every position, every
 * category, the top EXPRESS coupons padded), so live updates change numbers,
 * never the layout.
 */
function Pools({ d, n }: { d: DrawState; n: number }) {
  const byKey = useMemo(() => new Map(d.pools.map((p) => [poolKey(p), p])), [d.pools]);
  const [picked, setPicked] = useState<string | null>(null);
  const live = d.openRound ?? [...ROUNDS].reverse().find((r) => MARKETS.some((m) => byKey.has(r + '/' + m))) ?? 'PRE_DEAL';
  const round = picked ?? live;
  const markets = round === 'PRE_DEAL' || round === 'POCKET' ? MARKETS : MARKETS.slice(0, 2);
  return (
    <section aria-labelledby="pools-h" class="pools">
      <h2 id="pools-h">{t('pools')}</h2>
      <div class="tabs" role="radiogroup" aria-label={t('pools')}>
        {ROUNDS.map((r) => (
          <label key={r} class="radio"><input type="radio" name="pool-round" value={r} checked={round === r} onChange={() => setPicked(r === live ? null : r)} /> {t(r)}</label>
        ))}
      </div>
      {markets.map((m) => {
        const p = byKey.get(round + '/' + m);
        const sel = new Map((p?.selections ?? []).map((s) => [s.selection, s]));
        const rows = m === 'WIN' ? Array.from({ length: n }, (_, i) => String(i + 1))
          : m === 'COMBINATION' ? CATS
          : [...sel.values()].sort((a, b) => Number(b.stake) - Number(a.stake)).slice(0, EXPRESS_ROWS).map((s) => s.selection);
        while (rows.length < (m === 'EXPRESS' ? EXPRESS_ROWS : 0)) rows.push('');
        const off = round === d.openRound ? suspendedIn(d) : new Set<string>();
        return (
          <table key={m} class="pool" data-pool={round + '/' + m}>
            <caption><span class="pm">{t(m)}</span> <span class="fig">{t('gross')} <b class="num" data-testid="pool-gross">{money(p?.gross ?? '0.00')}</b></span> <span class="fig">{t('bets')} <b class="num">{p?.bets ?? 0}</b></span></caption>
            <thead><tr><th scope="col">{t('selection')}</th><th scope="col">{t('stake')}</th><th scope="col">{t('coef')}</th></tr></thead>
            <tbody>
              {rows.map((r, i) => {
                const s = sel.get(r);
                const sus = off.has(m + ' ' + r);
                return <tr key={r || 'pad' + i} data-suspended={sus ? '' : undefined}><td>{m === 'COMBINATION' ? t(r) : r || '\u00a0'}{sus && <small class="suspended"> · {t('suspended')}</small>}</td><td class="num">{s ? money(s.stake) : ''}</td><td class="num">{s?.impliedCoefficient ?? ''}</td></tr>;
              })}
            </tbody>
          </table>
        );
      })}
    </section>
  );
}

function Result({ d }: { d: DrawState }) {
  const r = d.result!;
  return (
    <section aria-labelledby="result-h" class="result" data-testid="result">
      <h2 id="result-h">{t('result')}</h2>
      <p>{t('winners')}: <b>{r.winners.join(', ')}</b>{r.winningCategory && <> · {t(r.winningCategory)}</>}</p>
      <table class="pool">
        <thead><tr><th scope="col">{t('pools')}</th><th scope="col">{t('gross')}</th><th scope="col">{t('net')}</th><th scope="col">{t('coef')}</th></tr></thead>
        <tbody>
          {r.pools.map((p) => (
            <tr key={p.round + p.market}>
              <td>{t(p.round)} · {t(p.market)}</td><td class="num">{money(p.gross)}</td><td class="num">{money(p.net)}</td>
              <td class="num">{p.refunded ? t('refunded') : p.market === 'EXPRESS' ? p.categories.map((c) => `${c.category}: ${c.coefficient ?? '—'}`).join(' / ') : p.coefficient ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
