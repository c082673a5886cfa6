import { useEffect, useState } from 'preact/hooks';
import * as reports from '../api/reports';
import { me } from '../api/account';
import { t, money, num, errorText, dateTime, lang } from '../i18n';
import { Alert, Field, Link } from '../ui';

/** Players: the back office's search by part of an email or a name, a document number or its hash (admins). */
export function Players() {
  const [q, setQ] = useState('');
  const [found, setFound] = useState<reports.FoundPlayer[] | null>(null);
  const [err, setErr] = useState<string | null>(null);
  if (me.value?.role !== 'ADMIN') return <section><h1>{t('players')}</h1><Alert kind="error">{t('err.FORBIDDEN')}</Alert></section>;
  const search = (e: Event) => {
    e.preventDefault();
    setErr(null);
    reports.players(q).then(setFound, (x) => { setFound(null); setErr(errorText(x)); });
  };
  return (
    <section class="reports" aria-labelledby="players-h">
      <h1 id="players-h">{t('players')}</h1>
      <form role="search" onSubmit={search}>
        <Field label={t('playerSearch')}><input name="player-search" value={q} onInput={(e) => setQ((e.target as HTMLInputElement).value)} /></Field>
        <button type="submit">{t('find')}</button>
      </form>
      {err && <Alert kind="error">{err}</Alert>}
      {found && (found.length === 0 ? <p class="muted">{t('noEntries')}</p> : (
        <div class="scroll" tabIndex={0} role="region" aria-labelledby="players-h">
          <table class="report" data-testid="players">
            <thead><tr><th scope="col">{t('email')}</th><th scope="col">{t('name')}</th><th scope="col">{t('status')}</th><th scope="col">{t('balance')}</th></tr></thead>
            <tbody>
              {found.map((p) => (
                <tr key={p.id} data-user={p.id}>
                  <td><Link href={'/player/' + p.id}>{p.email}</Link></td><td>{p.name}</td>
                  <td>{p.verification ? t(p.verification.status) : '—'}</td><td class="num">{money(p.balance)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}

/** Player: one player's page for staff: the account, balance, protection, sessions of play (last 30 days), bets and ledger. */
export function Player({ id }: { id: string }) {
  const [data, setData] = useState<reports.PlayerPage | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const range = reports.lastDays(30);
  useEffect(() => { reports.playerPage(id, range.from, range.to).then(setData, (e) => setErr(errorText(e))); }, [id]);
  if (me.value?.role !== 'ADMIN') return <section><h1>{t('players')}</h1><Alert kind="error">{t('err.FORBIDDEN')}</Alert></section>;
  void lang.value;
  if (err) return <section><Alert kind="error">{err}</Alert></section>;
  if (!data) return <p class="muted" aria-busy="true">{t('loading')}</p>;
  const u = data.user;
  if (!u) return <section><Alert kind="error">{t('err.NOT_FOUND')}</Alert></section>;
  const prot = data.playerProtection;
  return (
    <section class="reports player" aria-labelledby="player-h" data-user={u.id}>
      <h1 id="player-h">{u.name} <span class="muted">{u.email}</span></h1>
      <dl class="liability">
        <div><dt>{t('balance')}</dt><dd class="num" data-testid="player-balance" data-value={u.balance}>{money(u.balance)}</dd></div>
        <div><dt>{t('dob')}</dt><dd>{u.dateOfBirth}</dd></div>
        <div><dt>{t('status')}</dt><dd>{u.verification ? t(u.verification.status) : '—'}</dd></div>
        <div><dt>{t('exclusionNow')}</dt><dd>{prot.exclusion?.active ? `${t('ex.' + prot.exclusion.kind)} — ${prot.exclusion.until ? dateTime(prot.exclusion.until) : '∞'}` : '—'}</dd></div>
      </dl>
      <h2 id="pl-lim-h">{t('limitsTitle')}</h2>
      {prot.limits.every((l) => l.amount == null && !l.pending) ? <p class="muted">{t('noEntries')}</p> : (
        <div class="scroll" tabIndex={0} role="region" aria-labelledby="pl-lim-h">
          <table class="report">
            <thead><tr><th scope="col">{t('limitsTitle')}</th><th scope="col">{t('amount')}</th><th scope="col">{t('pendingLimit')}</th></tr></thead>
            <tbody>
              {prot.limits.filter((l) => l.amount != null || l.pending).map((l) => (
                <tr key={l.kind + l.period}><td>{t('lk.' + l.kind)} / {t('lp.' + l.period)}</td><td class="num">{money(l.amount)}</td><td>{l.pending ? `${money(l.pendingAmount)} — ${dateTime(l.pendingFrom)}` : '—'}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2 id="pl-ses-h">{t('sessionsTitle')}</h2>
      {data.playerSessions.length === 0 ? <p class="muted">{t('noEntries')}</p> : (
        <div class="scroll" tabIndex={0} role="region" aria-labelledby="pl-ses-h">
          <table class="report" data-testid="player-sessions">
            <thead><tr>
              <th scope="col">{t('sStart')}</th><th scope="col">{t('sEnd')}</th><th scope="col">{t('rBets')}</th><th scope="col">{t('sWagered')}</th>
              <th scope="col">{t('sWon')}</th><th scope="col">{t('rDeposits')}</th><th scope="col">{t('rWithdrawals')}</th>
              <th scope="col">{t('sStartBalance')}</th><th scope="col">{t('sEndBalance')}</th><th scope="col">{t('sEndReason')}</th>
            </tr></thead>
            <tbody>
              {data.playerSessions.slice().reverse().map((s) => (
                <tr key={s.start}>
                  <td>{dateTime(s.start)}</td><td>{dateTime(s.end)}</td><td class="num">{num(s.bets)}</td>
                  <td class="num" data-figure="wagered" data-value={s.wagered}>{money(s.wagered)}</td><td class="num" data-figure="won" data-value={s.won}>{money(s.won)}</td>
                  <td class="num">{money(s.deposited)}</td><td class="num" data-figure="withdrawn" data-value={s.withdrawn}>{money(s.withdrawn)}</td>
                  <td class="num">{money(s.startBalance)}</td><td class="num">{money(s.endBalance)}</td><td>{t('se.' + s.endReason)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2 id="pl-bets-h">{t('bets')}</h2>
      {data.playerBets.edges.length === 0 ? <p class="muted">{t('noEntries')}</p> : (
        <div class="scroll" tabIndex={0} role="region" aria-labelledby="pl-bets-h">
          <table class="report">
            <thead><tr><th scope="col">{t('rDay')}</th><th scope="col">{t('draw')}</th><th scope="col">{t('selection')}</th><th scope="col">{t('stake')}</th><th scope="col">{t('status')}</th><th scope="col">{t('payout')}</th></tr></thead>
            <tbody>
              {data.playerBets.edges.map(({ node: b }) => (
                <tr key={b.id}><td>{dateTime(b.placedAt)}</td><td>#{b.draw.number}</td><td>{b.market} {b.selection}</td><td class="num">{money(b.stake)}</td><td>{t(b.status)}</td><td class="num">{money(b.payout)}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2 id="pl-led-h">{t('ledgerTitle')}</h2>
      <div class="scroll" tabIndex={0} role="region" aria-labelledby="pl-led-h">
        <table class="report" data-testid="player-ledger">
          <thead><tr><th scope="col">{t('rDay')}</th><th scope="col">{t('amount')}</th><th scope="col">{t('balance')}</th><th scope="col">{t('memo')}</th></tr></thead>
          <tbody>
            {data.playerLedger.edges.map(({ node: e }) => (
              <tr key={e.id} data-kind={e.kind}><td>{dateTime(e.createdAt)}</td><td class="num">{money(e.amount)}</td><td class="num">{money(e.balanceAfter)}</td><td>{e.memo}</td></tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
