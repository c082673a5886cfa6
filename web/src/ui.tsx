// Small shared pieces: navigation, cards, countdowns, form fields.
import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { t } from './i18n';

export const route = signal(location.pathname);
window.addEventListener('popstate', () => { route.value = location.pathname; });

export function go(path: string) {
  if (path === location.pathname) return;
  history.pushState(null, '', path);
  route.value = path.split('?')[0];
  window.scrollTo(0, 0);
  // Keyboard and screen-reader users land on the new page's content.
  setTimeout(() => document.getElementById('main')?.focus({ preventScroll: true }), 0);
}

export function Link({ href, children, class: cls }: { href: string; children: ComponentChildren; class?: string }) {
  return (
    <a href={href} class={cls} aria-current={route.value === href ? 'page' : undefined}
      onClick={(e) => { if (e.ctrlKey || e.metaKey || e.shiftKey) return; e.preventDefault(); go(href); }}>{children}</a>
  );
}

const FOUR_KEY = 'pokertote.fourColour';
/** fourColour paints diamonds blue and clubs green (a deck a player can tell apart at a glance); saved per browser. */
export const fourColour = signal(localStorage.getItem(FOUR_KEY) === '1');
function paintDeck() { document.documentElement.classList.toggle('four-colour', fourColour.value); }
paintDeck();
export function setFourColour(on: boolean) {
  fourColour.value = on;
  localStorage.setItem(FOUR_KEY, on ? '1' : '0');
  paintDeck();
}

const SUIT: Record<string, [string, string]> = { h: ['♥', 'hearts'], d: ['♦', 'diamonds'], c: ['♣', 'clubs'], s: ['♠', 'spades'] };
const RANK: Record<string, string> = { T: '10', J: 'J', Q: 'Q', K: 'K', A: 'A' };

/** Card draws one card ("Ah"); an empty slot when card is undefined, a back when hidden. */
export function Card({ card, hidden }: { card?: string; hidden?: boolean }) {
  if (hidden) return <span class="card back" role="img" aria-label={t('hiddenCard')} />;
  if (!card) return <span class="card slot" aria-hidden="true" />;
  const [glyph, name] = SUIT[card[1]] ?? ['?', '?'];
  const rank = RANK[card[0]] ?? card[0];
  return (
    <span class={'card suit-' + card[1] + ' ' + (card[1] === 'h' || card[1] === 'd' ? 'red' : 'black')} role="img" aria-label={t('cardName', { rank, suit: t(name) })} data-card={card}>
      {rank}<small>{glyph}</small>
    </span>
  );
}

/** Cards draws cards padded to slots; the padding is drawn as card backs when hidden (dealt but not shown), else as empty slots. */
export function Cards({ cards, slots = 0, hidden = false }: { cards: readonly string[]; slots?: number; hidden?: boolean }) {
  const n = Math.max(slots, cards.length);
  return <span class="cards">{Array.from({ length: n }, (_, i) => <Card key={i} card={cards[i]} hidden={hidden && !cards[i]} />)}</span>;
}

/** useNow re-renders every period ms. */
export function useNow(period = 250): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), period);
    return () => clearInterval(id);
  }, [period]);
  return now;
}

/** Countdown shows the seconds left until at (server time), with a fixed width. */
export function Countdown({ at, label }: { at: string | null | undefined; label?: string }) {
  const now = useNow();
  if (!at) return null;
  const left = Math.max(0, Math.ceil((Date.parse(at) - now) / 1000));
  return (
    <span class={'countdown' + (left <= 5 ? ' soon' : '')} role="timer" aria-label={(label ?? t('closesIn')) + ' ' + t('seconds', { n: left })}>
      {label ?? t('closesIn')} <b class="num">{String(left).padStart(2, '\u2007')}{'\u00a0'}{t('sec')}</b>
    </span>
  );
}

export function Field({ label, children, hint }: { label: string; children: ComponentChildren; hint?: string }) {
  return (
    <label class="field">
      <span>{label}</span>
      {children}
      {hint && <small class="hint">{hint}</small>}
    </label>
  );
}

export function Alert({ kind, children }: { kind: 'error' | 'ok' | 'info'; children: ComponentChildren }) {
  return <p class={'alert ' + kind} role={kind === 'error' ? 'alert' : 'status'}>{children}</p>;
}
