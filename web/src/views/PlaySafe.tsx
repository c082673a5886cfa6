import { useEffect, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { me } from '../api/account';
import * as prot from '../api/protection';
import { tiyn, fmtTiyn } from '../api/bets';
import type { LimitKind, LimitPeriod } from '../gql/graphql';
import { t, money, errorText, dateTime } from '../i18n';
import { Field, Alert, Link } from '../ui';
import { realityEvery, setRealityEvery, REALITY_CHOICES } from '../reality';

/**
 * PlaySafe: the player's own protection. Limits of deposits, stakes and
 * losses per day, week and month (lowering applies at once, raising or
 * removing after a 24-hour cooling-off, shown with its time); a break of a
 * day to six weeks; self-exclusion for months or for good (both asked
 * twice, neither ended early); the reminder interval; what this day, week
 * and month came to.
 */
export function PlaySafe() {
  const user = me.value;
  const [p, setP] = useState<prot.Protection | null>(null);
  const [err, setErr] = useState('');
  useEffect(() => { if (user) prot.loadProtection().then(setP, (e) => setErr(errorText(e))); }, [!!user]);
  useEffect(() => { if (prot.protection.value) setP(prot.protection.value); }, [prot.protection.value]);
  if (!user) return <section><h1>{t('playSafe')}</h1><p>{t('r.playSafeIntro')}</p><p><Link href="/account">{t('signIn')}</Link></p></section>;
  const ex = prot.activeExclusion(p);
  return (
    <section class="play-safe" aria-labelledby="ps-h">
      <h1 id="ps-h">{t('playSafe')}</h1>
      <p>{t('r.playSafeIntro')}</p>
      {err && <Alert kind="error">{err}</Alert>}
      {ex && <Alert kind="info"><span data-testid="exclusion-state" data-kind={ex.kind}>{ex.until ? t(ex.kind === 'TIME_OUT' ? 'onBreakUntil' : 'excludedUntil', { until: dateTime(ex.until) }) : t('excludedForever')}</span></Alert>}
      {!p ? <p class="muted" aria-busy="true">{t('loading')}</p> : (
        <>
          <Limits p={p} />
          <Counters p={p} />
          <Reality />
          {!ex && <Breaks />}
        </>
      )}
    </section>
  );
}

function Limits({ p }: { p: prot.Protection }) {
  return (
    <section aria-labelledby="lim-h">
      <h2 id="lim-h">{t('limits')}</h2>
      <p class="muted">{t('limitsHelp')}</p>
      <div class="limit-grid">
        {prot.LIMIT_KINDS.map((k) => (
          <fieldset key={k} class="card-form" data-limit-kind={k}>
            <legend>{t('limit.' + k)}</legend>
            {prot.LIMIT_PERIODS.map((per) => <LimitRow key={per} kind={k} period={per} l={p.limits.find((x) => x.kind === k && x.period === per)} />)}
          </fieldset>
        ))}
      </div>
    </section>
  );
}

function LimitRow({ kind, period, l }: { kind: LimitKind; period: LimitPeriod; l?: prot.Protection['limits'][number] }) {
  const [v, setV] = useState('');
  const [msg, setMsg] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const save = async (remove: boolean) => {
    setMsg(null);
    try {
      let amount: string | null = null;
      if (!remove) {
        const a = tiyn(v);
        if (a === null || a <= 0n) throw { reason: 'INVALID_AMOUNT' };
        amount = fmtTiyn(a);
      }
      const r = await prot.setLimit(kind, period, amount);
      setV('');
      setMsg({ kind: 'ok', text: r.pending ? t('limitPending', { at: dateTime(r.pendingFrom) }) : t('limitSet') });
    } catch (e) { setMsg({ kind: 'error', text: errorText(e) }); }
  };
  return (
    <div class="limit-row" data-limit={kind + '/' + period}>
      <p><b>{t('per.' + period)}</b>: <span data-testid="limit-amount">{l?.amount ? money(l.amount) : t('noLimit')}</span>
        {l?.pending && <small class="pending" data-testid="limit-pending"> · {l.pendingAmount ? t('limitWillBe', { amount: money(l.pendingAmount), at: dateTime(l.pendingFrom) }) : t('limitWillGo', { at: dateTime(l.pendingFrom) })}</small>}</p>
      <form class="inline" onSubmit={(e) => { e.preventDefault(); void save(false); }}>
        <Field label={t('newLimit')}><input name={`limit-${kind}-${period}`} inputMode="decimal" autocomplete="off" value={v} onInput={(e) => setV((e.target as HTMLInputElement).value)} /></Field>
        <button type="submit">{t('save')}</button>
        {l?.amount && !l.pending && <button type="button" class="ghost" onClick={() => void save(true)}>{t('removeLimit')}</button>}
      </form>
      <div aria-live="polite">{msg && <Alert kind={msg.kind}>{msg.text}</Alert>}</div>
    </div>
  );
}

function Counters({ p }: { p: prot.Protection }) {
  return (
    <section aria-labelledby="cnt-h">
      <h2 id="cnt-h">{t('sessionSummary')}</h2>
      <table class="plain stack" data-testid="counters">
        <thead><tr><th scope="col">{t('period')}</th><th scope="col">{t('deposits')}</th><th scope="col">{t('stakes')}</th><th scope="col">{t('returns')}</th><th scope="col">{t('netLoss')}</th></tr></thead>
        <tbody>{p.counters.map((c) => (
          <tr key={c.period} data-period={c.period}>
            <th scope="row" data-label={t('period')}>{t('per.' + c.period)} <small class="muted">{t('since', { d: c.start })}</small></th>
            <td class="num" data-label={t('deposits')}>{money(c.deposits)}</td><td class="num" data-label={t('stakes')}>{money(c.stakes)}</td>
            <td class="num" data-label={t('returns')}>{money(c.returns)}</td><td class="num" data-label={t('netLoss')}>{money(c.netLoss)}</td>
          </tr>
        ))}</tbody>
      </table>
    </section>
  );
}

function Reality() {
  return (
    <section aria-labelledby="rc-h">
      <h2 id="rc-h">{t('realityCheck')}</h2>
      <Field label={t('realityEvery')} hint={t('realityHelp')}>
        <select name="reality-every" value={String(realityEvery.value)} onChange={(e) => setRealityEvery(Number((e.target as HTMLSelectElement).value))}>
          {REALITY_CHOICES.map((m) => <option key={m} value={String(m)}>{m === 0 ? t('off') : t('minutes', { n: m })}</option>)}
        </select>
      </Field>
    </section>
  );
}

/** Breaks: a time-out or self-exclusion; each is asked twice, and neither can be ended early. */
function Breaks() {
  const [hours, setHours] = useState(String(prot.TIME_OUT_HOURS[0]));
  const [months, setMonths] = useState(String(prot.EXCLUSION_MONTHS[0]));
  const [msg, setMsg] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const act = async (f: () => Promise<unknown>) => { setMsg(null); try { await f(); setMsg({ kind: 'ok', text: t('done') }); } catch (e) { setMsg({ kind: 'error', text: errorText(e) }); } };
  return (
    <section aria-labelledby="brk-h">
      <h2 id="brk-h">{t('takeBreak')}</h2>
      <div class="card-form">
        <Field label={t('timeOut')} hint={t('timeOutHelp')}>
          <select name="time-out-hours" value={hours} onChange={(e) => setHours((e.target as HTMLSelectElement).value)}>
            {prot.TIME_OUT_HOURS.map((h) => <option key={h} value={String(h)}>{h % 168 === 0 ? t('weeks', { n: h / 168 }) : t('days', { n: h / 24 })}</option>)}
          </select>
        </Field>
        <Ask label={t('timeOut')} question={t('timeOutQ')} onConfirm={() => void act(() => prot.takeTimeOut(Number(hours)))} />
      </div>
      <div class="card-form">
        <Field label={t('selfExclusion')} hint={t('selfExclusionHelp')}>
          <select name="exclusion-months" value={months} onChange={(e) => setMonths((e.target as HTMLSelectElement).value)}>
            {prot.EXCLUSION_MONTHS.map((m) => <option key={String(m)} value={String(m)}>{m === null ? t('forever') : t('monthsN', { n: m })}</option>)}
          </select>
        </Field>
        <Ask label={t('selfExclusion')} question={t('selfExclusionQ')} onConfirm={() => void act(() => prot.selfExclude(months === 'null' ? null : Number(months)))} />
      </div>
      <div aria-live="polite">{msg && <Alert kind={msg.kind}>{msg.text}</Alert>}</div>
    </section>
  );
}

function Ask({ label, question, onConfirm, children }: { label: string; question: string; onConfirm: () => void; children?: ComponentChildren }) {
  const [asking, setAsking] = useState(false);
  if (!asking) return <button type="button" onClick={() => setAsking(true)}>{label}</button>;
  return (
    <div class="confirm" role="alertdialog" aria-label={label}>
      <p><b>{question}</b></p>
      {children}
      <button type="button" class="danger" onClick={() => { setAsking(false); onConfirm(); }}>{t('confirm')}</button>{' '}
      <button type="button" class="ghost" onClick={() => setAsking(false)}>{t('cancel')}</button>
    </div>
  );
}
