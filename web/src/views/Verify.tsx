import { useEffect, useState } from 'preact/hooks';
import { publishedResult, publishedLeaves, drawHeading, type DrawHeading } from '../api/table';
import { verifyDraw, fetchDrandRound, type Verdict, type Recorded } from '../verify';
import { recordedOf } from '../api/recorded';
import { t, errorText, tableName } from '../i18n';
import { Field, Alert } from '../ui';

/** Verify: recompute a finished draw in the browser from its published result. */
export function Verify() {
  const [id, setId] = useState(new URLSearchParams(location.search).get('draw') ?? '');
  const [json, setJson] = useState('');
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const [err, setErr] = useState('');
  const [recorded, setRecorded] = useState<Recorded | null>(null);
  const [busy, setBusy] = useState(false);
  const [heading, setHeading] = useState<DrawHeading | null>(null);
  // The suspension check enumerates every board of the POCKET round (up to
  // 1.7 million) and yields to the page as it goes: say it is working.
  const check = async (text: string, rec?: Recorded, drawId?: string) => {
    setBusy(true);
    // Loaded by draw id, every bet is downloaded too and the pools are
    // recomputed from the bets themselves.
    try { setVerdict(await verifyDraw(text, rec, fetchDrandRound, drawId ? publishedLeaves(drawId) : undefined)); } finally { setBusy(false); }
  };
  const load = async (drawId: string) => {
    setErr(''); setVerdict(null); setHeading(null);
    drawHeading(drawId).then(setHeading, () => undefined);
    try {
      const json = await publishedResult(drawId);
      if (!json) { setErr(t('err.DRAW_NOT_FINISHED')); return; }
      const pretty = JSON.stringify(JSON.parse(json), null, 1);
      setJson(pretty);
      // Checked against what this browser recorded while the draw ran, if it watched it.
      const rec = recordedOf(drawId);
      setRecorded(rec ?? null);
      await check(pretty, rec, drawId);
    } catch (e) { setErr(errorText(e)); }
  };
  useEffect(() => { if (id) void load(id); }, []);
  return (
    <section aria-labelledby="ver-h" class="verify">
      <h1 id="ver-h">{t('verifyTitle')}</h1>
      <p>{t('verifyHelp')}</p>
      <form class="card-form" onSubmit={(e) => { e.preventDefault(); void load(id); }}>
        <Field label={t('drawId')}><input name="draw-id" value={id} onInput={(e) => setId((e.target as HTMLInputElement).value)} /></Field>
        <button type="submit">{t('load')}</button>
      </form>
      {heading && <h2 data-testid="verify-draw">{tableName(heading.table.name)} · {t('draw')} #{heading.number}</h2>}
      {err && <Alert kind="error">{err}</Alert>}
      <form class="card-form" onSubmit={(e) => { e.preventDefault(); setVerdict(null); setRecorded(null); void check(json); }}>
        <Field label={t('resultJson')}><textarea name="result-json" rows={10} spellcheck={false} value={json} onInput={(e) => { setJson((e.target as HTMLTextAreaElement).value); setVerdict(null); }} /></Field>
        <button type="submit">{t('check')}</button>
      </form>
      {busy && <p data-testid="verifying" aria-live="polite">{t('verifying')}</p>}
      {verdict && (
        <div class={'verdict ' + (verdict.verdict === 'ok' ? 'ok' : 'bad')} data-testid="verdict" data-ok={String(verdict.ok)} data-verdict={verdict.verdict} role="status">
          <h2>{verdict.verdict === 'ok' ? '✔ ' + t('verified') : verdict.verdict === 'local' ? '⚠ ' + t('verifiedLocal') : '✘ ' + t('notVerified')}</h2>
          <ul>
            <li>{verdict.commitmentValid ? '✔' : '✘'} {t('commitmentOk')}</li>
            <li>{verdict.cardsMatch ? '✔' : '✘'} {t('cardsOk')}</li>
            <li>{verdict.payoutsMatch ? '✔' : '✘'} {t('poolsOk')}</li>
            {verdict.beaconsValid !== null && <li>{verdict.beaconsValid ? '✔' : '✘'} {t('beaconsOk')}</li>}
            {verdict.suspensionsMatch !== undefined && <li>{verdict.suspensionsMatch ? '✔' : '✘'} {t('suspensionsOk')}</li>}
            {recorded && <li data-testid="recorded-checked">{verdict.problems.some((p) => /recorded/.test(p)) ? '✘' : '✔'} {t('recordedOk')}</li>}
          </ul>
          {verdict.notes.length > 0 && <ul>{verdict.notes.map((n, i) => <li key={i} data-note={n}>{t(n)}</li>)}</ul>}
          {verdict.problems.length > 0 && <><h3>{t('problems')}</h3><ul class="mono">{verdict.problems.map((p, i) => <li key={i}>{p}</li>)}</ul></>}
        </div>
      )}
    </section>
  );
}
