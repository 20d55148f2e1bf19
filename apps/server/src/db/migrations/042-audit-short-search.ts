import { type Kysely, sql } from 'kysely';

/**
 * The Audit Logs list at millions of entries, for the filters and sorts its console offers:
 * - a search of one or two characters: trigrams cannot serve it, so its count read the whole log and, with
 *   nothing found, its page walked the whole time index. Its exact total now comes from
 *   `audit_search_counts` (entries whose message or username contains that text, in any case, per type),
 *   kept by statement triggers in the row counters' convention (036, db/DERIVED.md); the list skips its
 *   page when the total is 0, as the accounts and operations lists do;
 * - a filter with the sort of the other column: 035's (username, id) and (target_type, id) serve a sort
 *   only without the other filter, so `?targetType=card&sort=username,asc` walked every entry of the
 *   username index to find the cards. (target_type, username, id) serves the type filter sorted by user;
 *   (lower(username), target_type, id) the user filter sorted by type, and both filters' count;
 * - `?targetId=` without a type (the Audit page's link to one import, one card): an index on target_id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index audit_log_type_username_idx on audit_log (target_type, username, id);
    create index audit_log_user_type_idx on audit_log (lower(username), target_type, id);
    create index audit_log_target_id_idx on audit_log (target_id) where target_id is not null;

    -- Every distinct text of one or two characters in the lower-cased message or username: what a search
    -- that short matches (a contains-search of the entry's message or username, case-insensitive).
    create function audit_search_grams(message text, username text) returns text[]
      language sql immutable parallel safe as $$
        select coalesce(array_agg(distinct substr(s, i, k)), '{}')
        from unnest(array[lower(message), lower(coalesce(username, ''))]) s,
          generate_series(1, 2) k, generate_series(1, length(s) - k + 1) i
      $$;

    create table audit_search_counts (
      gram text not null,
      target_type text not null,
      shard smallint not null,
      n bigint not null,
      primary key (gram, target_type, shard)
    );

    -- A query naming a transition table its event lacks fails when planned: hence one branch per event.
    create function derived_audit_search_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into audit_search_counts as c (gram, target_type, shard, n)
          select g, r.target_type, derived_shard(), count(*)
          from new_rows r, unnest(audit_search_grams(r.message, r.username)) g
          group by g, r.target_type order by g, r.target_type
          on conflict (gram, target_type, shard) do update set n = c.n + excluded.n;
      elsif tg_op = 'DELETE' then
        insert into audit_search_counts as c (gram, target_type, shard, n)
          select g, r.target_type, derived_shard(), -count(*)
          from old_rows r, unnest(audit_search_grams(r.message, r.username)) g
          group by g, r.target_type order by g, r.target_type
          on conflict (gram, target_type, shard) do update set n = c.n + excluded.n;
      else
        -- An erasure redacts the message and username in place: their texts move the counts.
        insert into audit_search_counts as c (gram, target_type, shard, n)
          select d.g, d.t, derived_shard(), sum(d.delta)
          from (
            select g, n.target_type, 1
              from new_rows n join old_rows o using (id), unnest(audit_search_grams(n.message, n.username)) g
              where (n.message, n.username, n.target_type) is distinct from (o.message, o.username, o.target_type)
            union all
            select g, o.target_type, -1
              from new_rows n join old_rows o using (id), unnest(audit_search_grams(o.message, o.username)) g
              where (n.message, n.username, n.target_type) is distinct from (o.message, o.username, o.target_type)
          ) d (g, t, delta)
          group by d.g, d.t having sum(d.delta) <> 0 order by d.g, d.t
          on conflict (gram, target_type, shard) do update set n = c.n + excluded.n;
      end if;
      return null;
    end $$;

    create trigger derived_audit_search_insert after insert on audit_log referencing new table as new_rows
      for each statement execute function derived_audit_search_changed();
    create trigger derived_audit_search_update after update on audit_log
      referencing new table as new_rows old table as old_rows
      for each statement execute function derived_audit_search_changed();
    create trigger derived_audit_search_delete after delete on audit_log referencing old table as old_rows
      for each statement execute function derived_audit_search_changed();

    create function derived_audit_search_truncated() returns trigger language plpgsql as $$
    begin
      delete from audit_search_counts;
      return null;
    end $$;
    create trigger derived_audit_search_truncate after truncate on audit_log
      for each statement execute function derived_audit_search_truncated();

    -- 036's rebuild (rebuildAuditCounts, npm run rebuild-derived) now recomputes both counters.
    create or replace function derived_rebuild_audit_counts() returns void language sql as $$
      delete from audit_counts;
      insert into audit_counts (target_type, shard, n)
        select target_type, 0, count(*) from audit_log group by target_type;
      delete from audit_search_counts;
      insert into audit_search_counts (gram, target_type, shard, n)
        select g, a.target_type, 0, count(*)
        from audit_log a, unnest(audit_search_grams(a.message, a.username)) g
        group by g, a.target_type;
    $$;
    select derived_rebuild_audit_counts();
  `.execute(db);
}
