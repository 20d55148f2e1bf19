import type { Settings, UpdateSettingsRequest } from '@loyalty/contracts';

// Not imported from the contracts: their index brings zod into every chunk that reads settings.
const DEFAULT_CURRENCY = 'EUR';

import { queryOptions } from '@tanstack/react-query';
import { apiClient } from './api-client';

const SETTINGS = '/api/v1/settings';

export const settingsKeys = {
  all: ['settings'] as const,
};

export function settingsQuery() {
  return queryOptions({
    queryKey: settingsKeys.all,
    queryFn: ({ signal }) => apiClient.get<Settings>(SETTINGS, { signal }),
    // Spec section 8: 'Failed to load settings', with the server's message under it.
    meta: { errorTitle: 'Failed to load settings' },
  });
}

export function saveSettings(body: UpdateSettingsRequest): Promise<Settings> {
  return apiClient.post<Settings>(SETTINGS, body);
}

/**
 * The programme's currency for showing money (receipts, Finance). Shared by features, so it lives here;
 * while settings load (or if they fail) money shows in the default currency.
 */
export function programmeCurrency(settings: Settings | undefined): string {
  // `?.` on programme too: an answer from a server older than the setting has no programme group.
  return settings?.programme?.currency ?? DEFAULT_CURRENCY;
}
