import type { CreateUserRequest, Paged, Role, User } from '@loyalty/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ServerTableParams } from '@/components/data-table';
import { apiClient } from '@/lib/api-client';

export type UserFilters = { role: Role | undefined };
export type UserListParams = ServerTableParams<UserFilters>;

const USERS = '/auth/api/v1/users';

export const usersKeys = {
  all: ['users'] as const,
  list: (params: UserListParams) => ['users', 'list', params] as const,
};

export function usersListQuery(params: UserListParams) {
  return queryOptions({
    queryKey: usersKeys.list(params),
    queryFn: ({ signal }) => apiClient.get<Paged<User>>(USERS, { query: params, signal }),
    placeholderData: keepPreviousData,
    // A 403 becomes the permission state on screen, not a toast.
    meta: { errorTitle: 'Failed to load users', ignoreStatuses: [403] },
  });
}

export function createUser(body: CreateUserRequest): Promise<User> {
  return apiClient.post<User>(USERS, body);
}

export function deleteUser(id: string): Promise<void> {
  return apiClient.delete(`${USERS}/${encodeURIComponent(id)}`);
}

/** Clears the user's failed sign-ins from every address (lifts a 429 and the slow-down). */
export function unlockUser(id: string): Promise<void> {
  return apiClient.post<void>(`${USERS}/${encodeURIComponent(id)}/unlock`);
}
