import type { Knex } from 'knex';

/**
 * Signed render links (issue 27, beyond-v1.md part 2): every API key gets a public id (`access`) and a
 * signing secret.
 * - `access`: `ak_` + 32 hex digits of a random UUID (122 random bits), made by the column's default, so every
 *   way a key is inserted (create, signup, bootstrap, the operator CLI) gets one, and existing keys get theirs
 *   here (Postgres evaluates a volatile default once per existing row). Public: it sits in every signed link.
 * - `signing_secret`: the HMAC key of the key's links, encrypted at rest with the installation's secret box
 *   (api/apps/secret-box.ts: `enc:v1:…`), because verifying a signature needs the secret itself, not a hash.
 *   Existing keys get NONE here, lazily instead: a migration has no secrets key to encrypt with, and a secret is
 *   shown only once, in the answer that makes it, so one made here could never be shown to anybody. Their
 *   owners get one from `POST /key/rotate-signing-secret` (the dashboard's keys page offers it); until then
 *   the key's links are refused (403 INVALID_SIGNATURE).
 * - `previous_signing_secret` / `previous_secret_until`: the secret before the last rotation and the moment it
 *   stops working (SHOTFARM_SIGNING_SECRET_GRACE_SECONDS after the rotation), so links already out keep working.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('api_keys', (t) => {
    t.string('access', 40).notNullable().defaultTo(db.raw(`'ak_' || replace(gen_random_uuid()::text, '-', '')`)).unique();
    t.text('signing_secret');
    t.text('previous_signing_secret');
    t.timestamp('previous_secret_until', { useTz: true });
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('api_keys', (t) => {
    t.dropColumn('access');
    t.dropColumn('signing_secret');
    t.dropColumn('previous_signing_secret');
    t.dropColumn('previous_secret_until');
  });
}
