/**
 * The SQL of `build-dataset.ts`, all set-based. Numbers are interpolated (validated integers only), so
 * each text can hold several statements. Ids are valid version-7 UUIDs, constant per table but for the
 * last 48 bits, a sequence: primary keys grow at the right edge while loading (as time-ordered keys do in
 * production), and making one costs a fraction of gen_random_uuid().
 */

/** SQL for the id number \`seq\` (an SQL expression) of the table numbered \`table\`. */
export function uuidSql(table: number, seq: string): string {
  return `('${table.toString(16).padStart(8, '0')}-0000-7000-8000-' || lpad(to_hex(${seq}), 12, '0'))::uuid`;
}

const DOUBLED = Array.from({ length: 15 }, (_, k) => k + 1).map((i) => {
  const digit = `substr(p, ${i}, 1)::int`;
  // Luhn doubles every second digit counting from the one next to the check digit (position 15).
  return (15 - i) % 2 === 0 ? `(${digit} * 2 - case when ${digit} > 4 then 9 else 0 end)` : digit;
});

/**
 * A 15-digit payload without a leading zero from a bijection of 0 … 9·10^14 − 1 (unique, not sequential),
 * plus its Luhn check digit. Use as a lateral subquery yielding \`number\`.
 */
export function cardNumberSql(k: string): string {
  return `(select p || ((10 - (${DOUBLED.join(' + ')}) % 10) % 10)::text as number
    from (select (100000000000000 + (${k} * 7919000003 + 123456789012345) % 900000000000000)::text as p) q)`;
}

/** Settings, 200 POS keys, five rulesets (one in force, older ones, a scheduled one, a draft) and SKUs. */
export function referenceDataSql(days: number): string {
  return `
    insert into settings (key, value) values ('holds.ttl_minutes', 15), ('cards.limit_per_account', 3);
    insert into pos_keys (id, name, address, key_hash, key_cipher, status, created_at)
      select ${uuidSql(1, 'g')}, 'Store #' || g,
        case when g % 7 = 0 then null else g || ' Market Street' end,
        md5('bench-pos-key-' || g), 'bench-not-a-real-key',
        case when g % 25 = 0 then 'inactive' else 'active' end,
        now() - interval '500 days' + g * interval '1 hour'
      from generate_series(1, 200) g;
    insert into rulesets (id, version, percent, active_from, created_by, created_at) values
      (${uuidSql(2, '1')}, 1, 5.00, now() - interval '500 days', 'admin', now() - interval '500 days'),
      (${uuidSql(2, '2')}, 2, 3.00, now() - interval '${days + 10} days', 'admin', now() - interval '${days + 12} days'),
      (${uuidSql(2, '3')}, 3, 4.00, now() - interval '10 days', 'manager', now() - interval '11 days'),
      (${uuidSql(2, '4')}, 4, 5.50, now() + interval '7 days', 'manager', now() - interval '1 day'),
      (${uuidSql(2, '5')}, 5, 6.00, null, 'manager', now() - interval '1 hour');
    insert into excluded_skus (ruleset_id, sku, description, category, created_at)
      select r.id, 'SKU-' || lpad(g::text, 6, '0'), 'Excluded item ' || g,
        (array['Tobacco', 'Alcohol', 'Gift cards', 'Lottery', null])[1 + g % 5], r.created_at
      from rulesets r cross join generate_series(1, 300) g where r.version in (2, 3, 4);
  `;
}

/**
 * Accounts created evenly over the year before the window and the window itself, each with a primary
 * active card; the remaining cards go to every k-th account: 60 % extra active, 30 % lost (blocked),
 * 10 % pending. `bench_accounts` maps an account's index to its primary card for the operations.
 */
