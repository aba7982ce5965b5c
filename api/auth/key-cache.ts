import pg from 'pg';
import { embeddedPglite, type Db } from '../db/connect.js';
import type { Logger } from '../../core/logger.js';
import { findApiKey, hashApiKey, type KeyHolder } from '../accounts/api-keys.js';

/** The channel migration 020's triggers notify on (its own copy there: migrations import nothing). */
export const KEY_CHANGES_CHANNEL = 'shotfarm_api_keys_changed';

/** The LISTEN connection's application_name, as pg_stat_activity shows it. */
export const KEY_CACHE_APPLICATION = 'shotfarm-key-cache';

/**
 * How long a looked-up key is trusted without asking the database again. Every request authenticates:
 * the look-up was one of the 6 statements a create costs (make bench-farm, "SQL statements/capture").
 * A revocation does not wait for it: the database pushes every change to every replica (below). The
 * entry's age bounds only what no trigger sees (none today).
 */
export const KEY_CACHE_MS = 5_000;

/** Past this many live entries the cache starts over: a bound on memory, not a policy (a replica serves far fewer keys in 5 s). */
const MAX_ENTRIES = 10_000;
/**
 * How long a cache hit waits for the LISTEN connection's catch-up statement before that connection is taken
 * for lost (the look-up then asks the database): a trivial statement answers in well under a millisecond
 * on a quiet machine; 1 s leaves room for a loaded one without letting a dead socket hang requests.
 */
const SYNC_TIMEOUT_MS = 1_000;
/** How soon a lost LISTEN connection is opened again; the cache is off (every look-up asks the database) until it is. */
const RELISTEN_MS = 1_000;

