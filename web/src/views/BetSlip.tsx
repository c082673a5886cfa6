import { useEffect, useState } from 'preact/hooks';
import { suspendedIn, type DrawState } from '../api/table';
import { marketsIn, checkStake, placeBet, myBets, type Slip, type MyBet } from '../api/bets';
import { me, userTick, newKey } from '../api/account';
import { t, money, errorText } from '../i18n';
import { Field, Alert } from '../ui';
import type { Market } from '../gql/graphql';

const CATS = ['HIGH_CARD', 'PAIR', 'TWO_PAIR', 'THREE_OF_A_KIND', 'STRAIGHT', 'FLUSH', 'FULL_HOUSE', 'FOUR_OF_A_KIND', 'STRAIGHT_FLUSH', 'ROYAL_FLUSH'];

/**
 * BetSlip: WIN, COMBINATION and EXPRESS in the rounds they are offered. The
 * stake is checked before sending; the slip keeps one idempotency key until
 * it is accepted (or edited), so a double click or a retry bets once.
 */
export function BetSlip({ draw, positions }: { draw: DrawState; positions: number }) {
  const markets = marketsIn(draw.openRound);
  const [market, setMarket] = useState<Market>('WIN');
  const [pick, setPick] = useState<string[]>(['1', '1', '1']);
  const [cat, setCat] = useState('PAIR');
  const [stake, setStake] = useState('');
  const [key, setKey] = useState(newKey());
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ kind: 'error' | 'ok'; text: string } | null>(null);
  const [bets, setBets] = useState<MyBet[]>([]);
  const user = me.value;

  useEffect(() => {
    if (!user) return;
    myBets().then(setBets, () => undefined);
  }, [draw.id, userTick.value, !!user]);
  useEffect(() => { if (!markets.includes(market) && markets.length) setMarket(markets[0]); }, [draw.openRound]);

  const edit = <T,>(f: (v: T) => void) => (v: T) => { f(v); setKey(newKey()); setMsg(null); };

  if (!user) return <section class="slip"><h2>{t('betSlip')}</h2><p>{t('signInToBet')}</p>{draw.openRound && <p><small>{markets.map((m) => t(m)).join(' · ')}</small></p>}</section>;

  const suspended = suspendedIn(draw);
  const off = (m: string, s: string) => suspended.has(m + ' ' + s);
  const slip: Slip = { drawId: draw.id, market, pick: market === 'WIN' ? [pick[0]] : market === 'COMBINATION' ? [cat] : pick, stake, key };
  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    const bad = checkStake(stake, draw.minStake, draw.maxStake, me.value?.balance ?? null);
    if (bad) { setMsg({ kind: 'error', text: t(bad[0], bad[1]) }); return; }
    setBusy(true);
    setMsg(null);
    try {
      await placeBet(slip);
      setMsg({ kind: 'ok', text: t('betAccepted') });
      setKey(newKey());
      setBets(await myBets());
    } catch (err) {
      setMsg({ kind: 'error', text: errorText(err) });
    } finally {
      setBusy(false);
    }
  };
  const posOpts = Array.from({ length: positions }, (_, i) => String(i + 1));
  return (
    <section class="slip" aria-labelledby="slip-h">
      <h2 id="slip-h">{t('betSlip')} {draw.openRound && <small>· {t(draw.openRound)}</small>}</h2>
      {!draw.openRound ? <p>{t('noRound')}</p> : (
        <form onSubmit={submit} novalidate>
          <fieldset class="markets">
            <legend>{t('market')}</legend>
            {markets.map((m) => (
              <label key={m} class="radio"><input type="radio" name="market" value={m} checked={market === m} onChange={() => edit(setMarket)(m)} /> {t(m)}</label>
            ))}
          </fieldset>
          {market === 'WIN' && (
            <Field label={t('position')}>
              <select name="win" value={pick[0]} onChange={(e) => edit(setPick)([(e.target as HTMLSelectElement).value, pick[1], pick[2]])}>
                {posOpts.map((p) => <option key={p} value={p} disabled={off('WIN', p)}>{p}{off('WIN', p) ? ' · ' + t('suspended') : ''}</option>)}
              </select>
            </Field>
          )}
          {market === 'COMBINATION' && (
            <Field label={t('COMBINATION')}>
              <select name="combination" value={cat} onChange={(e) => edit(setCat)((e.target as HTMLSelectElement).value)}>
                {CATS.map((c) => <option key={c} value={c} disabled={off('COMBINATION', c)}>{t(c)}{off('COMBINATION', c) ? ' · ' + t('suspended') : ''}</option>)}
              </select>
            </Field>
          )}
          {market === 'EXPRESS' && (
            <fieldset class="express">
              <legend>{t('express')}</legend>
              {(['flop', 'turn', 'river'] as const).map((leg, i) => (
                <Field key={leg} label={t(leg)}>
                  <select name={'express-' + leg} value={pick[i]} onChange={(e) => { const p = pick.slice(); p[i] = (e.target as HTMLSelectElement).value; edit(setPick)(p); }}>
                    {posOpts.map((p) => <option key={p} value={p}>{p}</option>)}
                  </select>
                </Field>
              ))}
            </fieldset>
          )}
          <Field label={t('stake')} hint={`${money(draw.minStake)} – ${money(draw.maxStake)}`}>
            <input name="stake" inputMode="decimal" autocomplete="off" value={stake} onInput={(e) => edit(setStake)((e.target as HTMLInputElement).value)} />
          </Field>
          {off(market, slip.pick.join('-')) && <Alert kind="error"><span data-testid="slip-suspended">{t('suspendedHint')}</span></Alert>}
          <button type="submit" disabled={busy || off(market, slip.pick.join('-'))} data-key={key}>{t('placeBet')}</button>
          <div aria-live="polite">{msg && <Alert kind={msg.kind}>{msg.text}</Alert>}</div>
        </form>
      )}
      <h3>{t('myBets')}</h3>
      <table class="bets" data-testid="my-bets">
        <thead><tr><th scope="col">{t('selection')}</th><th scope="col">{t('stake')}</th><th scope="col">{t('status')}</th><th scope="col">{t('payout')}</th></tr></thead>
        <tbody>
          {bets.map((b) => (
            <tr key={b.id} data-bet={b.id} data-status={b.status}>
              <td><small>#{b.draw.number} · {t(b.round)} · {t(b.market)}</small><br /><b>{b.market === 'COMBINATION' ? t(b.selection) : b.selection}</b></td>
              <td class="num">{money(b.stake)}</td><td>{t(b.status)}</td><td class="num" data-testid="payout">{money(b.payout)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
