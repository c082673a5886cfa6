import { useEffect, useState, useMemo } from 'preact/hooks';
import { watchTable, poolKey, suspendedIn, type TableState, type DrawState } from '../api/table';
import { t, money, num, pct, errorText, tableName } from '../i18n';
import { Cards, Countdown, Alert, Link } from '../ui';
import { BetSlip, pickFromPool } from './BetSlip';
import { paidCoefficient, ALL_MARKETS, marketsIn, shapeOf } from '../api/bets';
import { MARKETS as RULES, type MarketRule } from '../markets.gen';
import { gradingOf } from '../verify/grades';
import { protection, activeExclusion } from '../api/protection';
import { me } from '../api/account';
import { dateTime, has } from '../i18n';

const ROUNDS = ['PRE_DEAL', 'POCKET', 'FLOP', 'TURN'] as const;
type Round = (typeof ROUNDS)[number];
const MARKETS = ALL_MARKETS;

/**
 * Table: the live table of one totalizator table, folded from its event
 * stream. Its layout never moves under the player: every box has its size
 * before its content arrives (cards, badges, countdown, pools with fixed row
 * counts), and the result is shown over the pools rather than above them.
 */
export function Table({ id }: { id: string }) {
  const [st, setSt] = useState<TableState | null>(null);
  const [err, setErr] = useState('');
  useEffect(() => watchTable(id, (s) => { setSt(s); setErr(''); }, (e) => setErr(errorText(e))), [id]);
  if (!st) return <section class="table-page loading" aria-busy="true"><p>{t('loading')}</p>{err && <Alert kind="error">{err}</Alert>}</section>;
  const d = st.draw;
  const over = d && (d.phase === 'SETTLED' || d.phase === 'VOID');
  return (
    <section class="table-page" aria-labelledby="table-h" data-seq={st.seq} data-phase={d?.phase} data-draw={d?.id}>
      <header class="table-head">
        <h1 id="table-h">{tableName(st.name)}</h1>
        <p class="status-line">
          <span class="drawno">{d && <>{t('draw')} #<span data-testid="draw-number">{d.number}</span></>}</span>
          <b class="phase" data-testid="phase">{d ? t(d.phase) : '—'}</b>
          <span class="cd-slot">{d?.openRound && <Countdown at={d.roundClosesAt} />}</span>
          {st.status === 'PAUSED' && <span class="badge warn">{t('paused')}</span>}
        </p>
        <p class="jackpot" data-testid="jackpot" data-enabled={String(st.jackpot.enabled)}>{st.jackpot.enabled
          ? <>{t('jackpot')}: <b class="num">{money(st.jackpot.balance)}</b></>
          : <span class="muted">{t('jackpotOffPlayer')}</span>}
          {' · '}<Link href="/rules">{t('rules')}</Link></p>
        <BreakNotice />
      </header>
      <div class="cols">
        <div class="play-col">
          {d && <Felt d={d} n={st.positions} />}
          <div class="pools-wrap">
            {d && <Pools d={d} n={st.positions} />}
            {d && over && <Result key={d.id} d={d} />}
          </div>
        </div>
        <aside class="slip-col">{d && <BetSlip draw={d} positions={st.positions} />}</aside>
      </div>
      <p class="verify-link">{d && over && <Link href={`/verify?draw=${d.id}`}>{t('verify')} #{d.number}</Link>}</p>
    </section>
  );
}

/** BreakNotice says, above the table, until when a player on a break or self-excluded cannot bet (the slip says it too, folded on a phone). */
function BreakNotice() {
  const ex = me.value ? activeExclusion(protection.value) : null;
  if (!ex) return null;
  return (
    <p class="alert info" role="status" data-testid="table-excluded">
      {ex.until ? t(ex.kind === 'TIME_OUT' ? 'onBreakUntil' : 'excludedUntil', { until: dateTime(ex.until) }) : t('excludedForever')}{' '}
      <Link href="/play-safe">{t('playSafe')}</Link>
    </p>
  );
}

function Felt({ d, n }: { d: DrawState; n: number }) {
  const eq = new Map((d.odds?.positions ?? []).map((p) => [p.position, p]));
  const positions = d.positions.length ? d.positions : Array.from({ length: n }, (_, i) => ({ number: i + 1, cards: [] as string[], status: 'PENDING', bestHand: null }));
  return (
    <div class="felt">
      <div class="board" role="group" aria-label={t('board')}>
        <span class="lbl">{t('board')}</span>
        <span data-testid="board"><Cards cards={d.board} slots={5} /></span>
        <span class="burns" role="group" aria-label={t('burns')}>{d.burned.length > 0 && <><span class="lbl">{t('burns')}</span><Cards cards={d.burned} /></>}</span>
      </div>
      <ol class="positions">
        {positions.map((p) => {
          const o = eq.get(p.number);
          return (
            <li key={p.number} class={'pos ' + p.status.toLowerCase()} data-position={p.number}>
              <span class="pn">{t('position')} {p.number}</span>
              <Cards cards={p.cards} slots={2} />
              <span class="best">{p.bestHand ? t(p.bestHand.category) : '\u00a0'}</span>
              <span class="eq" aria-label={`${t('equity')} ${o ? pct(o.equity) : '—'}`}>
                <span class="bar"><span style={{ transform: `scaleX(${o ? o.equity : 0})` }} /></span>
                <span class="num" data-testid="equity">{o ? pct(o.equity) : '—'}</span>
              </span>
              <span class={'badge ' + (p.status === 'WIN' ? 'ok' : p.status === 'PENDING' ? 'blank' : '')}>{p.status === 'PENDING' ? '\u00a0' : t(p.status === 'WIN' ? 'WIN' : 'LOSS')}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

const CATS = ['HIGH_CARD', 'PAIR', 'TWO_PAIR', 'THREE_OF_A_KIND', 'STRAIGHT', 'FLUSH', 'FULL_HOUSE', 'FOUR_OF_A_KIND', 'STRAIGHT_FLUSH', 'ROYAL_FLUSH'];
/** TOP_ROWS is how many of an unlisted market's selections (coupons) a pool shows: the most backed. */
const TOP_ROWS = 8;
/** COUPON_LEGS is how many legs a coupon names: the leaders after the flop and the turn, the winner after the river. */
const COUPON_LEGS = 3;

/** ruleOf is market m's rule in the server's registry (markets.gen.ts). */
const ruleOf = (m: string): MarketRule | undefined => RULES.find((r) => r.name === m);

/** selectionText writes a pool selection for a player by its market's shape: a category's name, a coupon "1 – 2 – 3", a position. */
export function selectionText(market: string, sel: string): string {
  switch (shapeOf(market)) {
    case 'CATEGORY': return t(sel);
    case 'COUPON': return sel.split('-').join(' – ');
  }
  return `${t('position')} ${sel}`;
}

/**
 * poolRows are the selections a market's pool lists, by its registry rule:
 * a listed market every selection of its shape (each position, each
 * category), an unlisted one its most backed selections padded to TOP_ROWS.
 */
function poolRows(m: string, n: number, backed: { selection: string; stake: string }[]): string[] {
  const r = ruleOf(m);
  if (r?.listed) return r.shape === 'POSITION' ? Array.from({ length: n }, (_, i) => String(i + 1)) : CATS.slice();
  const rows = [...backed].sort((a, b) => Number(b.stake) - Number(a.stake)).slice(0, TOP_ROWS).map((s) => s.selection);
  while (rows.length < TOP_ROWS) rows.push('');
  return rows;
}

/**
 * poolCoefficients writes a settled pool's coefficient: one for a SINGLE
 * scheme, each category's for a TWO_TIER one ("3 of 3: 12.40 · 2 of 3:
 * 1.85", the legs its grading names).
 */
function poolCoefficients(p: { market: string; coefficient?: string | null; categories: { category: number; coefficient?: string | null }[] }): string {
  if (ruleOf(p.market)?.scheme !== 'TWO_TIER') return p.coefficient ? num(p.coefficient) : '—';
  const g = gradingOf(p.market);
  return p.categories.map((c) => {
    const legs = c.category === 1 ? g?.cat1Legs : g?.cat2Legs;
    return `${t('legsOf', { k: legs ?? '?', n: COUPON_LEGS })}: ${c.coefficient ? num(c.coefficient) : '—'}`;
  }).join(' · ');
}

/**
 * Pools of one round (the open one unless the viewer picks another), one
 * table per market with a fixed number of rows (every position, every
 * category, the most backed coupons padded; an unlisted market is drawn in
 * every round, empty where the round does not take it), so live updates
 * change numbers, never the layout. A row of the open round is a button
 * that fills the bet slip.
 */
function Pools({ d, n }: { d: DrawState; n: number }) {
  const byKey = useMemo(() => new Map(d.pools.map((p) => [poolKey(p), p])), [d.pools]);
  const [picked, setPicked] = useState<Round | null>(null);
  const live: Round = d.openRound ?? [...ROUNDS].reverse().find((r) => MARKETS.some((m) => byKey.has(r + '/' + m))) ?? 'PRE_DEAL';
  const round = picked ?? live;
  const taken = marketsIn(round);
  const bettable = d.openRound === round;
  return (
    <section aria-labelledby="pools-h" class="pools">
      <h2 id="pools-h">{t('pools')}</h2>
      <div class="tabs" role="radiogroup" aria-label={t('pools')}>
        {ROUNDS.map((r) => (
          <label key={r} class="radio"><input type="radio" name="pool-round" value={r} checked={round === r} onChange={() => setPicked(r === live ? null : r)} /> {t(r)}</label>
        ))}
      </div>
      {MARKETS.map((m) => {
        const p = byKey.get(round + '/' + m);
        const sel = new Map((p?.selections ?? []).map((s) => [s.selection, s]));
        const rows = poolRows(m, n, [...sel.values()]);
        const empty = rows[0] !== '' ? '' : taken.includes(m) ? t('noneBacked') : t('notInRound', { market: t(m) });
        const off = round === d.openRound ? suspendedIn(d) : new Set<string>();
        return (
          <table key={m} class="pool" data-pool={round + '/' + m}>
            <caption><span class="pm">{t(m)}</span> <span class="fig">{t('gross')} <b class="num" data-testid="pool-gross">{money(p?.gross ?? '0.00')}</b></span> <span class="fig">{t('bets')} <b class="num">{num(p?.bets ?? 0)}</b></span></caption>
            <thead><tr><th scope="col">{t('selection')}</th><th scope="col">{t('stake')}</th><th scope="col">{t('coef')}</th></tr></thead>
            <tbody>
              {rows.map((r, i) => {
                const s = sel.get(r);
                const label = r ? selectionText(m, r) : i === 0 ? empty : '';
                const sus = off.has(m + ' ' + r);
                return (
                  <tr key={r || 'pad' + i} data-selection={r || undefined} data-suspended={sus ? '' : undefined}>
                    <td>{r && bettable && !sus
                      ? <button type="button" class="pick" aria-label={t('pickRow', { sel: label })} onClick={() => pickFromPool(m, r)}>{label}</button>
                      : <span class={r ? '' : 'muted empty-note'}>{label || '\u00a0'}</span>}{sus && <small class="suspended" title={t('suspended')}> ⏸<span class="sr-only">{t('suspended')}</span></small>}</td>
                    <td class="num">{s ? money(s.stake) : ''}</td><td class="num">{s?.impliedCoefficient ? coefText(s.impliedCoefficient) : ''}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        );
      })}
    </section>
  );
}

/**
 * Result of a finished draw, drawn over the pools (they are over too) so that
 * nothing on the page moves: winners and the winning category, then only the
 * pools that had bets; EXPRESS's categories by name (3 of 3, 2 of 3); a void
 * draw's reason. The player may close it to look at the pools beneath.
 */
function Result({ d }: { d: DrawState }) {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  const r = d.result;
  const pools = (r?.pools ?? []).filter((p) => p.bets > 0 || Number(p.gross) > 0);
  return (
    <section aria-labelledby="result-h" class="result overlay" data-testid="result" role="region">
      <header class="result-head">
        <h2 id="result-h">{t('resultOf', { n: d.number })}</h2>
        <button type="button" class="ghost" onClick={() => setOpen(false)}>{t('close')}</button>
      </header>
      {d.phase === 'VOID'
        ? <p data-testid="void-reason" data-kind={d.voidKind ?? ''}>{voidText(d.voidKind)}</p>
        : !r ? <p class="muted" aria-busy="true">{t('loading')}</p> : <p>{t('winners')}: <b>{r.winners.map((w) => `${t('position')} ${w}`).join(', ')}</b>{r.winningCategory && <> · {t(r.winningCategory)}</>}</p>}
      {!r ? null : pools.length === 0 ? <p class="muted" data-testid="no-stakes">{t('noStakesDraw')}</p> : (
        <table class="pool result-pools">
          <thead><tr><th scope="col">{t('pools')}</th><th scope="col">{t('gross')}</th><th scope="col">{t('net')}</th><th scope="col">{t('coef')}</th></tr></thead>
          <tbody>
            {pools.map((p) => (
              <tr key={p.round + p.market} data-result-pool={p.round + '/' + p.market}>
                <td data-label={t('pools')}>{t(p.round)} · {t(p.market)}</td><td class="num" data-label={t('gross')}>{money(p.gross)}</td><td class="num" data-label={t('net')}>{money(p.net)}</td>
                <td class={ruleOf(p.market)?.scheme === 'TWO_TIER' ? 'express-coefs' : 'num'} data-label={t('coef')}>{p.refunded ? t('refunded') : poolCoefficients(p)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * voidText says why a draw was voided, from its kind, in the player's
 * language: never the server's English nor the operator's note (that one
 * stays in the audit log for staff).
 */
export function voidText(kind: string | null | undefined): string {
  return has('void.' + kind) ? t('void.' + kind) : t('void.UNKNOWN');
}

/** coefText shows a live coefficient as a winner would be paid it: a pool-implied one below 1.10 is shown at the guaranteed 1.10 and marked. */
function coefText(implied: string) {
  const c = paidCoefficient(implied);
  return c.floored ? <span class="floored" title={t('floored')} data-floored="">{num(c.value)}<span aria-hidden="true">*</span><span class="sr-only"> ({t('floored')})</span></span> : num(c.value);
}
