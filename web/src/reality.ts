// Reality checks the player chose: every N minutes of a signed-in session
// the header reminds them how long they have played and what today came to
// (the server's own REALITY_CHECK reminder, if the operator set one, comes
// as a user event on top of this).
import { signal } from '@preact/signals';

export const REALITY_CHOICES = [0, 15, 30, 60];
const KEY = 'pokertote.realityEvery';
const saved = Number(localStorage.getItem(KEY) ?? '30');
/** Minutes between reminders; 0 is off. */
export const realityEvery = signal(REALITY_CHOICES.includes(saved) ? saved : 30);
export function setRealityEvery(m: number) {
  realityEvery.value = m;
  localStorage.setItem(KEY, String(m));
}
/** When this session started (the page was opened signed in). */
export const sessionStart = Date.now();
