import { type Kysely, sql } from 'kysely';

/**
 * A receipt's lines as one text on the receipt row (`receipts.lines_text`), written by the accrual in the
 * statement that writes the lines, so the ruleset backtest reads a receipt and its lines as one row in time
 * order. Before, it looked the lines up per receipt (a descent of `receipt_items_pkey`, whose key is a random
 * UUID, and a heap page) and assembled the text itself: ≈ 94 % of its PostgreSQL time (BENCHMARKS.md,
 * issue 10). The lines the text is made of never change once written (a return only fills their
 * `returned_*` columns).
 *
 * One definition of the text, `receipt_line_text`: per line sku, category (empty for none), quantity,
 * price, discount, bonus_points, tab-separated; texts as JSON strings, to_json only when they hold a quote
 * or a backslash (all the reader's scan stops at; to_json on every text was ≈ 13 % of a read), numbers as
 * the columns' exact decimal text. The accrual calls it per line; for the receipts written before this
 * migration, whose column stays null (no rewrite of a large table at start-up), the backtest calls it
 * over their stored lines (`storedLinesText`), as fast as it read every receipt before.
 *
 * Both functions are STABLE, as concat_ws and to_json are: the planner inlines a SQL function only when
 * its body is no more volatile than declared, and called as a function (IMMUTABLE) each line cost ≈ 50 µs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function receipt_json_text(value text) returns text
    language sql stable parallel safe as $$
      select case when strpos(value, '"') > 0 or strpos(value, '\\') > 0 then to_json(value)::text
        else '"' || value || '"' end
    $$;

    create function receipt_line_text(sku text, category text, quantity numeric, price numeric,
      discount numeric, bonus_points numeric) returns text
    language sql stable parallel safe as $$
      select concat_ws(E'\\t', receipt_json_text(sku), coalesce(receipt_json_text(category), ''), quantity,
        price, discount, bonus_points)
    $$;

    alter table receipts add column lines_text text;
    comment on column receipts.lines_text is
      'The lines as receipt_line_text joined by tabs, in line order; null for receipts written before migration 028.';
  `.execute(db);
}
