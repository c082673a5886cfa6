import { useEffect, useRef, useState } from 'preact/hooks';
import { signal } from '@preact/signals';
import { suspendedIn, type DrawState } from '../api/table';
import { ALL_MARKETS, marketsIn, shapeOf, pickOf, checkStake, placeBet, myBets, tiyn, fmtTiyn, paidCoefficient, checkMyBetProofs, type Slip, type MyBet, type BetProofVerdict } from '../api/bets';
import { seenRoots } from '../api/recorded';
import { me, userTick, newKey } from '../api/account';
import { protection, loadProtection, activeExclusion } from '../api/protection';
import { t, money, num, errorText, dateTime } from '../i18n';
import { Field, Alert, Countdown, Link } from '../ui';
import type { Market, BettingRound } from '../gql/graphql';

const CATS = ['HIGH_CARD', 'PAIR', 'TWO_PAIR', 'THREE_OF_A_KIND', 'STRAIGHT', 'FLUSH', 'FULL_HOUSE', 'FOUR_OF_A_KIND', 'STRAIGHT_FLUSH', 'ROYAL_FLUSH'];
const ALL: Market[] = ALL_MARKETS;

/** A pool row the player tapped: the slip takes its market and selection. */
const tapped = signal<{ market: Market; selection: string; at: number } | null>(null);
export function pickFromPool(market: string, selection: string) {
  tapped.value = { market: market as Market, selection, at: Date.now() };
}

/** selectionKey writes the slip's pick as the pools name it ("3", "FLUSH", "1-2-3"), by the market's shape. */
function selectionKey(market: Market, pick: string[], cat: string): string {
  return pickOf(shapeOf(market), pick, cat).join('-');
}

/**
 * BetSlip: every market of the server's registry (markets.gen.ts) in the
 * rounds it is offered, its picker by its selection shape (a position, a
 * hand category, a coupon of three positions), with
 * the round's countdown, the selection's live coefficient and the potential
 * payout at that coefficient. The stake is checked before sending; the slip
 * keeps one idempotency key until it is accepted (or edited), so a double
 * click or a retry bets once. On a phone it is a panel fixed at the bottom of
 * the screen: its bar (countdown, coefficient, payout) is always in view and
 * opens the form; tapping a pool row fills and opens it.
 */
