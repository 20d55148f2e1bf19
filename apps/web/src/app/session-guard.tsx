import { type ReactNode, useEffect, useRef } from 'react';
import { type Location, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import {
  clearSession,
  EXPIRY_KEY,
  endSession,
  getExpiry,
  isSessionValid,
  loginState,
  returnPath,
  setSessionExpiryHandler,
  TOKEN_KEY,
} from '@/lib/session';
import { notify } from '@/lib/toast';

// setTimeout holds at most 2^31-1 ms; a longer wait is re-armed when it fires.
const MAX_TIMEOUT = 2_147_483_647;

function expire() {
  notify.error('Session expired. Please log in again.', { id: 'session-ended' });
  endSession();
}

/** Registers the router-aware session-expiry handler (spec section 4) for the whole app. */
export function SessionRoot() {
  const navigate = useNavigate();
  // The screen the session ends on, read when it ends: signing in again comes back to it.
  const location = useRef<Location | null>(null);
  location.current = useLocation();
  useEffect(() => {
    setSessionExpiryHandler(() => {
      const here = location.current;
      const state = here && here.pathname !== '/login' ? loginState(here) : undefined;
      navigate('/login', { replace: true, state });
    });
    return () => setSessionExpiryHandler(null);
  }, [navigate]);
  return <Outlet />;
}

/** Ends the session when the stored expiry passes, or when another tab signs out. */
function useExpiryTimer() {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(timer);
      const expiry = getExpiry();
      if (expiry === null) return;
      const delay = expiry - Date.now();
      if (delay <= 0) expire();
      else timer = setTimeout(arm, Math.min(delay, MAX_TIMEOUT));
    };
    const onStorage = (event: StorageEvent) => {
      if (event.key !== TOKEN_KEY && event.key !== EXPIRY_KEY && event.key !== null) return;
      if (isSessionValid()) arm();
      else endSession();
    };
    arm();
    window.addEventListener('storage', onStorage);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('storage', onStorage);
    };
  }, []);
}

/**
 * Every route but /login: without a valid session the user goes to /login, replacing history, and comes
 * back here after signing in (a bookmarked deep link opened with an expired session, too).
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation(); // re-check on every navigation
  useExpiryTimer();
  if (!isSessionValid()) {
    clearSession();
    return <Navigate to="/login" replace state={loginState(location)} />;
  }
  return children;
}

/** /login for someone already signed in (in another tab, say) goes where it would after signing in. */
export function RedirectIfAuthenticated({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (isSessionValid()) return <Navigate to={returnPath(location.state)} replace />;
  return children;
}
