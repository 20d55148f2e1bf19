import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { AppLayout } from '@/components/layout/app-layout';
import { RedirectIfAuthenticated, RequireAuth, SessionRoot } from './session-guard';

// One chunk per screen: each feature page loads when its route is first visited.
const LoginPage = lazy(() => import('@/features/login/login-page').then((m) => ({ default: m.LoginPage })));
const DashboardPage = lazy(() =>
  import('@/features/dashboard/dashboard-page').then((m) => ({ default: m.DashboardPage })),
);
const UsersPage = lazy(() => import('@/features/users/users-page').then((m) => ({ default: m.UsersPage })));
const SettingsPage = lazy(() =>
  import('@/features/settings/settings-page').then((m) => ({ default: m.SettingsPage })),
);
const AuditPage = lazy(() => import('@/features/audit/audit-page').then((m) => ({ default: m.AuditPage })));
const RulesetsPage = lazy(() =>
  import('@/features/rulesets/rulesets-page').then((m) => ({ default: m.RulesetsPage })),
);
const SkuExclusionsPage = lazy(() =>
  import('@/features/sku-exclusions/sku-exclusions-page').then((m) => ({ default: m.SkuExclusionsPage })),
);
const AccountsPage = lazy(() =>
  import('@/features/accounts/accounts-page').then((m) => ({ default: m.AccountsPage })),
);
const CardsPage = lazy(() => import('@/features/cards/cards-page').then((m) => ({ default: m.CardsPage })));
const ClientsPage = lazy(() =>
  import('@/features/clients/clients-page').then((m) => ({ default: m.ClientsPage })),
);
const OperationsPage = lazy(() =>
  import('@/features/operations/operations-page').then((m) => ({ default: m.OperationsPage })),
);
const PosKeysPage = lazy(() =>
  import('@/features/pos-keys/pos-keys-page').then((m) => ({ default: m.PosKeysPage })),
);
const PosApiPage = lazy(() =>
  import('@/features/pos-api/pos-api-page').then((m) => ({ default: m.PosApiPage })),
);

/** Spec section 2 "Route rules". */
export const router = createBrowserRouter([
  {
    element: <SessionRoot />,
    children: [
      {
        path: '/login',
        element: (
          <RedirectIfAuthenticated>
            <Suspense fallback={null}>
              <LoginPage />
            </Suspense>
          </RedirectIfAuthenticated>
        ),
      },
      {
        element: (
          <RequireAuth>
            <AppLayout />
          </RequireAuth>
        ),
        children: [
          { index: true, element: <DashboardPage /> },
          { path: 'dashboard', element: <DashboardPage /> },
          { path: 'users', element: <UsersPage /> },
          { path: 'settings', element: <SettingsPage /> },
          { path: 'audit', element: <AuditPage /> },
          { path: 'rulesets', element: <RulesetsPage /> },
          { path: 'sku-exclusions', element: <SkuExclusionsPage /> },
          { path: 'accounts', element: <AccountsPage /> },
          { path: 'cards', element: <CardsPage /> },
          { path: 'clients', element: <ClientsPage /> },
          { path: 'operations', element: <OperationsPage /> },
          { path: 'pos-keys', element: <PosKeysPage /> },
          { path: 'pos-api', element: <PosApiPage /> },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
]);