export function BetSlip({ draw, positions }: { draw: DrawState; positions: number }) {
  const markets = marketsIn(draw.openRound);
  const [market, setMarket] = useState<Market>(ALL[0]);
  const [pick, setPick] = useState<string[]>(['1', '1', '1']);
  const [cat, setCat] = useState('PAIR');
  const [stake, setStake] = useState('');
  const [key, setKey] = useState(newKey());
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  const [msg, setMsg] = useState<{ kind: 'error' | 'ok'; text: string; verify?: boolean } | null>(null);
  const [bets, setBets] = useState<MyBet[] | null>(null);
  const stakeRef = useRef<HTMLInputElement>(null);
  const user = me.value;

  useEffect(() => {
    if (!user) return;
    myBets().then(setBets, () => undefined);
  }, [draw.id, userTick.value, !!user]);
  useEffect(() => { if (!markets.includes(market) && markets.length) setMarket(markets[0]); }, [draw.openRound]);
  // A break or self-exclusion the player took (here or on another device)
  // stills the slip: read with the user, again on every user event.
  useEffect(() => { if (user) void loadProtection().catch(() => undefined); }, [!!user, userTick.value]);
  // When betting closes the slip folds away on a phone, so the cards and the
  // result are in view; a tap on a pool row opens it again.
  useEffect(() => { if (!draw.openRound) setOpen(false); }, [draw.openRound]);
  useEffect(() => {
    const p = tapped.value;
    if (!p) return;
    setMarket(p.market);
    const sh = shapeOf(p.market);
    if (sh === 'POSITION') setPick([p.selection, pick[1], pick[2]]);
    else if (sh === 'CATEGORY') setCat(p.selection);
    else setPick(p.selection.split('-'));
    setKey(newKey()); setMsg(null); setOpen(true);
    setTimeout(() => stakeRef.current?.focus({ preventScroll: false }), 0);
  }, [tapped.value]);

  const edit = <T,>(f: (v: T) => void) => (v: T) => { f(v); setKey(newKey()); setMsg(null); };
  const sel = selectionKey(market, pick, cat);
  const pool = draw.openRound ? draw.pools.find((p) => p.round === draw.openRound && p.market === market) : undefined;
  const implied = pool?.selections.find((s) => s.selection === sel)?.impliedCoefficient ?? null;
  const paid = implied ? paidCoefficient(implied) : null;
  const coef = paid?.value ?? null;
  const st = tiyn(stake);
  const potential = coef && st !== null && st > 0n ? fmtTiyn((st * tiyn(coef)!) / 100n) : null;

  const bar = (
    <div class="slip-bar">
      <h2 id="slip-h">{t('betSlip')} {draw.openRound && <small>· {t(draw.openRound)}</small>}</h2>
      <span class="cd-slot" data-testid="slip-countdown">{draw.openRound ? <Countdown at={draw.roundClosesAt} /> : <small>{t('noRound')}</small>}</span>
      <span class="slip-figs">
        <span>{t('coefNow')}: <b class="num" data-testid="slip-coef" title={paid?.floored ? t('floored') : undefined}>{coef ? num(coef) + (paid?.floored ? '*' : '') : t('coefNone')}</b></span>
        <span>{t('potential')}: <b class="num" data-testid="slip-potential">{potential ? money(potential) : '—'}</b></span>
      </span>
      <button type="button" class="slip-toggle" aria-expanded={open} aria-controls="slip-body" onClick={() => setOpen(!open)}>{open ? t('closeSlip') : t('openSlip')}</button>
      <Link href="/rules" class="rules-link">{t('rules')}</Link>
    </div>
  );

  const suspended = suspendedIn(draw);
  const off = (m: string, s: string) => suspended.has(m + ' ' + s);
  if (!user) return <section class={'slip ' + (open ? 'open' : 'closed')} aria-labelledby="slip-h">{bar}<div class="slip-body" id="slip-body"><p>{t('signInToBet')} <Link href="/account">{t('signIn')}</Link></p></div></section>;

  const excluded = activeExclusion(protection.value);
  if (excluded) {
    return (
      <section class={'slip ' + (open ? 'open' : 'closed')} aria-labelledby="slip-h" data-testid="slip">
        {bar}
        <div class="slip-body" id="slip-body">
          <Alert kind="info"><span data-testid="slip-excluded" data-kind={excluded.kind}>{excluded.until
            ? t(excluded.kind === 'TIME_OUT' ? 'onBreakUntil' : 'excludedUntil', { until: dateTime(excluded.until) })
            : t('excludedForever')}</span> <Link href="/play-safe">{t('playSafe')}</Link></Alert>
          <h3>{t('myBets')}</h3>
          <MyBets bets={bets} phase={draw.phase} />
        </div>
      </section>
    );
  }
  const verification = user.verification.status;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    // Who may bet comes before what is staked: an unverified player reads
    // that (and where to verify), not a balance check.
    if (user.role === 'PLAYER' && verification !== 'APPROVED') {
      setMsg({ kind: 'error', text: t(verification === 'PENDING' ? 'pendingToBet' : 'verifyToBet'), verify: verification !== 'PENDING' });
      return;
    }
    const bad = checkStake(stake, draw.minStake, draw.maxStake, me.value?.balance ?? null);
    if (bad) { setMsg({ kind: 'error', text: t(bad[0], bad[1] && Object.fromEntries(Object.entries(bad[1]).map(([k, v]) => [k, money(v)]))) }); return; }
    setBusy(true);
    setMsg(null);
    const slip: Slip = { drawId: draw.id, market, pick: pickOf(shapeOf(market), pick, cat), stake, key };
    try {
      await placeBet(slip);
      setMsg({ kind: 'ok', text: t('betAccepted') });
      setKey(newKey());
      setBets(await myBets());
    } catch (err) {
      const r = (err as { reason?: string }).reason;
      setMsg({ kind: 'error', text: errorText(err), verify: r === 'NOT_VERIFIED' });
    } finally {
      setBusy(false);
    }
  };
  const posOpts = Array.from({ length: positions }, (_, i) => String(i + 1));
  const closed = !draw.openRound;
  const shape = shapeOf(market);
  // A picker's name is its market's, lower case (WIN's "win", EXPRESS's
  // "express-flop"...): the browser tests find them so.
  const name = market.toLowerCase();
  return (
    <section class={'slip ' + (open ? 'open' : 'closed')} aria-labelledby="slip-h" data-testid="slip">
      {bar}
      <div class="slip-body" id="slip-body">
        <form onSubmit={submit} novalidate>
          <fieldset class="slip-fields" disabled={closed}>
            <fieldset class="markets">
              <legend>{t('market')}</legend>
              {ALL.map((m) => (
                <label key={m} class="radio"><input type="radio" name="market" value={m} checked={market === m} disabled={!markets.includes(m)} onChange={() => edit(setMarket)(m)} /> {t(m)}</label>
              ))}
            </fieldset>
            <div class="pick-area">
              {shape === 'POSITION' && (
                <Field label={t('position')}>
                  <select name={name} value={pick[0]} onChange={(e) => edit(setPick)([(e.target as HTMLSelectElement).value, pick[1], pick[2]])}>
                    {posOpts.map((p) => <option key={p} value={p} disabled={off(market, p)}>{p}{off(market, p) ? ' · ' + t('suspended') : ''}</option>)}
                  </select>
                </Field>
              )}
              {shape === 'CATEGORY' && (
                <Field label={t(market)}>
                  <select name={name} value={cat} onChange={(e) => edit(setCat)((e.target as HTMLSelectElement).value)}>
                    {CATS.map((c) => <option key={c} value={c} disabled={off(market, c)}>{t(c)}{off(market, c) ? ' · ' + t('suspended') : ''}</option>)}
                  </select>
                </Field>
              )}
              {shape === 'COUPON' && (
                <fieldset class="express">
                  <legend>{t('express')}</legend>
                  {(['flop', 'turn', 'river'] as const).map((leg, i) => (
                    <Field key={leg} label={t(leg)}>
                      <select name={name + '-' + leg} value={pick[i]} onChange={(e) => { const p = pick.slice(); p[i] = (e.target as HTMLSelectElement).value; edit(setPick)(p); }}>
                        {posOpts.map((p) => <option key={p} value={p}>{p}</option>)}
                      </select>
                    </Field>
                  ))}
                </fieldset>
              )}
            </div>
            <label class="field">
              <span>{t('stake')}</span>
              <input ref={stakeRef} name="stake" inputMode="decimal" autocomplete="off" value={stake} aria-invalid={msg?.kind === 'error' ? 'true' : undefined}
                aria-describedby="stake-hint stake-msg" onInput={(e) => edit(setStake)((e.target as HTMLInputElement).value)} />
              <small class="hint" id="stake-hint">{money(draw.minStake)} – {money(draw.maxStake)}</small>
            </label>
            <div class="field-msg" id="stake-msg" aria-live="polite">{msg && <Alert kind={msg.kind}>{msg.text}{msg.verify && <> <Link href="/account">{t('goVerify')}</Link></>}</Alert>}</div>
            {off(market, sel) && <Alert kind="error"><span data-testid="slip-suspended">{t('suspendedHint')}</span></Alert>}
            <button type="submit" disabled={busy || off(market, sel)} data-key={key}>{t('placeBet')}</button>
          </fieldset>
        </form>
        <h3>{t('myBets')}</h3>
        <MyBets bets={bets} phase={draw.phase} />
      </div>
    </section>
  );
}

