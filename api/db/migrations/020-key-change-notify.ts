import type { Knex } from 'knex';

/** The channel every api replica LISTENs on (api/auth/key-cache.ts keeps its own copy: migrations import nothing). */
const CHANNEL = 'shotfarm_api_keys_changed';

/**
 * A NOTIFY whenever what an API key authenticates as may have changed: a key revoked, re-pointed or
 * deleted (a company's deletion cascades here), a user's roles changed or the user deleted. Every api
 * replica's key cache (api/auth/key-cache.ts) empties itself on it, so a revocation made anywhere (a
 * route, the CLI, SQL by hand) reaches every replica at its commit. Statement triggers: one notification
 * per statement, however many rows; `last_used_at` writes (once a minute per key) notify nothing.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE OR REPLACE FUNCTION shotfarm_notify_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${CHANNEL}', TG_TABLE_NAME);
      RETURN NULL;
    END $$`);
  await db.raw(`CREATE TRIGGER api_keys_changed AFTER UPDATE OF revoked_at, key_hash, company_id, user_id OR DELETE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION shotfarm_notify_key_change()`);
  await db.raw(`CREATE TRIGGER users_roles_changed AFTER UPDATE OF roles, company_id OR DELETE ON users FOR EACH STATEMENT EXECUTE FUNCTION shotfarm_notify_key_change()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER IF EXISTS users_roles_changed ON users');
  await db.raw('DROP TRIGGER IF EXISTS api_keys_changed ON api_keys');
  await db.raw('DROP FUNCTION IF EXISTS shotfarm_notify_key_change()');
}
