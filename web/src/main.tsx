// Pokertote reference web client: lobby, live table with bet slip, Casino
// Hold'em, account, admin pages and an in-browser verifier.
import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import './style.css';
import { route, Link } from './ui';
import { t, lang, setLang, LANGS, money, type Lang } from './i18n';
import { me, loadMe, online, sessionNotice } from './api/account';
import { Lobby } from './views/Lobby';
import { Table } from './views/Table';
import { Holdem } from './views/Holdem';
import { Account } from './views/Account';
import { Admin } from './views/Admin';
import { Verify } from './views/Verify';
import { Reports } from './views/Reports';
import { Players, Player } from './views/Players';

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
          {user?.role === 'ADMIN' && <Link href="/admin">{t('admin')}</Link>}
          {user?.role === 'ADMIN' && <Link href="/reports">{t('reports')}</Link>}
          {user?.role === 'ADMIN' && <Link href="/players">{t('players')}</Link>}
          <Link href="/account">{user ? user.name : t('signIn')}</Link>
        </nav>
        <div class="right">
          {user && <span class="balance">{t('balance')}: <b class="num" data-testid="balance">{money(user.balance)}</b></span>}
          <span class={'dot ' + (online.value ? 'on' : 'off')} role="status" aria-label={online.value ? t('online') : t('offline')} title={online.value ? t('online') : t('offline')} />
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
      <main id="main" tabIndex={-1}><Page /></main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
