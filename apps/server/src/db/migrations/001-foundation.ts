import { type Kysely, sql } from 'kysely';

/** Users, the audit log and sign-in attempts (for rate limiting without in-process state). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create extension if not exists pg_trgm;

    create table users (
      id uuid primary key default gen_random_uuid(),
      username text not null,
      password_hash text not null,
      email text,
      full_name text,
      role text not null check (role in ('ADMIN', 'MANAGER', 'VIEWER')),
      created_at timestamptz not null default now(),
      last_login timestamptz
    );
    create unique index users_username_lower_key on users (lower(username));
    create index users_created_at_idx on users (created_at desc, id);

    create table audit_log (
      id uuid primary key default gen_random_uuid(),
      username text,
      executed_at timestamptz not null default now(),
      message text not null,
      target_type text not null,
      target_id text,
      source jsonb,
      dest jsonb
    );
    create index audit_log_executed_at_idx on audit_log (executed_at desc, id desc);
    create index audit_log_username_idx on audit_log (lower(username), executed_at desc);
    create index audit_log_target_idx on audit_log (target_type, target_id, executed_at desc);
    create index audit_log_message_trgm_idx on audit_log using gin (message gin_trgm_ops);

    create table login_attempts (
      id uuid primary key default gen_random_uuid(),
      username text not null,
      address text not null,
      attempted_at timestamptz not null default now(),
      succeeded boolean not null
    );
    create index login_attempts_username_idx on login_attempts (lower(username), attempted_at desc);
    create index login_attempts_address_idx on login_attempts (address, attempted_at desc);
  `.execute(db);
}
