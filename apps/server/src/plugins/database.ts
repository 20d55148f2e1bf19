import fp from 'fastify-plugin';
import type { Db } from '../db/connection';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    databaseKind: 'pglite' | 'postgres';
  }
}

/** Makes the database handle available to routes; the caller owns opening and closing it. */
export const databasePlugin = fp(
  async (app, options: { db: Db; kind: 'pglite' | 'postgres' }) => {
    app.decorate('db', options.db);
    app.decorate('databaseKind', options.kind);
  },
  { name: 'database' },
);
