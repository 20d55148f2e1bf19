import type { App } from '../app';
import type { Db } from '../db/connection';

/** A session token of the first administrator, so the seed acts through the API as a real admin would. */
export async function adminToken(app: App, db: Db): Promise<string> {
  const admin = await db
    .selectFrom('users')
    .select(['id', 'username', 'role'])
    .where('role', '=', 'ADMIN')
    .orderBy('created_at')
    .executeTakeFirstOrThrow();
  return (await app.tokens.issue(admin)).token;
}
