import { useEffect, useRef, useState } from 'preact/hooks';
import * as api from '../api/holdem';
import { me, newKey, userTick } from '../api/account';
import { t, money, errorText } from '../i18n';
import { Field, Alert, Cards, Countdown } from '../ui';
import { tiyn, fmtTiyn } from '../api/bets';

/** Holdem: two boxes with ante and bonus, the commitment before the cut, call or fold per box in turn. */
export function Holdem() {
  const [cfg, setCfg] = useState<api.Settings | null>(null);
  const [boxes, setBoxes] = useState(2);
  const [ante, setAnte] = useState(['100', '100']);
  const [bonus, setBonus] = useState(['', '']);
  const [cut, setCut] = useState(api.randomCut);
  const [commitment, setCommitment] = useState<string | null>(null);
  const [hand, setHand] = useState<api.Hand | null>(null);
  const [key, setKey] = useState(newKey());
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState('');
  useEffect(() => { api.settings().then(setCfg, (e) => setErr(errorText(e))); }, []);
  // The server's seed is committed to (and its SHA-256 shown) before the
  // player types a cut, so the seed cannot be chosen after seeing the cut.
  // holdemCommit returns the still unused seed when there is one.
  const fresh = !hand || hand.phase === 'SETTLED';
  useEffect(() => { if (me.value && fresh && !commitment) api.commit().then((c) => setCommitment(c.commitment), (e) => setErr(errorText(e))); }, [fresh, commitment, !!me.value]);
  // A decision timeout settles the hand on the server; reload when the user stream says so.
  useEffect(() => { if (hand && hand.phase !== 'SETTLED') api.reload(hand.id).then((h) => h && setHand(h), () => undefined); }, [userTick.value]);

  if (!me.value) return <section><h1>{t('holdem')}</h1><p>{t('signInToBet')}</p></section>;
  const run = async (f: () => Promise<void>) => {
    if (busy) return;
    setBusy(true); setErr('');
    try { await f(); } catch (e) { setErr(errorText(e)); } finally { setBusy(false); }
  };
  const getCommitment = () => run(async () => { setCommitment((await api.commit()).commitment); });
  const deal = (e: Event) => {
    e.preventDefault();
    run(async () => {
      const bx = Array.from({ length: boxes }, (_, i) => {
        const a = tiyn(ante[i]);
        if (a === null) throw { reason: 'INVALID_AMOUNT' };
        const b = bonus[i].trim() ? tiyn(bonus[i]) : null;
        if (bonus[i].trim() && b === null) throw { reason: 'INVALID_AMOUNT' };
        return { ante: fmtTiyn(a), bonus: b !== null ? fmtTiyn(b) : undefined };
      });
      const c = commitment ?? (await api.commit()).commitment;
      const h = await api.start({ boxes: bx, cut, commitment: c, idempotencyKey: key });
      setHand(h); setKey(newKey()); setCommitment(null); setCut(api.randomCut());
    });
  };
  const decide = (box: number, d: 'CALL' | 'FOLD') => run(async () => { setHand(await api.decide(hand!.id, box, d)); });

  return (
    <section class="holdem" aria-labelledby="holdem-h">
      <h1 id="holdem-h">{t('holdem')}</h1>
      {err && <Alert kind="error">{err}</Alert>}
      {hand && <HandView hand={hand} decide={decide} busy={busy} />}
      {(!hand || hand.phase === 'SETTLED') && (
        <form class="card-form" onSubmit={deal}>
          <Field label={t('boxes')}>
            <select name="boxes" value={String(boxes)} onChange={(e) => setBoxes(Number((e.target as HTMLSelectElement).value))}>
              <option value="1">1</option><option value="2">2</option>
            </select>
          </Field>
          {Array.from({ length: boxes }, (_, i) => (
            <fieldset key={i}><legend>{t('box')} {i + 1}</legend>
              <Field label={t('ante')} hint={cfg ? `${money(cfg.minAnte)} – ${money(cfg.maxAnte)}` : undefined}>
                <input name={`ante${i + 1}`} inputMode="decimal" value={ante[i]} onInput={(e) => { const a = ante.slice(); a[i] = (e.target as HTMLInputElement).value; setAnte(a); }} />
              </Field>
              <Field label={t('bonus')}>
                <input name={`bonus${i + 1}`} inputMode="decimal" value={bonus[i]} onInput={(e) => { const a = bonus.slice(); a[i] = (e.target as HTMLInputElement).value; setBonus(a); }} />
              </Field>
            </fieldset>
          ))}
          <p class="mono" data-testid="commitment" aria-live="polite">{t('commitment')}: <code>{commitment ?? '…'}</code></p>
          {!commitment && <p><button type="button" onClick={getCommitment} disabled={busy}>{t('getCommitment')}</button></p>}
          <Field label={t('cut')}><input name="cut" value={cut} maxLength={256} onInput={(e) => setCut((e.target as HTMLInputElement).value)} /></Field>
          <button type="submit" disabled={busy}>{hand ? t('newHand') : t('deal')}</button>
        </form>
      )}
    </section>
  );
}