/**
 * The API-key look-up of the authentication, cached for a few seconds per key, emptied on every replica
 * at once when a key or its user changes: each replica LISTENs on the channel that migration 020's
 * triggers NOTIFY at the change's commit. The cache is used only while that LISTEN connection is up (a
 * notification it could have missed would leave a revoked key working), and every hit first waits for the
 * connection to have caught up with what was committed before the request (catchUp); while the connection is down,
 * every look-up asks the database, as before. On PGlite (the embedded mode) the cache listens on PGlite's one
 * session in this process, which no other process can write (the data folder's lock): PGlite hands a
 * notification to its listener before the statement that committed the change resolves, so no look-up after a
 * change can find the old entry, and no catch-up is needed (issue 30: a look-up per request was three of the eight
 * statements a capture cost the embedded control plane). Only live keys are cached; a wrong key asks the database every time.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { holder: KeyHolder; until: number }>();
  /** bumped by every notification: a look-up that began before one must not store what it read */
  private generation = 0;
  private listener: pg.Client | null = null;
  /** the embedded database's listener (PGlite's unlisten), or null */
  private inProcess: (() => Promise<void>) | null = null;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;
  /** the catch-up statement on its way (catchUp), and the one to send after it */
  private syncing: Promise<void> | null = null;
  private nextSync: Promise<void> | null = null;

  private constructor(
    private readonly db: Db,
    private readonly databaseUrl: string | null,
    private readonly log: Logger,
    private readonly ttlMs: number,
    private readonly onStatement: () => void,
  ) {}

  /** A cache over `db`; with a Postgres URL it listens before it answers, so the first look-ups are cached already. `onStatement`: called for each statement it sends on its own connection (the statements metric). */
  static async start(db: Db, databaseUrl: string | null, log: Logger, opts: { ttlMs?: number; onStatement?: () => void } = {}): Promise<ApiKeyCache> {
    const cache = new ApiKeyCache(db, databaseUrl, log, opts.ttlMs ?? KEY_CACHE_MS, opts.onStatement ?? (() => undefined));
    const embedded = embeddedPglite(db);
    if (databaseUrl) await cache.listen();
    else if (embedded) cache.inProcess = await embedded.listen(KEY_CHANGES_CHANNEL, () => cache.changed());
    return cache;
  }

  /** Whether look-ups are cached now (the LISTEN connection is up, or the embedded database's listener). */
  caching(): boolean {
    return this.listener !== null || this.inProcess !== null;
  }

  /** The live key and its user's roles for a presented key, or null (findApiKey's answer, cached). */
  async find(key: string): Promise<KeyHolder | null> {
    if (this.inProcess) return this.cached(key, () => this.inProcess !== null);
    if (!this.listener) return findApiKey(this.db, key);
    try {
      await this.catchUp();
    } catch {
      return findApiKey(this.db, key);
    }
    return this.cached(key, () => this.listener !== null);
  }

  /** A key changed somewhere: every entry goes, and a look-up under way does not store what it read. */
  private changed(): void {
    this.generation++;
    this.entries.clear();
  }

  /** The cached answer, or the database's, stored while `listening` still holds and nothing changed meanwhile. */
  private async cached(key: string, listening: () => boolean): Promise<KeyHolder | null> {
    if (!listening()) return findApiKey(this.db, key);
    const hash = hashApiKey(key);
    const now = Date.now();
    const hit = this.entries.get(hash);
    if (hit && hit.until > now) return hit.holder;
    const generation = this.generation;
    const holder = await findApiKey(this.db, key);
    if (holder && listening() && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(hash, { holder, until: now + this.ttlMs });
    }
    return holder;
  }

  /**
   * Resolves once every change committed before the call has emptied the cache. A notification reaches the
   * LISTEN connection asynchronously: measured, a request on the other replica right after the revoking
   * one's answer still found the key cached in the first of 10 rounds (load 33). Postgres sends the
   * notifications a session has received before the ReadyForQuery of its next statement, so a trivial
   * statement on that connection, sent after this call, is answered only after them. The requests of one
   * moment share it: one waits for the one being sent (if it was sent before the call, the next).
   */
  private catchUp(): Promise<void> {
    if (!this.syncing) return (this.syncing = this.sync());
    this.nextSync ??= this.syncing
      .catch(() => undefined)
      .then(() => {
        this.nextSync = null;
        return (this.syncing = this.sync());
      });
    return this.nextSync;
  }

  private async sync(): Promise<void> {
    const client = this.listener;
    let timer: NodeJS.Timeout | undefined;
    try {
      if (!client) throw new Error('not listening');
      this.onStatement();
      await Promise.race([
        client.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the LISTEN connection did not answer within ${SYNC_TIMEOUT_MS} ms`)), SYNC_TIMEOUT_MS);
        }),
      ]);
    } catch (err) {
      // A connection that stopped answering without closing (a half-open socket) is dropped like a closed one.
      if (client) this.lose(client, err as Error);
      throw err;
    } finally {
      clearTimeout(timer);
      this.syncing = null;
    }
  }

  /** The LISTEN connection is gone or unusable: no cache until a new one listens. */
  private lose(client: pg.Client, err?: Error): void {
    if (this.listener !== client) return;
    this.forget();
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    this.log.warn({ err }, 'the API key cache lost its LISTEN connection: keys are looked up in the database until it is back');
    this.relisten();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const listener = this.listener;
    const unlisten = this.inProcess;
    this.inProcess = null;
    this.forget();
    await listener?.end().catch(() => undefined);
    // The plane stops the cache before its database closes; a database closed first has no listener left to remove.
    await unlisten?.().catch(() => undefined);
  }

  private forget(): void {
    this.listener = null;
    this.generation++;
    this.entries.clear();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl ?? undefined, application_name: KEY_CACHE_APPLICATION });
    const lost = (err?: Error): void => this.lose(client, err);
    try {
      client.on('notification', () => this.changed());
      client.on('error', lost);
      client.on('end', () => lost());
      await client.connect();
      await client.query(`LISTEN ${KEY_CHANGES_CHANNEL}`);
      if (this.stopped) {
        await client.end();
        return;
      }
      this.listener = client;
    } catch (err) {
      await client.end().catch(() => undefined);
      this.log.warn({ err }, 'the API key cache could not LISTEN: keys are looked up in the database until it can');
      this.relisten();
    }
  }

  private relisten(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.listen();
    }, RELISTEN_MS);
    this.retry.unref();
  }
}
