import type { Settings, UpdateSettingsRequest } from '@loyalty/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

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
