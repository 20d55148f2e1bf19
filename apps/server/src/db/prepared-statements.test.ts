import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helper';
import { statementNamer } from './prepared-statements';

describe('statementNamer', () => {
  it('names a text from its second run on, the same name every time', () => {
    const namer = statementNamer();
    const text = 'select * from accounts where id = $1';
    expect(namer.nameFor(text, 1)).toBeUndefined();
    const name = namer.nameFor(text, 1);
    expect(name).toMatch(/^s0_[0-9a-f]{24}$/);
    expect(namer.nameFor(text, 1)).toBe(name);
    expect(namer.nameFor('select * from cards where id = $1', 1)).toBeUndefined();
  });

  it('never names a text without parameters (simple protocol: several statements, transaction control)', () => {
    const namer = statementNamer();
    for (let i = 0; i < 3; i++) expect(namer.nameFor('begin', 0)).toBeUndefined();
  });

  it('starts new names after DDL, so no statement keeps a plan of a table that changed shape', () => {
    const namer = statementNamer();
    const text = 'insert into t values ($1) returning *';
    namer.nameFor(text, 1);
    const before = namer.nameFor(text, 1);
    namer.nameFor('-- migration 0NN\nalter table t add column x int', 0);
    expect(namer.nameFor(text, 1)).toBeUndefined();
    const after = namer.nameFor(text, 1);
    expect(after).toMatch(/^s1_/);
    expect(after).not.toBe(before);
  });
});

describe('prepared statements on the database', () => {
  it('answers a repeated statement the same, before and after a table changes shape', async () => {
    const database = await openTestDatabase();
    try {
      const { db } = database;
      await sql`create table prepared_probe (id int primary key)`.execute(db);
      const read = () =>
        sql<Record<string, unknown>>`select * from prepared_probe where id = ${1}`.execute(db);
      await sql`insert into prepared_probe values (${1})`.execute(db);
      for (let i = 0; i < 7; i++) expect((await read()).rows).toEqual([{ id: 1 }]);
      await sql`alter table prepared_probe add column note text default 'x'`.execute(db);
      for (let i = 0; i < 7; i++) expect((await read()).rows).toEqual([{ id: 1, note: 'x' }]);
    } finally {
      await database.close();
    }
  });
});
