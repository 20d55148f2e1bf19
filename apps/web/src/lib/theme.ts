import { useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';

/** Local storage key of the chosen theme (spec section 9). */
export const THEME_KEY = 'theme';

const listeners = new Set<() => void>();

/** The stored choice, else dark when the system prefers dark, else light. */
export function getInitialTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    if (stored === 'light' || stored === 'dark') return stored;
  } catch {
    // Storage blocked: fall through to the system preference.
  }
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function getTheme(): Theme {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  for (const listener of listeners) listener();
}

export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    // The choice still applies for this visit.
  }
  applyTheme(theme);
}

export function toggleTheme(): void {
  setTheme(getTheme() === 'dark' ? 'light' : 'dark');
}

// A theme chosen in another tab applies in this one too: the storage event reaches every tab of the browser
// but the one that wrote. Listened to from the start (main.tsx loads this module first), on every screen.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_KEY || event.key === null) applyTheme(getInitialTheme());
  });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, getTheme, () => 'light');
}
