import { sql } from 'kysely';
import type { Db } from '../db/connection';

/**
 * The services stamp rows with the current time; a demo needs 30 days of history. After writing through
 * the API, the seed moves each row to the moment its story happened. Balances do not depend on time, so
 * the ledger still verifies; derived tables (rollups) are rebuilt afterwards.
 */
export class Backdater {
  private readonly operationsById = new Map<string, Date>();
  private readonly operationsByPosId = new Map<string, Date>();
  private readonly cards = new Map<string, { issuedAt: Date; blockedAt?: Date }>();
  private readonly accounts = new Map<string, Date>();
  private readonly posKeys = new Map<string, Date>();
  private readonly rulesets = new Map<string, Date>();
  /** Wall-clock start of each admin call of the story, with the moment it stands for (ascending). */
  private readonly marks: Array<{ real: number; at: Date }> = [];

  operation(id: string, at: Date) {
    this.operationsById.set(id, at);
  }
  posOperation(operationId: string, at: Date) {
    this.operationsByPosId.set(operationId, at);
  }
  card(id: string, issuedAt: Date, blockedAt?: Date) {
    this.cards.set(id, { issuedAt, blockedAt });
  }
  account(id: string, createdAt: Date) {
    this.accounts.set(id, createdAt);
  }
  posKey(id: string, createdAt: Date) {
    this.posKeys.set(id, createdAt);
  }
  ruleset(id: string, createdAt: Date) {
    this.rulesets.set(id, createdAt);
  }
  /**
   * The admin calls that follow happen, in the story, at `at`. The seed makes its calls one after the
   * other, so the audit entries written between two marks belong to the first of them.
   */
  mark(at: Date) {
    this.marks.push({ real: Date.now(), at });
  }

  async apply(db: Db): Promise<void> {
    await inChunks([...this.accounts], (rows) =>
      sql`update accounts a set created_at = v.t from (values ${values(rows)}) as v(id, t) where a.id = v.id::uuid`.execute(
        db,
      ),
    );
    await inChunks(
      [...this.cards].map(([id, c]) => [id, c.issuedAt, c.blockedAt ?? null] as const),
      (rows) =>
        sql`update cards c set issued_at = v.t, created_at = v.t,
            blocked_at = case when c.blocked_at is null then null else coalesce(v.b, v.t + interval '3 days') end
          from (values ${sql.join(rows.map(([id, t, b]) => sql`(${id}, ${t.toISOString()}::timestamptz, ${b?.toISOString() ?? null}::timestamptz)`))}) as v(id, t, b)
          where c.id = v.id::uuid`.execute(db),
    );
    await inChunks([...this.operationsByPosId], (rows) =>
      sql`update operations o set created_at = v.t,
            expires_at = case when o.type = 'hold' then v.t + (o.expires_at - o.created_at) else o.expires_at end
          from (values ${values(rows)}) as v(id, t) where o.operation_id = v.id`.execute(db),
    );
    await inChunks([...this.operationsById], (rows) =>
      sql`update operations o set created_at = v.t from (values ${values(rows)}) as v(id, t) where o.id = v.id::uuid`.execute(
        db,
      ),
    );
    await inChunks([...this.posKeys], (rows) =>
      sql`update pos_keys k set created_at = v.t from (values ${values(rows)}) as v(id, t) where k.id = v.id::uuid`.execute(
        db,
      ),
    );
    await inChunks([...this.rulesets], (rows) =>
      sql`update rulesets r set created_at = v.t from (values ${values(rows)}) as v(id, t) where r.id = v.id::uuid`.execute(
        db,
      ),
    );
    await sql`update pos_keys k set last_used_at = u.t
      from (select pos_id, max(created_at) as t from operations where pos_id is not null group by pos_id) u
      where u.pos_id = k.id`.execute(db);
    await this.applyAudit(db);
    // Failed attempts and the redemption/adjustment rows the services wrote carry their request's time.
    await sql`update receipts r set created_at = o.created_at from operations o where o.id = r.accrual_id`.execute(
      db,
    );
    // A credit's lot is dated by its purchase (PROGRAMME-API §1): it moves with its operation, keeping
    // its pending period and life, so the demo's lots read like the month they were earned in.
    await sql`update lots l set earned_at = o.created_at,
          available_at = o.created_at + (l.available_at - l.earned_at),
          expires_at = o.created_at + (l.expires_at - l.earned_at)
        from operations o where o.id = l.credit_id and l.earned_at <> o.created_at`.execute(db);
  }
  /** Each audit entry written during the seed takes the story time of the call that wrote it. */
  private async applyAudit(db: Db) {
    const marks = this.marks;
    const first = marks[0];
    if (!first) return;
    const rows = await db
      .selectFrom('audit_log')
      .select(['id', 'executed_at'])
      .where('executed_at', '>=', new Date(first.real))
      .execute();
    const moved: Array<readonly [string, Date]> = [];
    for (const row of rows) {
      const real = new Date(row.executed_at as unknown as string | Date).getTime();
      // The last mark at or before the entry's wall-clock time.
      let lo = 0;
      let hi = marks.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((marks[mid] as { real: number }).real <= real) lo = mid;
        else hi = mid - 1;
      }
      moved.push([row.id, (marks[lo] as { at: Date }).at]);
    }
    await inChunks(moved, (chunk) =>
      sql`update audit_log a set executed_at = v.t from (values ${values(chunk)}) as v(id, t) where a.id = v.id::uuid`.execute(
        db,
      ),
    );
  }
}

function values(rows: Array<readonly [string, Date]>) {
  return sql.join(rows.map(([id, t]) => sql`(${id}, ${t.toISOString()}::timestamptz)`));
}

async function inChunks<T>(rows: T[], run: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    if (chunk.length) await run(chunk);
  }
}
