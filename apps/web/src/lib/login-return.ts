/**
 * What /login is given to bring the user back after signing in (features/login/login-form.tsx): the screen
 * they were on, with its query (filters, a search, a page), in the router's history state. Never a URL from outside: only this
 * tab's own navigation can put it there, and `returnPath` accepts nothing but a path of this console.
 */
export interface LoginState {
  from: string;
}

export function loginState({
  pathname,
  search,
  hash,
}: {
  pathname: string;
  search: string;
  hash: string;
}): LoginState {
  return { from: `${pathname}${search}${hash}` };
}

/** Where to go after signing in: the path /login was sent from, when it is one of ours, else the dashboard. */
export function returnPath(state: unknown): string {
  const from = (state as Partial<LoginState> | null)?.from;
  // A path of this origin only: '//host' and '/\host' are other sites to a browser; /login would loop.
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) {
    return '/';
  }
  if (from === '/login' || from.startsWith('/login?') || from.startsWith('/login#')) return '/';
  return from;
}