export function cardsSql(accounts: number, cards: number, days: number): string {
  const extra = Math.max(0, cards - accounts);
  return `
    create temp table bench_accounts as
      select i, ${uuidSql(10, 'i')} as account_id, ${uuidSql(20, 'i')} as card_id, n.number as card_number,
        now() - interval '${days + 365} days' + (i + 0.5) / ${accounts} * interval '${days + 365} days' as created_at
      from generate_series(0, ${accounts - 1}) i cross join lateral ${cardNumberSql('i')} n;
    insert into accounts (id, client_id, created_at)
      select account_id, 'CL' || lpad(i::text, 8, '0'), created_at from bench_accounts;
    insert into cards (id, number, account_id, status, issued_at, created_at)
      select card_id, card_number, account_id, 'active', created_at, created_at from bench_accounts;
    insert into cards (id, number, account_id, status, issued_at, created_at, blocked_at, blocked_reason)
      select ${uuidSql(20, `${accounts} + j`)}, n.number, b.account_id,
        case when j % 10 < 6 then 'active' when j % 10 < 9 then 'blocked' else 'pending' end,
        case when j % 10 < 9 then c.at end, c.at,
        case when j % 10 between 6 and 8 then c.at + (now() - c.at) / 2 end,
        case when j % 10 between 6 and 8 then 'Lost' end
      from generate_series(0, ${extra - 1}) j
      join bench_accounts b on b.i = j::bigint * ${accounts} / ${Math.max(extra, 1)}
      cross join lateral (select b.created_at + (now() - b.created_at) * random() as at) c
      cross join lateral ${cardNumberSql(`${accounts} + j`)} n;
    create index on bench_accounts (i);
    analyze bench_accounts;
  `;
}

/**
 * Operations \`from\`…\`to\` of \`total\`, in time order over the last \`days\` days with a daily rhythm
 * (busiest around midday UTC, three times the quietest hour). Accounts are skewed: the older the account, the
 * more it buys (index = A_t · r²); an account only appears after it was created. Mix: 80 % accruals
 * (2 % failed), 8 % redemptions (1 % failed), 7 % holds (active only in the last 15 minutes, else
 * applied or voided), 5 % adjustments (half manual credits, half POS returns).
 */
export function operationsChunkSql(from: number, to: number, total: number, accounts: number, days: number) {
  const span = days * 86400;
  const history = (days + 365) * 86400;
  return `
    insert into operations (id, operation_id, type, status, points, account_id, card_id, card_number, pos_id,
      ruleset_version, expires_at, meta, created_by, created_at)
    select ${uuidSql(30, 'o.g')},
      -- POS idempotency keys are random, as tills make them (a prefix search must not match them all).
      case when o.manual then null else gen_random_uuid()::text end,
      o.type, o.status, o.points, b.account_id, b.card_id, b.card_number,
      case when o.manual then null else (select array_agg(id order by id) from pos_keys)[1 + (o.g::bigint * 7919) % 200] end,
      case when o.type = 'accrual' then case when o.at >= now() - interval '10 days' then 3 else 2 end end,
      case when o.type = 'hold' then o.at + interval '15 minutes' end,
      case
        when o.status = 'failed' then '{"error": "CARD_BLOCKED"}'::jsonb
        when o.type = 'accrual' then jsonb_build_object('receipt', 'R' || o.g)
        when o.manual then '{"reason": "Goodwill"}'::jsonb
        when o.type = 'adjustment' then '{"reason": "Return"}'::jsonb
        else '{}'::jsonb end,
      case when o.manual then 'admin' end,
      o.at
    from (
      select t.g, t.at, t.acct, t.type, t.manual,
        case
          when t.type = 'accrual' and t.r3 < 0.02 then 'failed'
          when t.type = 'redemption' and t.r3 < 0.01 then 'failed'
          when t.type = 'hold' and t.at > now() - interval '15 minutes' then 'active'
          when t.type = 'hold' and t.r3 < 0.6 then 'applied'
          when t.type = 'hold' then 'voided'
          else 'completed' end as status,
        case
          when t.type = 'accrual' and t.r3 < 0.02 then 0
          when t.type = 'redemption' and t.r3 < 0.01 then 0
          when t.type = 'accrual' then round((1 + 150 * t.r4 * t.r4)::numeric, 2)
          when t.type in ('redemption', 'hold') then -round((5 + 50 * t.r4)::numeric, 0)
          when t.manual then round((5 + 95 * t.r3)::numeric, 2)
          else -round((1 + 30 * t.r3)::numeric, 2) end as points
      from (
        select w.g, w.r3, w.r4, w.at,
          least(${accounts - 1}, floor(w.r1 * w.r1 * ${accounts} * (${history - span} + w.y) / ${history}))::bigint as acct,
          case when w.r2 < 0.80 then 'accrual' when w.r2 < 0.88 then 'redemption'
            when w.r2 < 0.95 then 'hold' else 'adjustment' end as type,
          w.r2 >= 0.95 and w.r4 < 0.5 as manual
        from (
          select x.*, to_timestamp(x.start + x.y) as at
          from (
            select g, random() as r1, random() as r2, random() as r3, random() as r4, s.start,
              greatest(0, least(${span}, s.x - 6875.5 * (sin(2 * pi() * (s.start + s.x - 50400) / 86400)
                - sin(2 * pi() * (s.start - 50400) / 86400)))) as y
            from generate_series(${from}, ${to}) g
            cross join lateral (select extract(epoch from now() - interval '1 minute') - ${span} as start,
              ${span}::float8 * (g - 0.5) / ${total} as x) s
            offset 0 -- a fence: each random() is drawn once per row, however often it is referenced
          ) x
        ) w
      ) t
    ) o
    join bench_accounts b on b.i = o.acct;
  `;
}

