import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openPglite } from './embedded-postgres.js';

export type Db = Knex;

/** The PGlite under each embedded Db (its one session, for what knex cannot do: LISTEN). */
const EMBEDDED = new WeakMap<Db, PGlite>();

/** The embedded database's PGlite, or null for Postgres. */
export const embeddedPglite = (db: Db): PGlite | null => EMBEDDED.get(db) ?? null;

// Postgres returns int8 (OID 20) and numeric (OID 1700) as strings because they may exceed 2^53.
// Our ids, balances and sums stay far below that, so the API can answer plain JSON numbers.
pg.types.setTypeParser(20, (v: string) => Number(v));
pg.types.setTypeParser(1700, (v: string) => Number(v));

/**
 * Opens the database: Postgres when a URL is given, otherwise embedded PGlite (Postgres compiled to
 * WASM) in `<dataDir>/pglite`, set up by embedded-postgres.ts (a new folder is created in a child
 * process, for memory). Both run the same knex code. `pglite: 'memory'` gives a throwaway one.
 */
export async function connectDatabase(opts: { databaseUrl: string | null; dataDir?: string; pglite?: 'file' | 'memory' }): Promise<Db> {
  if (opts.databaseUrl) {
    return knexFactory({
      client: 'pg',
      connection: opts.databaseUrl,
      // 10 connections serve the API's concurrency on a small machine; acquire fails fast so a down
      // database answers 503 quickly instead of hanging requests.
      pool: { min: 0, max: 10 },
      acquireConnectionTimeout: 5000,
    });
  }
  const pglite = await openPglite(opts.pglite === 'memory' ? null : path.join(opts.dataDir ?? './data', 'pglite'));
  // knex-pglite takes a PGlite of ours as `connection.pglite` and closes it on destroy().
  const db = knexFactory({ client: ClientPgLite as unknown as typeof knexFactory.Client, dialect: 'postgres', connection: { pglite } as object });
  // knex's pool takes its one connection (the PGlite) at the first query, and destroy() closes only a connection
  // the pool took: a database destroyed before any query stayed open, its start still reading the folder after
  // destroy() had answered (a late ErrnoError once the folder was gone) and its lock held. The first query is
  // made here, so destroy() always closes it; a database that cannot start fails here, its folder freed.
  try {
    await db.raw('select 1');
  } catch (err) {
    if (!pglite.closed) await pglite.close().catch(() => undefined);
    throw err;
  }
  EMBEDDED.set(db, pglite);
  return db;
}

/** Whether the database answers a trivial query (for /readyz). */
export async function databaseReachable(db: Db): Promise<boolean> {
  try {
    await db.raw('select 1');
    return true;
  } catch {
    return false;
  }
}

/**
 * Postgres SQLSTATEs that mean "the server is not there right now": class 08 (connection exception),
 * 57P01-57P03 (shutdown, crash, starting up), 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08|57P0|53300$)/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

/**
 * Whether an error means the database could not be reached (answer 503 and let the client retry),
 * as opposed to a bug (500).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { name?: string; code?: string; message?: string } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.name === 'KnexTimeoutError') return true;
  if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATE.test(e.code) || UNAVAILABLE_ERRNO.has(e.code))) return true;
  return /Connection terminated|Unable to acquire a connection|pool is probably full|not currently accepting connections|the database system is/i.test(e.message ?? '');
}
