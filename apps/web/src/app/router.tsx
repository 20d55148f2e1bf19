import { Suspense, useLayoutEffect } from 'react';
import { Navigate, type RouteObject, useLocation, useRoutes } from 'react-router';
import { PageSkeleton } from '@/components/layout/page-skeleton';
import { routeChanged } from '@/lib/route-focus';
import { isSessionValid } from '@/lib/session';
import { type LazyPage, lazyPage } from './lazy-page';
import { RouteErrorBoundary } from './route-error-boundary';
import { RedirectIfAuthenticated, RequireAuth, SessionRoot } from './session-guard';

// The shell behind sign-in is a chunk of its own, so /login downloads only what it shows.
const shell = lazyPage(
  () => import('./authenticated-shell'),
  (m) => m.AuthenticatedShell,
);

// One chunk per screen: each feature page loads when its route is first visited.
const login = lazyPage(
  () => import('@/features/login/login-page'),
  (m) => m.LoginPage,
);
const dashboard = lazyPage(
  () => import('@/features/dashboard/dashboard-page'),
  (m) => m.DashboardPage,
);
const pages: Record<string, LazyPage> = {
  dashboard,
  users: lazyPage(
    () => import('@/features/users/users-page'),
    (m) => m.UsersPage,
  ),
  settings: lazyPage(
    () => import('@/features/settings/settings-page'),
    (m) => m.SettingsPage,
  ),
  audit: lazyPage(
    () => import('@/features/audit/audit-page'),
    (m) => m.AuditPage,
  ),
  rulesets: lazyPage(
    () => import('@/features/rulesets/rulesets-page'),
    (m) => m.RulesetsPage,
  ),
  'sku-exclusions': lazyPage(
    () => import('@/features/sku-exclusions/sku-exclusions-page'),
    (m) => m.SkuExclusionsPage,
  ),
  accounts: lazyPage(
    () => import('@/features/accounts/accounts-page'),
    (m) => m.AccountsPage,
  ),
  cards: lazyPage(
    () => import('@/features/cards/cards-page'),
    (m) => m.CardsPage,
  ),
  clients: lazyPage(
    () => import('@/features/clients/clients-page'),
    (m) => m.ClientsPage,
  ),
  // One client's page: every client ID, account id and card number in the console links here.
  'clients/:ref': lazyPage(
    () => import('@/features/clients/client-page'),
    (m) => m.ClientPage,
  ),
  imports: lazyPage(
    () => import('@/features/imports/import-page'),
    (m) => m.ImportPage,
  ),
  operations: lazyPage(
    () => import('@/features/operations/operations-page'),
    (m) => m.OperationsPage,
  ),
  // Finance (issue 9): the points-flow report, with its chart's own lazy chunk.
  reports: lazyPage(
    () => import('@/features/finance/finance-page'),
    (m) => m.FinancePage,
  ),
  'pos-keys': lazyPage(
    () => import('@/features/pos-keys/pos-keys-page'),
    (m) => m.PosKeysPage,
  ),
  webhooks: lazyPage(
    () => import('@/features/webhooks/webhooks-page'),
    (m) => m.WebhooksPage,
  ),
  // Swagger UI and its theme are only ever downloaded here.
  'pos-api': lazyPage(
    () => import('@/features/pos-api/pos-api-page'),
    (m) => m.PosApiPage,
  ),
};

/**
 * Starts the chunks of the page the browser opened with, before React renders the route tree, and settles when
 * they are in (or failed: a chunk that cannot load is then reported by the route's error boundary).
 */
export function preloadInitialRoute(pathname: string): Promise<unknown> {
  if (pathname === '/login' || !isSessionValid()) return Promise.allSettled([login.preload()]);
  const [, first = '', second] = pathname.split('/');
  const page = pages[second && first === 'clients' ? 'clients/:ref' : first || 'dashboard'];
  return Promise.allSettled([shell.preload(), page?.preload()]);
}

const Shell = shell.Component;
const Login = login.Component;
const Dashboard = dashboard.Component;

/** Spec section 2 "Route rules". */
const routes: RouteObject[] = [
  {
    element: <SessionRoot />,
    children: [
      {
        path: '/login',
        element: (
          <RedirectIfAuthenticated>
            <Suspense fallback={null}>
              <Login />
            </Suspense>
          </RedirectIfAuthenticated>
        ),
      },
      {
        element: (
          <RequireAuth>
            <Suspense
              fallback={
                <div className="p-4 md:p-6">
                  <PageSkeleton />
                </div>
              }
            >
              <Shell />
            </Suspense>
          </RequireAuth>
        ),
        children: [
          { index: true, element: <Dashboard /> },
          ...Object.entries(pages).map(([path, page]) => ({ path, element: <page.Component /> })),
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/**
 * The route tree, inside main.tsx's <BrowserRouter>. The declarative router, not createBrowserRouter: the
 * console uses no loader, action, fetcher or blocker, and the data router's code was ~14 kB compressed of
 * every first screen. What the console had from it is here: the route-change signal for focus
 * (lib/route-focus.ts) and the root error boundary (an error page users can act on).
 */
export function AppRoutes() {
  const location = useLocation();
  // A layout effect: it runs before the passive effects of the same commit, where a screen's heading asks
  // for focus (PageHeader), as the data router's subscription did before React rendered.
  useLayoutEffect(() => routeChanged(location.pathname), [location.pathname]);
  return <RouteErrorBoundary location={location}>{useRoutes(routes)}</RouteErrorBoundary>;
}
