import { type ReactNode, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import {
  clearSession,
  EXPIRY_KEY,
  endSession,
  getExpiry,
  isSessionValid,
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
  useEffect(() => {
    setSessionExpiryHandler(() => navigate('/login', { replace: true }));
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

/** Every route but /login: without a valid session the user goes to /login, replacing history. */
export function RequireAuth({ children }: { children: ReactNode }) {
  useLocation(); // re-check on every navigation
  useExpiryTimer();
  if (!isSessionValid()) {
    clearSession();
    return <Navigate to="/login" replace />;
  }
  return children;
}

/** /login for someone already signed in goes to the dashboard. */
export function RedirectIfAuthenticated({ children }: { children: ReactNode }) {
  if (isSessionValid()) return <Navigate to="/" replace />;
  return children;
}