function HandView({ hand, decide, busy }: { hand: api.Hand; decide: (b: number, d: 'CALL' | 'FOLD') => void; busy: boolean }) {
  // The decision in turn takes the keyboard focus, so Enter calls and Tab reaches fold.
  const turnRef = useRef<HTMLButtonElement>(null);
  // (after the request: a button disabled while it is sent cannot take the focus)
  useEffect(() => { if (hand.phase === 'DECIDING' && !busy) turnRef.current?.focus(); }, [hand.phase, hand.turn, busy]);
  const live = hand.phase !== 'SETTLED';
  return (
    <div class="felt holdem-felt" data-testid="holdem-hand" data-phase={hand.phase}>
      <p>{t('dealer')}: <Cards cards={hand.dealerCards} slots={2} hidden={live} />{' '}
        {hand.dealerHand && <>{t(hand.dealerHand.category)} · {hand.dealerQualifies ? t('dealerQualifies') : t('dealerNotQualified')}</>}</p>
      <p>{t('board')}: <Cards cards={hand.board} slots={5} hidden={live} /></p>
      <p class="mono" data-testid="hand-cut">{t('cut')}: <code>{hand.cut}</code></p>
      <p class="cd-slot">{hand.phase === 'DECIDING' && <>{t('decideBy')} <Countdown at={hand.decisionDeadline} label=" " /></>}</p>
      <ol class="positions boxes">
        {hand.boxes.map((b) => (
          <li key={b.index} class="pos" data-box={b.index}>
            <span class="pn">{t('box')} {b.index}</span>
            <Cards cards={b.cards} slots={2} hidden={live} />
            <span>{t('ante')} {money(b.ante)}{b.bonus !== '0.00' && <> · {t('bonus')} {money(b.bonus)}</>}</span>
            {b.hand && <span class="best">{t(b.hand.category)}</span>}
            {hand.phase === 'DECIDING' && hand.turn === b.index && (
              <span class="actions" role="group" aria-label={`${t('box')} ${b.index}`}>
                <button type="button" ref={turnRef} disabled={busy} onClick={() => decide(b.index, 'CALL')}>{t('call')} ({money(String(Number(b.ante) * 2))})</button>
                <button type="button" disabled={busy} onClick={() => decide(b.index, 'FOLD')}>{t('fold')}</button>
              </span>
            )}
            {b.decision && <span class="badge">{t(b.decision)}{b.timedOut ? ' ⏱' : ''}</span>}
            {b.outcome && b.outcome !== b.decision && <span class="badge ok" data-testid="outcome">{t(b.outcome)}</span>}
            {b.anteReturn != null && <small>{t('ante')} {money(b.anteReturn)} · {t('bet')} {money(b.betReturn)} · {t('bonus')} {money(b.bonusReturn)}</small>}
          </li>
        ))}
      </ol>
      <p>{t('totalStake')}: <b class="num">{money(hand.totalStake)}</b>{hand.totalReturn != null && <> · {t('totalReturn')}: <b class="num" data-testid="total-return">{money(hand.totalReturn)}</b></>}</p>
      <p class="mono"><small>{t('commitment')}: {hand.shuffle.commitment}{hand.shuffle.serverSeed && <><br />{t('serverSeed')}: {hand.shuffle.serverSeed}</>}</small></p>
    </div>
  );
}
