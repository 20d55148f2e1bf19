import type { APIRequestContext, Page } from '@playwright/test';
import { clientPageScreenshotStates, seedClientPage } from './support/client-page-screenshots';
import { programmeScreenshotStates, seedProgramme } from './support/programme-screenshots';

/**
 * What `e2e/screenshots.ts` photographs. Each screen's author adds to these lists:
 * - `consoleRoutes`: every route, shot as loaded;
 * - `screenshotStates`: extra states of a route (a dialog open, validation errors shown…);
 * - `screenshotSeeders`: data made through the API before any shot, so lists are not empty.
 * States and seeders get the same page and request context types as the browser tests, so the helpers
 * of e2e/support (e.g. programme-api.ts) work here too.
 */

export type ViewportName = 'desktop' | 'mobile';

export const consoleRoutes = [
  '/login',
  '/',
  '/users',
  '/settings',
  '/rulesets',
  '/sku-exclusions',
  '/accounts',
  '/cards',
  '/clients',
  '/imports',
  '/pos-keys',
  '/webhooks',
  '/pos-api',
  '/operations',
  '/reports',
  '/audit',
] as const;

export interface ScreenshotState {
  /** The route the state starts from, loaded and settled before `prepare` runs. */
  route: string;
  /** Goes into the file name: `users--add-user-light-desktop.png`. kebab-case. */
  name: string;
  /** Brings the loaded page into the state; wait for what you open (web-first), not for time. */
  prepare: (page: Page) => Promise<void>;
  /** Limit to some viewports (both by default). */
  viewports?: ViewportName[];
}

/** A seeder runs once, signed in as the admin, before the first shot. */
export type ScreenshotSeeder = (api: APIRequestContext) => Promise<void>;

async function openDialog(page: Page, button: string, dialog: string) {
  await page.getByRole('button', { name: button }).first().click();
  await page.getByRole('dialog', { name: dialog }).waitFor();
}

export const screenshotStates: ScreenshotState[] = [
  {
    route: '/login',
    name: 'errors',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByText('Username is required').waitFor();
    },
  },
  {
    route: '/users',
    name: 'add-user',
    prepare: (page) => openDialog(page, 'Add User', 'Add User'),
  },
  {
    route: '/users',
    name: 'add-user-errors',
    prepare: async (page) => {
      await openDialog(page, 'Add User', 'Add User');
      const dialog = page.getByRole('dialog', { name: 'Add User' });
      await dialog.getByLabel('Username').fill('someone');
      await dialog.getByLabel('Password').fill('secret-password');
      await dialog.getByLabel('Email').fill('not-an-email');
      await dialog.getByRole('button', { name: 'Create User' }).click();
      await dialog.getByText('Please enter a valid email address').waitFor();
    },
  },
  {
    route: '/users',
    name: 'delete-user',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Actions for grace.hopper' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByRole('alertdialog', { name: 'Delete User', exact: true }).waitFor();
    },
  },
  {
    route: '/audit',
    name: 'details',
    prepare: (page) => openDialog(page, 'View Details', 'Audit Entry Details'),
  },
  {
    route: '/users',
    name: 'navigation',
    viewports: ['mobile'],
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Toggle sidebar' }).click();
      await page.getByRole('dialog', { name: 'Navigation' }).waitFor();
    },
  },
  {
    route: '/users',
    name: 'sidebar-collapsed',
    viewports: ['desktop'],
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Toggle sidebar' }).click();
      await page.locator('[data-slot="sidebar"][data-state="collapsed"]').waitFor();
    },
  },
  ...programmeScreenshotStates,
  ...clientPageScreenshotStates,
];

const seedUsers: ScreenshotSeeder = async (api) => {
  const users = [
    { username: 'grace.hopper', fullName: 'Grace Hopper', email: 'grace@example.com', role: 'MANAGER' },
    { username: 'alan.turing', fullName: 'Alan Turing', email: 'alan@example.com', role: 'ADMIN' },
    { username: 'ada', fullName: null, email: null, role: 'VIEWER' },
  ];
  for (const user of users) {
    const response = await api.post('/auth/api/v1/users', { data: { ...user, password: 'screenshot-pass' } });
    if (!response.ok())
      throw new Error(`seeding ${user.username}: ${response.status()} ${await response.text()}`);
  }
};

export const screenshotSeeders: ScreenshotSeeder[] = [seedUsers, seedProgramme, seedClientPage];
