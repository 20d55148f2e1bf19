import { type Kysely, sql } from 'kysely';

/**
 * The deliveries drawer of an endpoint at millions of deliveries (retention keeps EVENT_RETENTION_DAYS of
 * them). Every page counted the endpoint's deliveries, and the count was a parallel seq scan of the whole
 * table (an index-only count is no better: webhook_deliveries_endpoint_idx is nearly the table's size), and a
 * status filter's page walked webhook_deliveries_endpoint_idx past every delivery of the other statuses: 1.9M
 * rows to find 50 old failures (bench/webhook-deliveries.ts).
 *
 * - `webhook_delivery_counts`: deliveries per endpoint and status, kept exact by statement triggers inside
 *   the writing transaction, the row counters' convention (db/DERIVED.md, as audit_counts, 036): a shard per
 *   writing backend (`derived_shard()`), netted per key, keys upserted in order. Readers sum the shards. No
 *   foreign key: deleting an endpoint cascades to its deliveries, whose trigger then nets its rows to zero
 *   (a handful of zero rows per deleted endpoint, never read).
 * - `webhook_deliveries_endpoint_status_idx`: an endpoint's page of one status in the list's order. Partial:
 *   the succeeded deliveries, nearly all of them, are served by webhook_deliveries_endpoint_idx (a page of
 *   them filters out only the few others), and the rows the stream inserts as succeeded never enter it. A
 *   query uses it only when its status is a literal the planner can match with the predicate.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index webhook_deliveries_endpoint_status_idx
      on webhook_deliveries (endpoint_id, status, created_at desc, id desc)
      where status <> 'succeeded';

    create table webhook_delivery_counts (
      endpoint_id uuid not null,
      status text not null,
      shard smallint not null,
      n bigint not null,
      primary key (endpoint_id, status, shard)
    );

    -- A query naming a transition table its event lacks fails when planned: hence one branch per event. An
    -- update that moves no delivery to another endpoint or status (a claim, a retry's outcome) writes nothing.
    create function derived_deliveries_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into webhook_delivery_counts as c (endpoint_id, status, shard, n)
          select endpoint_id, status, derived_shard(), count(*) from new_rows
          group by endpoint_id, status order by endpoint_id, status
          on conflict (endpoint_id, status, shard) do update set n = c.n + excluded.n;
      elsif tg_op = 'DELETE' then
        insert into webhook_delivery_counts as c (endpoint_id, status, shard, n)
          select endpoint_id, status, derived_shard(), -count(*) from old_rows
          group by endpoint_id, status order by endpoint_id, status
          on conflict (endpoint_id, status, shard) do update set n = c.n + excluded.n;
      else
        insert into webhook_delivery_counts as c (endpoint_id, status, shard, n)
          select m.endpoint_id, m.status, derived_shard(), sum(m.delta)
          from new_rows n join old_rows o using (id)
            cross join lateral (values (n.endpoint_id, n.status, 1), (o.endpoint_id, o.status, -1))
              m (endpoint_id, status, delta)
          where n.status <> o.status or n.endpoint_id <> o.endpoint_id
          group by m.endpoint_id, m.status having sum(m.delta) <> 0 order by m.endpoint_id, m.status
          on conflict (endpoint_id, status, shard) do update set n = c.n + excluded.n;
      end if;
      return null;
    end $$;

    create trigger derived_deliveries_insert after insert on webhook_deliveries referencing new table as new_rows
      for each statement execute function derived_deliveries_changed();
    create trigger derived_deliveries_update after update on webhook_deliveries
      referencing new table as new_rows old table as old_rows
      for each statement execute function derived_deliveries_changed();
    create trigger derived_deliveries_delete after delete on webhook_deliveries referencing old table as old_rows
      for each statement execute function derived_deliveries_changed();

    create function derived_deliveries_truncated() returns trigger language plpgsql as $$
    begin
      delete from webhook_delivery_counts;
      return null;
    end $$;
    create trigger derived_deliveries_truncate after truncate on webhook_deliveries
      for each statement execute function derived_deliveries_truncated();

    -- The counters from the deliveries themselves: this migration's backfill, and a rebuild after a load
    -- without triggers.
    create function derived_rebuild_webhook_delivery_counts() returns void language sql as $$
      delete from webhook_delivery_counts;
      insert into webhook_delivery_counts (endpoint_id, status, shard, n)
        select endpoint_id, status, 0, count(*) from webhook_deliveries group by endpoint_id, status;
    $$;
    select derived_rebuild_webhook_delivery_counts();
  `.execute(db);
}