/**
 * Balances from the ledger: completed non-hold points; held = active holds. An account whose random
 * history nets below what it holds gets an "Opening balance" adjustment at its creation, so the CHECKs
 * hold and the ledger still proves every balance.
 */
export function settleBalancesSql(total: number): string {
  return `
    create temp table bench_ledger as
      select account_id,
        coalesce(sum(points) filter (where status = 'completed' and type <> 'hold'), 0) as balance,
        coalesce(-sum(points) filter (where status = 'active' and type = 'hold'), 0) as held
      from operations where account_id is not null group by account_id;
    insert into operations (id, type, status, points, account_id, card_id, card_number, meta, created_by, created_at)
      select ${uuidSql(30, `${total} + row_number() over (order by l.account_id)`)}, 'adjustment',
        'completed', l.held - l.balance + 50, l.account_id, b.card_id, b.card_number,
        '{"reason": "Opening balance"}', 'admin', b.created_at
      from bench_ledger l join bench_accounts b on b.account_id = l.account_id
      where l.balance < l.held;
    update bench_ledger set balance = held + 50 where balance < held;
    update accounts a set balance = l.balance, held_balance = l.held from bench_ledger l where l.account_id = a.id;
  `;
}

/**
 * The lots behind the settled balances, as if the lots had existed all along and every debit had taken the
 * oldest points first: an account's balance is the remaining of its newest completed credits. Each credit
 * that still holds points becomes a lot (its own `credit_id`, earned and available when it was booked) of
 * the part that remains; the older part was spent before the lots epoch, so a lot's points are what it has
 * left and it has no consumptions (as migration 016's opening lots). `bench_lots` holds them until
 * `lotsInsertSql` knows the expiry period.
 */
export function lotsCandidatesSql(): string {
  return `
    create temp table bench_lots as
      select row_number() over () as n, c.id, c.account_id, c.created_at, c.take
      from (
        select o.id, o.account_id, o.created_at,
          least(o.points, a.balance - (sum(o.points) over w - o.points)) as take
        from operations o join accounts a on a.id = o.account_id
        where o.status = 'completed' and o.points > 0 and o.type in ('accrual', 'adjustment') and a.balance > 0
        window w as (partition by o.account_id order by o.created_at desc, o.id desc
          rows between unbounded preceding and current row)
      ) c
      where c.take > 0;
    analyze bench_lots;
  `;
}

/** The age in whole days (≥ 1, rounded) of the `due`-th oldest candidate lot: an expiry that leaves ~`due` lots due. */
export function lotsExpiryDaysSql(due: number): string {
  return `
    select greatest(1, round(extract(epoch from now() - created_at) / 86400))::int as days
    from bench_lots order by created_at offset ${Math.max(0, due - 1)} limit 1;
  `;
}

/**
 * The lots, expiring `expiryDays` after they were earned (the `points.expiry_days` setting, so credits the
 * benchmarks make later get the same rule), and the lots epoch moved to now: every loaded debit predates it.
 */
export function lotsInsertSql(expiryDays: number): string {
  return `
    insert into settings (key, value) values ('points.expiry_days', ${expiryDays})
      on conflict (key) do update set value = excluded.value;
    insert into lots (id, account_id, credit_id, earned_at, available_at, expires_at, points, remaining)
      select ${uuidSql(40, 'n')}, account_id, id, created_at, created_at,
        created_at + ${expiryDays} * interval '1 day', take, take
      from bench_lots;
    update lots_epoch set started_at = now();
  `;
}
