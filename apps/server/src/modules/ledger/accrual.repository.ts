import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../../db/executor';
import type { CardStatus } from '../../db/schema';
import type { Tx } from '../../db/transaction';
import { operationEventSteps } from '../events/emit';
import type { OperationRow } from '../operations/operations.repository';
import type { StoredRequest } from '../pos/idempotency';
import { balancesAfter } from './balances.sql';
import type { StoredEarningRules } from './earning-rules';
import { insertClaim, type PosClaim } from './ledger.repository';
import { insertCreditLots } from './lots.sql';

export interface AccrualContext {
  card_id: string | null;
  card_status: CardStatus | null;
  account_id: string | null;
  balance: string | null;
  ruleset_version: number | null;
  percent: string | null;
  /** The ruleset's config beyond percent (minSpend, caps, rules); null when it has none. */
  earning_rules: StoredEarningRules;
  /** Setting `programme.timezone` (null: UTC). */
  time_zone: string | null;
  /** The database's now(): inside the accrual's transaction, the receipt's created_at. */
  at: Date;
  /** Which of the receipt's SKUs the ruleset in force excludes. */
  excluded: string[] | null;
  /** The requesting POS's name and address, which the accrual's event shows. */
  pos_name: string | null;
  pos_address: string | null;
}

/**
 * What every accrual read selects beside its card: the ruleset in force (`r`, `rulesetInForce`), the
 * programme's time zone, now() and the requesting POS (`p`).
 */
const contextColumns = sql`r.version as ruleset_version, r.percent, r.earning_rules, r.excluded,
  (select s.text_value from settings s where s.key = 'programme.timezone') as time_zone, now() as at,
  p.name as pos_name, p.address as pos_address`;

/**
 * The ruleset in force as the lateral `r`: the highest version whose activeFrom has come, with which of
 * `skus` it excludes.
 */
const rulesetInForce = (skus: string[]) => sql`left join lateral (
    select r.version, r.percent, r.earning_rules, array(
      select e.sku from excluded_skus e where e.ruleset_id = r.id and e.sku = any(${skus}::text[])
    ) as excluded
    from rulesets r
    where r.active_from <= now() and r.retired_at is null
    order by r.version desc
    limit 1
  ) r on true`;

/**
 * Everything an accrual decides on, in one round trip: the card and its account (locked FOR NO KEY
 * UPDATE when `lock`, so the balance read is the one the write moves), the ruleset in force (highest
 * version whose activeFrom has come) and which of the receipt's SKUs it excludes. The preview reads the
 * same without the lock.
 */
export async function readAccrualContext(
  db: Executor,
  input: { cardNumber: string; posId: string; skus: string[]; lock: boolean },
): Promise<AccrualContext> {
  const result = await sql<AccrualContext>`
    with k as (
      select c.id as card_id, c.status as card_status, a.id as account_id, a.balance
      from cards c join accounts a on a.id = c.account_id
      where c.number = ${input.cardNumber}
      ${input.lock ? sql`for no key update of a` : sql``}
    )
    select k.*, ${contextColumns}
    from (select 1) as one
    left join k on true
    left join pos_keys p on p.id = ${input.posId}::uuid
    ${rulesetInForce(input.skus)}`.execute(db);
  return result.rows[0]!;
}

/**
 * `readAccrualContext` of several requests in one statement, one context per request in their order: a
 * set-based batch's read (`accrual-batch.ts`). Each account is locked as the lone read locks it, but one
 * another transaction has locked is skipped, so the batch never waits: its request reads as if its card
 * were missing (`card_id` null), and the batch hands it back to be written alone. `excluded` is which of
 * `skus` (all the requests' SKUs) the ruleset excludes: a superset of a request's own, which is all its
 * receipt's lines look up.
 */
export async function readAccrualContexts(
  db: Executor,
  requests: ReadonlyArray<{ cardNumber: string; posId: string }>,
  skus: string[],
): Promise<AccrualContext[]> {
  const cards = requests.map((r) => r.cardNumber);
  const result = await sql<AccrualContext & { ord: string }>`
    with k as (
      select c.number, c.id as card_id, c.status as card_status, a.id as account_id, a.balance
      from cards c join accounts a on a.id = c.account_id
      where c.number = any(${cards}::text[])
      for no key update of a skip locked
    )
    select n.ord, k.card_id, k.card_status, k.account_id, k.balance, ${contextColumns}
    from unnest(${cards}::text[], ${requests.map((r) => r.posId)}::uuid[])
      with ordinality as n(card_number, pos_id, ord)
    left join k on k.number = n.card_number
    left join pos_keys p on p.id = n.pos_id
    ${rulesetInForce(skus)}
    order by n.ord`.execute(db);
  return result.rows.map(({ ord: _ord, ...context }) => context);
}

/** What a card earned today is read for: its account and card, and the programme's time zone. */
export interface EarnedTodayOf {
  accountId: string;
  cardId: string;
  timeZone: string;
}

/**
 * What a card earned by POS accruals on the programme day of now() (maxPointsPerCardPerDay), as a scalar
 * subquery over SQL naming the account, the card and the time zone.
 */
const earnedTodaySum = (
  account: RawBuilder<unknown>,
  card: RawBuilder<unknown>,
  timeZone: RawBuilder<unknown>,
) =>
  sql<string>`(select coalesce(sum(o.points), 0)::text
    from operations o
    where o.account_id = ${account} and o.type = 'accrual' and o.status = 'completed'
      and o.card_id = ${card} and o.pos_id is not null
      and o.created_at >= date_trunc('day', now(), ${timeZone}))`;

