import { createHash } from 'node:crypto';

/**
 * Named prepared statements for the statements a server runs again and again (issue 13). Kysely sends every
 * statement unnamed over `pg`, so PostgreSQL parses and plans it on every execution: for a POS write's
 * statements that was a third of the database's CPU (BENCHMARKS.md "POS API"). A named statement is parsed
 * once per connection, and after five executions PostgreSQL keeps a generic plan when it costs no more than
 * the custom ones, so planning stops too.
 *
 * Which statements: any text seen a second time, so the hot paths need no marker and a one-off (a
 * migration, an ad-hoc export) stays unnamed. The number of names is bounded: texts that vary with their
 * input (`in (…)` lists of any length) would otherwise fill each backend's plan cache without end; past the
 * bound, new texts run unnamed as before.
 */
const MAX_NAMED = 400;
/** Distinct texts remembered while counting; a flood of one-off texts stops being counted, never breaks. */
const MAX_TRACKED = 5000;
/**
 * A prepared statement whose tables change shape fails with "cached plan must not change result type"
 * (e.g. `returning *` after a column was added). Schema changes come through migrations on this pool (tests
 * migrate step by step on a live handle): any DDL starts a new generation of names, so statements are
 * prepared afresh after it.
 */
const DDL =
  /\b(create|alter|drop)\s+(or\s+replace\s+)?(table|index|unique|function|trigger|view|type|materialized|extension|sequence|schema)\b|\btruncate\b/i;

interface Seen {
  count: number;
  name?: string;
}

export interface StatementNamer {
  /** The name to prepare `text` (run with `parameters` values) under, or undefined to send it unnamed. */
  nameFor(text: string, parameters: number): string | undefined;
}

export function statementNamer(): StatementNamer {
  const seen = new Map<string, Seen>();
  let named = 0;
  let generation = 0;
  return {
    nameFor(text, parameters) {
      // Without parameters pg uses the simple protocol, which runs several statements in one text (the
      // migrations' SQL files) and transaction control; it stays so. Those are also where DDL comes from.
      if (parameters === 0) {
        if (DDL.test(text)) {
          generation++;
          seen.clear();
          named = 0;
        }
        return undefined;
      }
      let entry = seen.get(text);
      if (!entry) {
        if (seen.size >= MAX_TRACKED) return undefined;
        entry = { count: 0 };
        seen.set(text, entry);
      }
      entry.count++;
      if (entry.name) return entry.name;
      if (entry.count < 2 || named >= MAX_NAMED) return undefined;
      named++;
      // The name is a digest of the text: the same text gets the same name on every connection, and two
      // texts never share one (pg refuses a name reused for different text on a connection).
      entry.name = `s${generation}_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
      return entry.name;
    },
  };
}