const ROUND_NAMES: BettingRound[] = ['PRE_DEAL', 'POCKET', 'FLOP', 'TURN'];

/**
 * MyBets lists the player's bets; once a bet's round has closed it shows the
 * bet's inclusion proof checked here, in the browser (verify/merkle.ts),
 * against the round's bet root this browser saw in RoundClosed.
 */
function MyBets({ bets, phase }: { bets: MyBet[] | null; phase: string }) {
  const [proofs, setProofs] = useState<Record<string, BetProofVerdict>>({});
  useEffect(() => {
    if (!bets?.length) return;
    let live = true;
    const draws = [...new Set(bets.map((b) => b.draw.id))];
    void Promise.all(draws.map((id) => {
      const seen = Object.fromEntries(Object.entries(seenRoots(id)).map(([r, root]) => [ROUND_NAMES[Number(r) - 1], root]));
      return checkMyBetProofs(id, seen).catch(() => [] as BetProofVerdict[]);
    })).then((all) => { if (live) setProofs(Object.fromEntries(all.flat().map((v) => [v.betId, v]))); });
    return () => { live = false; };
  }, [bets, phase]);
  if (bets === null) return <p class="muted" aria-busy="true">{t('loading')}</p>;
  if (bets.length === 0) return <p class="muted" data-testid="my-bets-empty">{t('noBetsYet')}</p>;
  return (
    <table class="bets mybets" data-testid="my-bets">
      <thead><tr><th scope="col">{t('selection')}</th><th scope="col">{t('stake')} / {t('payout')}</th></tr></thead>
      <tbody>
        {bets.map((b) => (
          <tr key={b.id} data-bet={b.id} data-status={b.status}>
            <td><small>#{b.draw.number} · {t(b.round)} · {t(b.market)}</small><br /><b>{shapeOf(b.market) === 'CATEGORY' ? t(b.selection) : b.selection.split('-').join(' – ')}</b></td>
            <td class="num"><span>{money(b.stake)}</span><br /><small class={'st ' + b.status.toLowerCase()}>{t(b.status)}</small> <span data-testid="payout">{money(b.payout)}</span>
              <Proof v={proofs[b.id]} /></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Proof shows a bet's inclusion proof as the browser checked it, nothing
 * while its round is open: a mark beside the status (the sentence in its
 * tooltip and for screen readers), so a bet's row does not grow by lines; a
 * failed proof is spelled out.
 */
function Proof({ v }: { v?: BetProofVerdict }) {
  const state = !v || v.ok === null ? 'pending' : v.ok ? 'ok' : 'bad';
  const text = state === 'ok' ? t('proofOk') : state === 'bad' ? t('proofBad') : '';
  return (
    <small class={'proof ' + state} data-testid="proof" data-proof={state} data-root={v?.root ?? ''} title={v?.problem ?? (text ? text + ' · ' + (v?.root ?? '') : '')}>
      {state === 'ok' ? <> ✔<span class="sr-only">{' ' + text}</span></> : state === 'bad' ? <><br />{'✘ ' + text}</> : ''}
    </small>
  );
}
