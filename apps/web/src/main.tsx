import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { Providers } from '@/app/providers';
import { AppRoutes, preloadInitialRoute } from '@/app/router';
import { trackRouteFocus } from '@/lib/route-focus';
import { applyTheme, getInitialTheme } from '@/lib/theme';

// index.html's inline theme script already did this before paint; repeating it keeps the app right if that file failed to load.
applyTheme(getInitialTheme());

// Fetch the first screen's chunks now, in parallel with the shell, not one after the other.
preloadInitialRoute(window.location.pathname);

// Focus follows the user to each new screen's heading.
trackRouteFocus();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <Providers>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  </StrictMode>,
);
