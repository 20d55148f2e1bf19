import type { LoginRequest, LoginResponse } from '@loyalty/contracts';
import { apiClient } from '@/lib/api-client';

/**
 * No token and no session handling: a 401 here is a wrong password, not an expired session. Nothing a user
 * would check is saved, so a sign-in without an answer says to try again, not "it may have been saved".
 */
export function login(body: LoginRequest): Promise<LoginResponse> {
  return apiClient.post<LoginResponse>('/auth/api/v1/login', body, { auth: false, writes: false });
}
