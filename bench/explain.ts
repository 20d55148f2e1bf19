import type pg from 'pg';

export interface Captured {
  sql: string;
  parameters: unknown[];
}

export interface PlanSummary {
  sql: string;
  /** Index names the plan reads, with the scan kind: "operations_type_idx (index only)". */
  indexes: string[];
  /** Tables read by a sequential scan. */
  seqScans: string[];
  executionMs: number;
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

const KIND: Record<string, string> = {
  'Index Scan': 'index',
  'Index Only Scan': 'index only',
  'Bitmap Index Scan': 'bitmap',
};

function walk(node: PlanNode, summary: PlanSummary): void {
  const kind = KIND[node['Node Type']];
  if (kind && node['Index Name']) summary.indexes.push(`${node['Index Name']} (${kind})`);
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name']) summary.seqScans.push(node['Relation Name']);
  for (const child of node.Plans ?? []) walk(child, summary);
}

/** EXPLAIN (ANALYZE) each read the app ran (writes are skipped: there are none in a list request). */
export async function explainAll(pool: pg.Pool, captured: Captured[]): Promise<PlanSummary[]> {
  const plans: PlanSummary[] = [];
  for (const query of captured) {
    if (!/^\s*(select|with)\b/i.test(query.sql) || /\bfrom "users"/.test(query.sql)) continue;
    const { rows } = await pool.query(`explain (analyze, format json) ${query.sql}`, query.parameters);
    const [result] = rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode; 'Execution Time': number }>;
    const summary: PlanSummary = {
      sql: query.sql,
      indexes: [],
      seqScans: [],
      executionMs: result!['Execution Time'],
    };
    walk(result!.Plan, summary);
    plans.push(summary);
  }
  return plans;
}
