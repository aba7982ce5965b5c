import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connectDatabase, type Db } from '../../api/db/connect.js';

/**
 * The two databases every contract test runs on: embedded PGlite (in memory) and the machine's real
 * Postgres, where each test suite gets a throwaway database that is dropped afterwards, so a running
 * service's data is never touched. `make test-services` starts Postgres when it is not running.
 */
export const PG_ADMIN_URL = process.env.SHOTFARM_TEST_PG_URL ?? 'postgresql://root@localhost/postgres?host=/var/run/postgresql';

export interface TestDatabase {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** the DATABASE_URL of this database (null for PGlite) */
  url: string | null;
  drop(): Promise<void>;
}

export const DATABASE_KINDS = ['pglite', 'postgres'] as const;

function urlFor(name: string): string {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty throwaway Postgres database and returns its URL. */
export async function createThrowawayPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `shotfarm_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  return {
    url: urlFor(name),
    drop: () => admin(async (c) => void (await c.query(`drop database if exists ${name} with (force)`))),
  };
}

export async function openTestDatabase(kind: 'pglite' | 'postgres'): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const db = await connectDatabase({ databaseUrl: null, pglite: 'memory' });
    return { kind, db, url: null, drop: () => db.destroy() };
  }
  const throwaway = await createThrowawayPostgres();
  const db = await connectDatabase({ databaseUrl: throwaway.url });
  return {
    kind,
    db,
    url: throwaway.url,
    async drop() {
      await db.destroy();
      await throwaway.drop();
    },
  };
}

/**
 * A second connection pool to a Postgres test database, as another API replica has: stopping it closes its
 * connections and leaves the database to its owner. Embedded PGlite is one process's: it has no replicas.
 */
export async function openReplicaConnection(of: TestDatabase): Promise<TestDatabase> {
  if (of.url === null) throw new Error('an embedded (PGlite) database has no replicas');
  const db = await connectDatabase({ databaseUrl: of.url });
  return { kind: of.kind, db, url: of.url, drop: () => db.destroy() };
}

/**
 * Runs `during` while a test database is away, as a restarting server would be: every connection to it
 * is terminated and new ones are refused; afterwards it accepts connections again, whatever happened.
 */
export async function whileRefusingConnections<T>(databaseUrl: string, during: () => Promise<T>): Promise<T> {
  const name = new URL(databaseUrl).pathname.slice(1);
  return admin(async (c) => {
    await c.query(`alter database ${name} with allow_connections false`);
    try {
      await c.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
      return await during();
    } finally {
      await c.query(`alter database ${name} with allow_connections true`);
    }
  });
}
