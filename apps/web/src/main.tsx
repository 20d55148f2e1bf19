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

// Focus follows the user to each new screen's heading.
trackRouteFocus();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The first screen's chunks, fetched in parallel with the shell (index.html already asked for them). React renders
// when they are in, so the first screen mounts at once instead of behind a fallback; meanwhile index.html's loading
// state stays up.
void preloadInitialRoute(window.location.pathname).then(() =>
  createRoot(root).render(
    <StrictMode>
      <Providers>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </Providers>
    </StrictMode>,
  ),
);
