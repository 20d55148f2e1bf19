import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { type Location, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { loginState, returnPath } from '@/lib/login-return';
import {
  clearSession,
  endSession,
  followOtherUser,
  getExpiry,
  isOtherUsersToken,
  isSessionChange,
  isSessionValid,
  setSessionExpiryHandler,
  showStoredUser,
  takeFollowedUser,
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
  useEffect(() => {
    // This tab reloaded as the user another tab signed in as (lib/session.ts followOtherUser): say so.
    const followed = takeFollowedUser();
    if (followed) notify.success(`Signed in as ${followed} in another tab.`, { id: 'session-followed' });
  }, []);
  return <Outlet />;
}

/**
 * Ends the session when the stored expiry passes, or when another tab signs out; follows another tab's
 * sign-in as someone else (a reload as them: nothing of the first user's stays on screen).
 */
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
      if (!isSessionChange(event)) return;
      if (!isSessionValid()) endSession();
      else if (isOtherUsersToken()) followOtherUser();
      else arm();
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
  const otherUser = isSessionValid() && isOtherUsersToken();
  useEffect(() => {
    if (otherUser) followOtherUser();
  }, [otherUser]);
  if (!isSessionValid()) {
    clearSession();
    return <Navigate to="/login" replace state={loginState(location)} />;
  }
  // Signed in as someone else in another tab, its storage event not yet here: nothing is drawn for either.
  if (otherUser) return null;
  showStoredUser();
  return children;
}

/**
 * /login for someone already signed in goes where it would after signing in; so does a /login left open while
 * another tab signs in (it would otherwise invite a second sign-in over the first).
 */
export function RedirectIfAuthenticated({ children }: { children: ReactNode }) {
  const location = useLocation();
  const queryClient = useQueryClient();
  const [, setSignedInElsewhere] = useState(0);
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (!isSessionChange(event) || !isSessionValid()) return;
      // What this tab kept from a session that ended here is not the new one's to see.
      queryClient.clear();
      setSignedInElsewhere((n) => n + 1);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [queryClient]);
  if (isSessionValid()) return <Navigate to={returnPath(location.state)} replace />;
  return children;
}
