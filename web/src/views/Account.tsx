import { useEffect, useState } from 'preact/hooks';
import { me, login, register, logout, submitVerification, ageOn, userTick, ledger, termsVersion, type LedgerEntry } from '../api/account';
import { dateTime } from '../i18n';
import type { DocumentType } from '../gql/graphql';
import { t, money, errorText, tableName } from '../i18n';
import { Field, Alert, Link } from '../ui';

/** Account: sign in, register (21+), verification document, ledger. */
export function Account() {
  const user = me.value;
  if (!user) return <section class="account"><h1>{t('account')}</h1><div class="cols"><SignIn /><Register /></div></section>;
  return (
    <section class="account" aria-labelledby="acc-h">
      <h1 id="acc-h">{t('account')}</h1>
      <p><b data-testid="user-email">{user.email}</b> · {user.name} · <span data-testid="user-role">{t(user.role)}</span> · id <code data-testid="user-id">{user.id}</code></p>
      <p>{t('balance')}: <b class="num" data-testid="account-balance">{money(user.balance)}</b></p>
      <p>{t('verification')}: <b data-testid="verification-status">{t(user.verification.status)}</b>{user.verification.rejectReason && <> · <span data-testid="reject-reason">{t('rej.' + user.verification.rejectReason)}</span></>}</p>
      <nav class="account-links" aria-label={t('account')}><Link href="/bets">{t('betHistory')}</Link> · <Link href="/play-safe">{t('playSafe')}</Link> · <Link href="/rules">{t('rules')}</Link></nav>
      {(user.verification.status === 'NONE' || user.verification.status === 'REJECTED') && user.role === 'PLAYER' && <Verification dob={user.dateOfBirth} />}
      <Ledger />
      <p><button type="button" onClick={() => logout()}>{t('signOut')}</button></p>
    </section>
  );
}

function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [err, setErr] = useState('');
  return (
    <form class="card-form" aria-labelledby="signin-h" onSubmit={async (e) => { e.preventDefault(); setErr(''); try { await login(email, password); } catch (x) { setErr(errorText(x)); } }}>
      <h2 id="signin-h">{t('signIn')}</h2>
      <Field label={t('email')}><input name="email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} /></Field>
      <Field label={t('password')}><input name="password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} /></Field>
      <button type="submit">{t('signIn')}</button>
      {err && <Alert kind="error">{err}</Alert>}
    </form>
  );
}

function Register() {
  const [f, setF] = useState({ email: '', password: '', name: '', dateOfBirth: '' });
  const [terms, setTerms] = useState(false);
  const [err, setErr] = useState('');
  // The version of the terms shown (the rules and play-safe pages): the
  // registration accepts exactly it, and the server stores the acceptance.
  const [version, setVersion] = useState('');
  useEffect(() => { termsVersion().then(setVersion, (x) => setErr(errorText(x))); }, []);
  const set = (k: keyof typeof f) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLInputElement).value });
  const submit = async (e: Event) => {
    e.preventDefault();
    setErr('');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(f.dateOfBirth) || ageOn(f.dateOfBirth) < 21) { setErr(t('mustBe21')); return; }
    if (!terms) { setErr(t('acceptTermsFirst')); return; }
    try { await register({ ...f, acceptedTerms: version }); } catch (x) { setErr(errorText(x)); }
  };
  return (
    <form class="card-form" aria-labelledby="reg-h" onSubmit={submit}>
      <h2 id="reg-h">{t('register')}</h2>
      <Field label={t('email')}><input name="reg-email" type="email" autocomplete="email" required value={f.email} onInput={set('email')} /></Field>
      <Field label={t('password')}><input name="reg-password" type="password" autocomplete="new-password" required minLength={8} value={f.password} onInput={set('password')} /></Field>
      <Field label={t('name')}><input name="reg-name" autocomplete="name" required value={f.name} onInput={set('name')} /></Field>
      <Field label={t('dob')} hint={t('mustBe21')}><input name="reg-dob" type="date" required value={f.dateOfBirth} onInput={set('dateOfBirth')} /></Field>
      <label class="check terms"><input type="checkbox" name="reg-terms" checked={terms} onChange={(e) => setTerms((e.target as HTMLInputElement).checked)} />
        <span>{t('acceptTerms')} <Link href="/rules">{t('rules')}</Link> · <Link href="/play-safe">{t('playSafe')}</Link></span></label>
      <button type="submit">{t('register')}</button>
      {err && <Alert kind="error">{err}</Alert>}
    </form>
  );
}

