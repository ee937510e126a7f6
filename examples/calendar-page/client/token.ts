import { el } from './elements.js';
import type { Labels } from './labels.js';

const KEY = 'calendar-page:token';

/** The token kept in this tab's `sessionStorage` (gone with the tab; never in a URL or a cookie). */
export function storedToken(): string | undefined {
  return sessionStorage.getItem(KEY) || undefined;
}

/**
 * The token form: a password field, "Use token" and "Forget token"; `changed` runs after either.
 * Logged out by default: nothing is sent until a token is entered.
 */
export function tokenForm(labels: Labels, changed: () => void): HTMLElement {
  const input = el('input', { id: 'token', type: 'password', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'token-hint' });
  const state = el('p', { id: 'token-state', role: 'status' });
  const forget = el('button', { type: 'button' }, labels.forgetToken);
  const show = () => {
    const signedIn = storedToken() !== undefined;
    state.textContent = signedIn ? labels.signedIn : labels.signedOut;
    forget.hidden = !signedIn;
  };
  const form = el(
    'form',
    { class: 'token' },
    el('label', { for: 'token' }, labels.token),
    input,
    el('button', { type: 'submit' }, labels.useToken),
    forget,
    el('p', { id: 'token-hint', class: 'hint' }, labels.tokenHint),
    state,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = input.value.trim();
    if (!token) return;
    sessionStorage.setItem(KEY, token);
    input.value = '';
    show();
    changed();
  });
  forget.addEventListener('click', () => {
    sessionStorage.removeItem(KEY);
    show();
    changed();
  });
  show();
  return form;
}