/**
 * What a card earned today (`earnedTodaySum`). A statement of its own, after the account's lock: in READ
 * COMMITTED a statement sees what committed before it started, so an accrual on the same card that held the
 * lock before us is counted (the locking statement's snapshot predates the wait and would miss it).
 */
export async function readEarnedToday(db: Executor, input: EarnedTodayOf): Promise<string> {
  const result = await sql<{ earned: string }>`
    select ${earnedTodaySum(sql`${input.accountId}::uuid`, sql`${input.cardId}::uuid`, sql`${input.timeZone}::text`)} as earned`.execute(
    db,
  );
  return result.rows[0]!.earned;
}

/**
 * `readEarnedToday` of several cards in one statement, in their order: a set-based batch's, after its
 * accounts' lock, for the same reason.
 */
export async function readEarnedTodayOf(db: Executor, cards: readonly EarnedTodayOf[]): Promise<string[]> {
  const result = await sql<{ earned: string }>`
    select ${earnedTodaySum(sql.ref('n.account_id'), sql.ref('n.card_id'), sql.ref('n.time_zone'))} as earned
    from unnest(${cards.map((c) => c.accountId)}::uuid[], ${cards.map((c) => c.cardId)}::uuid[],
      ${cards.map((c) => c.timeZone)}::text[]) with ordinality as n(account_id, card_id, time_zone, ord)
    order by n.ord`.execute(db);
  return result.rows.map((r) => r.earned);
}

/**
 * The receipt's lines as one text (migration 028), over the statement's `l` step (the lines inserted):
 * `receipt_line_text` per line, tab-joined in line order; `which` picks the receipt's lines from `l`.
 */
export const receiptLinesText = (which: RawBuilder<unknown>) =>
  sql`(select string_agg(receipt_line_text(l.sku, l.category, l.quantity, l.price, l.discount, l.bonus_points),
    E'\\t' order by l.line_no) from l where ${which})`;

export interface AccrualWrite {
  claim: PosClaim;
  /**
   * The accrual operation as it is stored and as its `points.accrued` event shows it: its id (which the
   * receipt and its lines reference), points (what the balance moves by: Σ of the lines' bonus), meta.
   */
  operation: OperationRow;
  cardId: string;
  rulesetVersion: number;
  receipt: { receiptId: string; totalAmount: string; totalDiscount: string };
  /**
   * An offline till's purchase time (ISO-8601): the lot is earned then, or now if that is earlier (the
   * contract lets a till's clock run a little ahead and calls that "now": a lot dated ahead would sit
   * pending until then, though no pending period is set). Null: now. The receipt keeps it as sent.
   */
  purchasedAt: string | null;
  lines: Array<{
    line_no: number;
    sku: string;
    category: string | null;
    quantity: string;
    price: string;
    discount: string;
    line_total: string;
    bonus_points: string;
    rule: string;
  }>;
}

/**
 * Persist a decided accrual in one statement: the balance credit, the idempotency record with the
 * answer, the `accrual` operation, its lot, the receipt (with its lines as one text for the backtest,
 * `receipt_line_text` of migration 028), its lines and the event. The account is already locked; the claim
 * comes before the new operation (the lock order of every POS write), and a concurrent duplicate fails on
 * the operationId key.
 */
export async function insertAccrual(trx: Tx, w: AccrualWrite): Promise<StoredRequest> {
  const o = w.operation;
  const result = await sql<StoredRequest>`
    with a as (
      update accounts set balance = balance + ${o.points}::numeric where id = ${o.account_id}::uuid
      returning balance, held_balance
    ),
    q as (${insertClaim(w.claim)}),
    o as (
      insert into operations (id, operation_id, type, status, points, account_id, card_id, card_number,
        pos_id, ruleset_version, meta)
      select ${o.id}::uuid, ${w.claim.operationId}, 'accrual', 'completed', ${o.points}::numeric,
        ${o.account_id}::uuid, ${w.cardId}::uuid, ${o.card_number}, ${w.claim.posId}::uuid, ${w.rulesetVersion},
        ${JSON.stringify(o.meta)}::jsonb
      from q
      returning id, account_id, points, least(${w.purchasedAt}::timestamptz, created_at) as earned_at
    ),
    lot as (${insertCreditLots(sql`o`)}),
    l as (
      select * from jsonb_to_recordset(${JSON.stringify(w.lines)}::jsonb) as l(line_no integer, sku text,
        category text, quantity numeric, price numeric, discount numeric, line_total numeric,
        bonus_points numeric, rule text)
    ),
    rc as (
      insert into receipts (accrual_id, receipt_id, pos_id, card_number, total_amount, total_discount,
        purchased_at, lines_text)
      select ${o.id}::uuid, ${w.receipt.receiptId}, ${w.claim.posId}::uuid, ${o.card_number},
        ${w.receipt.totalAmount}::numeric, ${w.receipt.totalDiscount}::numeric, ${w.purchasedAt}::timestamptz,
        ${receiptLinesText(sql`true`)}
      from q
    ),
    i as (
      insert into receipt_items (accrual_id, line_no, sku, category, quantity, price, discount, line_total,
        bonus_points, rule)
      select ${o.id}::uuid, l.line_no, l.sku, l.category, l.quantity, l.price, l.discount, l.line_total,
        l.bonus_points, l.rule
      from q, l
    ),
    ${operationEventSteps(
      'points.accrued',
      o,
      balancesAfter(
        o.account_id!,
        sql`(select coalesce(sum(remaining), 0) from lot where available_at > now())`,
      ),
    )}
    select * from q`.execute(trx);
  return result.rows[0]!;
}
