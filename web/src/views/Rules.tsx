import { useEffect, useState } from 'preact/hooks';
import * as holdem from '../api/holdem';
import { t, num } from '../i18n';
import { Link } from '../ui';
import { MARKETS } from '../markets.gen';

/** The betting rounds by number, as the market registry writes them. */
const ROUND_NAMES = ['', 'PRE_DEAL', 'POCKET', 'FLOP', 'TURN'];

const TOTE_SECTIONS = ['markets', 'rounds', 'pools', 'floor', 'suspended', 'refunds', 'fair'] as const;

/**
 * Rules: the totalizator's markets, rounds, pools and the 1.10 floor,
 * suspended selections, refunds and the fair deal in plain words, then
 * Casino Hold'em with its paytables as the server pays them; every word from
 * the catalogue (ru, kk, en). /rules#holdem opens at Casino Hold'em.
 */
export function Rules() {
  const [cfg, setCfg] = useState<holdem.Settings | null>(null);
  useEffect(() => { holdem.settings().then(setCfg, () => undefined); }, []);
  return (
    <article class="rules" aria-labelledby="rules-h">
      <h1 id="rules-h">{t('rules')}</h1>
      <nav aria-label={t('rules')} class="toc"><a href="#tote">{t('toteGame')}</a> · <a href="#holdem">{t('holdem')}</a> · <Link href="/play-safe">{t('playSafe')}</Link></nav>
      <section id="tote" aria-labelledby="tote-h">
        <h2 id="tote-h">{t('toteGame')}</h2>
        <p>{t('r.intro')}</p>
        {TOTE_SECTIONS.map((k) => (
          <section key={k} aria-labelledby={'r-' + k} data-rule={k}>
            <h3 id={'r-' + k}>{t('r.' + k + '.h')}</h3>
            <p>{t('r.' + k)}</p>
          </section>
        ))}
        <table class="plain" data-testid="rules-markets">
          <caption>{t('r.marketTable')}</caption>
          <thead><tr><th scope="col">{t('market')}</th><th scope="col">{t('r.whatWins')}</th><th scope="col">{t('r.offered')}</th></tr></thead>
          <tbody>
            {MARKETS.map((m) => (
              <tr key={m.name}><th scope="row">{t(m.name)}</th><td>{t('r.' + m.name.toLowerCase())}</td><td>{m.rounds.map((r) => t(ROUND_NAMES[r])).join(', ')}</td></tr>
            ))}
          </tbody>
        </table>
      </section>
      <section id="holdem" aria-labelledby="holdem-rules-h">
        <h2 id="holdem-rules-h">{t('holdem')}</h2>
        <p>{t('r.holdem')}</p>
        <p>{t('r.holdemQualify')}</p>
        <p>{t('r.holdemBonus')}</p>
        {cfg ? (
          <div class="paytables">
            <Paytable caption={t('r.antePaytable')} lines={cfg.antePaytable} testid="paytable-ante" />
            <Paytable caption={t('r.bonusPaytable')} lines={cfg.bonusPaytable} testid="paytable-bonus" bonus />
          </div>
        ) : <p class="muted" aria-busy="true">{t('loading')}</p>}
        {cfg && <p class="muted">{t('r.holdemLimits', { min: num(cfg.minAnte), max: num(cfg.maxAnte), s: cfg.decisionSeconds })}</p>}
      </section>
    </article>
  );
}

function Paytable({ caption, lines, testid, bonus }: { caption: string; lines: holdem.Settings['antePaytable']; testid: string; bonus?: boolean }) {
  const rows = [...lines].sort((a, b) => b.odds - a.odds);
  return (
    <table class="plain paytable" data-testid={testid}>
      <caption>{caption}</caption>
      <thead><tr><th scope="col">{t('hand')}</th><th scope="col">{t('r.pays')}</th></tr></thead>
      <tbody>{rows.map((l) => <tr key={l.category} data-category={l.category}><th scope="row">{bonus && l.category === 'PAIR' ? t('r.pairOfAces') : t(l.category)}</th><td class="num">{num(l.odds)} : 1</td></tr>)}</tbody>
    </table>
  );
}
