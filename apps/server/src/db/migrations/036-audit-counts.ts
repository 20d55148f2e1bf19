import { type Kysely, sql } from 'kysely';

/**
 * The Audit Logs list's exact total without counting the log. Every admin change and every sign-in writes an
 * entry, so the log reaches millions of rows, and its list counted the whole filter on every page: 150–200 ms
 * of 2M rows (BENCHMARKS.md "Audit Logs at 2M entries"). The totals of the list unfiltered or filtered by
 * type now come from `audit_counts`, kept exact by statement triggers inside the writing transaction, the
 * row counters' convention (db/DERIVED.md): a shard per writing backend (`derived_shard()`), netted per key,
 * keys upserted in order. Entries are only ever inserted (and redacted in place by an erasure, which moves
 * no count); deletes, updates of the type and TRUNCATE are counted all the same.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table audit_counts (
      target_type text not null,
      shard smallint not null,
      n bigint not null,
      primary key (target_type, shard)
    );

    -- The types of the entries a statement added and removed, netted: a type whose count does not change is
    -- not written.
    create function derived_count_audit(added text[], removed text[]) returns void language plpgsql as $$
    begin
      insert into audit_counts as c (target_type, shard, n)
        select d.target_type, derived_shard(), sum(d.delta)
        from (
          select t, 1 from unnest(added) t
          union all
          select t, -1 from unnest(removed) t
        ) d (target_type, delta)
        group by d.target_type having sum(d.delta) <> 0 order by d.target_type
        on conflict (target_type, shard) do update set n = c.n + excluded.n;
    end $$;

    -- A query naming a transition table its event lacks fails when planned: hence one branch per event.
    create function derived_audit_changed() returns trigger language plpgsql as $$
    declare
      added text[] := '{}';
      removed text[] := '{}';
    begin
      if tg_op = 'INSERT' then
        select coalesce(array_agg(n.target_type), '{}') into added from new_rows n;
      elsif tg_op = 'DELETE' then
        select coalesce(array_agg(o.target_type), '{}') into removed from old_rows o;
      else
        -- Only an update of the type moves a count (an erasure's redaction does not).
        select coalesce(array_agg(n.target_type), '{}'), coalesce(array_agg(o.target_type), '{}')
          into added, removed
          from new_rows n join old_rows o using (id) where n.target_type <> o.target_type;
      end if;
      if cardinality(added) + cardinality(removed) > 0 then
        perform derived_count_audit(added, removed);
      end if;
      return null;
    end $$;

    create trigger derived_audit_insert after insert on audit_log referencing new table as new_rows
      for each statement execute function derived_audit_changed();
    create trigger derived_audit_update after update on audit_log
      referencing new table as new_rows old table as old_rows
      for each statement execute function derived_audit_changed();
    create trigger derived_audit_delete after delete on audit_log referencing old table as old_rows
      for each statement execute function derived_audit_changed();

    create function derived_audit_truncated() returns trigger language plpgsql as $$
    begin
      delete from audit_counts;
      return null;
    end $$;
    create trigger derived_audit_truncate after truncate on audit_log
      for each statement execute function derived_audit_truncated();

    -- The counters from the log itself: this migration's backfill, and the rebuild after a load without
    -- triggers (rebuildAuditCounts, npm run rebuild-derived).
    create function derived_rebuild_audit_counts() returns void language sql as $$
      delete from audit_counts;
      insert into audit_counts (target_type, shard, n)
        select target_type, 0, count(*) from audit_log group by target_type;
    $$;
    select derived_rebuild_audit_counts();
  `.execute(db);
}