function Verification({ dob }: { dob: string }) {
  const [type, setType] = useState<DocumentType>('ID_CARD');
  const [num, setNum] = useState('');
  const [date, setDate] = useState(dob);
  const [err, setErr] = useState('');
  return (
    <form class="card-form" aria-labelledby="ver-h" onSubmit={async (e) => { e.preventDefault(); setErr(''); try { await submitVerification({ documentType: type, documentNumber: num, dateOfBirth: date }); } catch (x) { setErr(errorText(x)); } }}>
      <h2 id="ver-h">{t('verification')}</h2>
      <Field label={t('docType')}>
        <select name="doc-type" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as DocumentType)}>
          {(['ID_CARD', 'PASSPORT', 'DRIVERS_LICENSE'] as const).map((d) => <option key={d} value={d}>{t(d)}</option>)}
        </select>
      </Field>
      <Field label={t('docNumber')}><input name="doc-number" required value={num} onInput={(e) => setNum((e.target as HTMLInputElement).value)} /></Field>
      <Field label={t('dob')}><input name="doc-dob" type="date" required value={date} onInput={(e) => setDate((e.target as HTMLInputElement).value)} /></Field>
      <button type="submit">{t('submit')}</button>
      {err && <Alert kind="error">{err}</Alert>}
    </form>
  );
}

const LEDGER_PAGE = 20;

/** Ledger: the wallet's entries, newest first, by kind and date in the operator's zone, a page at a time (the connection's cursor). */
function Ledger() {
  const [rows, setRows] = useState<LedgerEntry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A new entry (user event) reloads the first page; "show more" appends the next.
  useEffect(() => { ledger(LEDGER_PAGE).then((p) => { setRows(p.rows); setNext(p.next); }, () => setRows([])); }, [userTick.value]);
  const more = async () => {
    if (!next || busy) return;
    setBusy(true);
    try { const p = await ledger(LEDGER_PAGE, next); setRows([...(rows ?? []), ...p.rows]); setNext(p.next); } finally { setBusy(false); }
  };
  return (
    <section aria-labelledby="ledger-h">
      <h2 id="ledger-h">{t('ledger')}</h2>
      {rows === null ? <p class="muted" aria-busy="true">{t('loading')}</p> : rows.length === 0 ? <p class="muted">{t('noEntries')}</p> : (
        <table class="bets ledger" data-testid="ledger">
          <thead><tr><th scope="col">{t('date')}</th><th scope="col">{t('kind')}</th><th scope="col">{t('amount')}</th><th scope="col">{t('balance')}</th></tr></thead>
          <tbody>{rows.map((r) => (
            <tr key={r.id} data-kind={r.kind}>
              <td data-label={t('date')}><small>{dateTime(r.createdAt)}</small></td>
              <td data-label={t('kind')}>{t(r.kind)}<br /><small class="muted" data-testid="ledger-ref">{ledgerRef(r)}</small></td>
              <td class="num" data-label={t('amount')}>{money(r.amount)}</td>
              <td class="num" data-testid="ledger-balance" data-label={t('balance')}>{money(r.balanceAfter)}</td>
            </tr>
          ))}</tbody>
        </table>
      )}
      {next && <p><button type="button" class="ghost" disabled={busy} onClick={more}>{t('more')}</button></p>}
    </section>
  );
}

/** ledgerRef names what an entry moved money for: its bet and draw, a pool's settlement, a Casino Hold'em hand. */
function ledgerRef(r: LedgerEntry): string {
  const parts: string[] = [];
  if (r.draw) parts.push(`${tableName(r.draw.table.name)} · ${t('draw')} #${r.draw.number}`);
  if (r.betId) parts.push(t('betNo', { n: r.betId }));
  if (r.round && r.market) parts.push(`${t(r.round)} · ${t(r.market)}`);
  if (r.holdemHandId) parts.push(`${t('holdem')} #${r.holdemHandId}`);
  return parts.join(' · ') || '\u00a0';
}
