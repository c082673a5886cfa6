// Pokertote reference web client: lobby, live table with bet slip, Casino
// Hold'em, account, admin pages and an in-browser verifier.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './style.css';
import { route, Link } from './ui';
import { t, lang, setLang, LANGS, money, errorText, type Lang } from './i18n';
import { me, loadMe, online, sessionNotice, terms, acceptTerms } from './api/account';
import { Lobby } from './views/Lobby';
import { Table } from './views/Table';
import { Holdem } from './views/Holdem';
import { Account } from './views/Account';
import { Admin } from './views/Admin';
import { Verify } from './views/Verify';
import { Reports } from './views/Reports';
import { Players, Player } from './views/Players';
import { Rules } from './views/Rules';
import { PlaySafe } from './views/PlaySafe';
import { BetHistory } from './views/BetHistory';
import { fourColour, setFourColour } from './ui';
import { realityEvery, sessionStart } from './reality';
import { useNow } from './ui';

function Page() {
  const p = route.value;
  const m = /^\/table\/([^/]+)$/.exec(p);
  if (m) return <Table id={decodeURIComponent(m[1])} />;
  const pl = /^\/player\/([0-9]+)$/.exec(p);
  if (pl) return <Player id={pl[1]} />;
  switch (p) {
    case '/holdem': return <Holdem />;
    case '/account': return <Account />;
    case '/admin': return <Admin />;
    case '/reports': return <Reports />;
    case '/players': return <Players />;
    case '/verify': return <Verify />;
    case '/rules': return <Rules />;
    case '/play-safe': return <PlaySafe />;
    case '/bets': return <BetHistory />;
    default: return <Lobby />;
  }
}

function App() {
  useEffect(() => { document.documentElement.lang = lang.value; void loadMe(); }, []);
  const user = me.value;
  void lang.value; // re-render on language change
  return (
    <>
      <a class="skip" href="#main">{t('skip')}</a>
      <header class="top">
        <nav aria-label="main">
          <Link href="/" class="brand">♠ {t('appName')}</Link>
          <Link href="/">{t('lobby')}</Link>
          <Link href="/holdem">{t('holdem')}</Link>
          <Link href="/verify">{t('verify')}</Link>
          <Link href="/rules">{t('rules')}</Link>
          {user && <Link href="/bets">{t('betHistory')}</Link>}
          {user && <Link href="/play-safe">{t('playSafe')}</Link>}
          {user?.role === 'ADMIN' && <Link href="/admin">{t('admin')}</Link>}
          {user?.role === 'ADMIN' && <Link href="/reports">{t('reports')}</Link>}
          {user?.role === 'ADMIN' && <Link href="/players">{t('players')}</Link>}
          <Link href="/account">{user ? user.name : t('signIn')}</Link>
        </nav>
        <div class="right">
          {user && <span class="balance">{t('balance')}: <b class="num" data-testid="balance">{money(user.balance)}</b></span>}
          <span class={'dot ' + (online.value ? 'on' : 'off')} role="status" aria-label={online.value ? t('online') : t('offline')} title={online.value ? t('online') : t('offline')} />
          <label class="suits" title={t('fourColour')}><input type="checkbox" name="four-colour" checked={fourColour.value} onChange={(e) => setFourColour((e.target as HTMLInputElement).checked)} /><span aria-hidden="true">♠♥♦♣</span><span class="sr-only">{t('fourColour')}</span></label>
          <label class="lang"><span class="sr-only">{t('language')}</span>
            <select name="lang" value={lang.value} onChange={(e) => setLang((e.target as HTMLSelectElement).value as Lang)}>
              {LANGS.map((l) => <option key={l.id} value={l.id}>{l.label}</option>)}
            </select>
          </label>
        </div>
      </header>
      {sessionNotice.value && (
        <p class="session-notice" role="status" data-testid="session-notice">
          <span>{t(sessionNotice.value)}</span>
          <button type="button" class="ghost" aria-label={t('dismiss')} onClick={() => { sessionNotice.value = null; }}>×</button>
        </p>
      )}
      {user && <RealityCheck />}
      {user && terms.value && !terms.value.acceptedAt && <TermsChanged version={terms.value.version} />}
      <main id="main" tabIndex={-1}><Page /></main>
    </>
  );
}

/**
 * TermsChanged asks a signed-in user who has not accepted the terms in
 * force (the operator changed them since) to read and accept them; the
 * server stores the acceptance of this very version.
 */
function TermsChanged({ version }: { version: string }) {
  const [err, setErr] = useState('');
  return (
    <section class="session-notice terms-changed" role="region" aria-labelledby="terms-h" data-testid="terms-changed">
      <span id="terms-h">{t('termsChanged')} <Link href="/rules">{t('rules')}</Link> · <Link href="/play-safe">{t('playSafe')}</Link></span>
      <button type="button" onClick={() => { setErr(''); acceptTerms(version).catch((x) => setErr(errorText(x))); }}>{t('acceptTermsButton')}</button>
      {err && <span role="alert">{err}</span>}
    </section>
  );
}

/**
 * RealityCheck reminds a signed-in player, every interval they chose on the
 * play-safe page, how long this session has lasted; it stays until they
 * dismiss it, and the next one comes an interval later.
 */
function RealityCheck() {
  const now = useNow(15000);
  const [seen, setSeen] = useState(0);
  const every = realityEvery.value;
  if (!every) return null;
  const minutes = Math.floor((now - sessionStart) / 60000);
  const due = Math.floor(minutes / every);
  if (due <= seen) return null;
  return (
    <p class="session-notice reality" role="status" data-testid="reality-check">
      <span>{t('realityNow', { n: minutes })} <Link href="/play-safe">{t('playSafe')}</Link></span>
      <button type="button" class="ghost" aria-label={t('dismiss')} onClick={() => setSeen(due)}>×</button>
    </p>
  );
}

render(<App />, document.getElementById('app')!);
