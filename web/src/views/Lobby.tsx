import { useEffect, useState } from 'preact/hooks';
import { listTables, type TablesList } from '../api/table';
import { t, money, errorText, dateTime, tableName } from '../i18n';
import { Link, Countdown, Alert } from '../ui';

/** Lobby: every table with its phase, current draw and countdown, and the jackpot. */
export function Lobby() {
  const [data, setData] = useState<TablesList | null>(null);
  const [err, setErr] = useState('');
  useEffect(() => {
    let live = true;
    const load = () => listTables().then((d) => { if (live) { setData(d); setErr(''); } }, (e) => live && setErr(errorText(e)));
    load();
    const id = setInterval(load, 2000);
    return () => { live = false; clearInterval(id); };
  }, []);
  return (
    <section aria-labelledby="lobby-h">
      <h1 id="lobby-h">{t('tables')}</h1>
      {err && <Alert kind="error">{err}</Alert>}
      {!data && !err && <p class="muted" aria-busy="true">{t('loading')}</p>}
      {data && (data.jackpot.enabled
        ? <p class="jackpot">{t('jackpot')}: <b class="num" data-testid="jackpot">{money(data.jackpot.balance)}</b></p>
        : <p class="jackpot muted" data-testid="jackpot-off">{t('jackpotOffPlayer')}</p>)}
      <ul class="lobby">
        {data?.tables.map((tb) => (
          <li key={tb.id} class="tile" data-table={tb.id}>
            <h2><Link href={`/table/${tb.id}`}>{tableName(tb.name)}</Link></h2>
            <p>{t('positionsCount', { n: tb.positions })} · {t('minStake')} {money(tb.settings.minStake)}</p>
            <p>
              {tb.status === 'PAUSED' ? <span class="badge warn">{t('paused')}</span> : <span class="badge">{t('running')}</span>}{' '}
              {tb.currentDraw && <>{t('draw')} #{tb.currentDraw.number} · <span data-testid="phase">{t(tb.currentDraw.phase)}</span></>}
            </p>
            <p class="cd">{tb.currentDraw?.openRound && <Countdown at={tb.currentDraw.roundClosesAt} />}</p>
            {tb.currentDraw?.beaconDelay && (
              <p class="muted" role="status" data-testid="beacon-delay">
                {t('beaconDelay', { round: tb.currentDraw.beaconDelay.round, deadline: dateTime(tb.currentDraw.beaconDelay.deadline) })}
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
