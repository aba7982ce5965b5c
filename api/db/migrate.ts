import type { Knex } from 'knex';
import * as initial from './migrations/001-initial.js';
import * as crawlUrls from './migrations/002-crawl-urls.js';
import * as appRunner from './migrations/003-app-runner.js';
import * as usersAuth from './migrations/004-users-auth.js';
import * as billing from './migrations/005-billing.js';
import * as billingSwitches from './migrations/006-billing-switches.js';
import * as requestId from './migrations/007-request-id.js';
import * as errorCause from './migrations/008-error-cause.js';
import * as monitors from './migrations/009-monitors.js';
import * as heldCredits from './migrations/010-held-credits.js';
import * as optionsFromSpec from './migrations/011-options-from-spec.js';
import * as signupGrantsSessionsLimits from './migrations/012-signup-grants-sessions-limits.js';
import * as blank from './migrations/013-blank.js';
import * as keySigning from './migrations/015-key-signing.js';
import * as pageMetadata from './migrations/017-page-metadata.js';
import * as blocked from './migrations/018-blocked.js';
import * as keyChangeNotify from './migrations/020-key-change-notify.js';

interface Migration {
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/** Every migration, in order. Listed here (not discovered on disk) so the compiled package needs no loader. */
const MIGRATIONS: Record<string, Migration> = {
  '001-initial': initial,
  '002-crawl-urls': crawlUrls,
  '003-app-runner': appRunner,
  '004-users-auth': usersAuth,
  '005-billing': billing,
  '006-billing-switches': billingSwitches,
  '007-request-id': requestId,
  '008-error-cause': errorCause,
  '009-monitors': monitors,
  '010-held-credits': heldCredits,
  '011-options-from-spec': optionsFromSpec,
  '012-signup-grants-sessions-limits': signupGrantsSessionsLimits,
  '013-blank': blank,
  '015-key-signing': keySigning,
  '017-page-metadata': pageMetadata,
  '018-blocked': blocked,
  '020-key-change-notify': keyChangeNotify,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name] as Migration,
};

/** Brings the schema up to date; returns the names of the migrations it applied. */
export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource: source })) as [number, string[]];
  return applied;
}

/** Applies the migrations up to and including `name` that are not applied yet (an older schema, for a migration's test or a staged upgrade). */
export async function migrateUpTo(db: Knex, name: string): Promise<void> {
  if (!(name in MIGRATIONS)) throw new Error(`no migration ${name}`);
  const [done] = (await db.migrate.list({ migrationSource: source })) as [{ name: string }[] | string[], unknown];
  const applied = new Set(done.map((m) => (typeof m === 'string' ? m : m.name)));
  for (const next of Object.keys(MIGRATIONS)) {
    if (!applied.has(next)) await db.migrate.up({ migrationSource: source, name: next });
    if (next === name) return;
  }
}

/** Undoes the latest applied migration (its down()). */
export async function migrateDownOne(db: Knex): Promise<void> {
  await db.migrate.down({ migrationSource: source });
}

/** Undoes the applied migrations that come after `name`, the latest first (a migration's down() under test, with later ones in the list). */
export async function migrateDownTo(db: Knex, name: string): Promise<void> {
  if (!(name in MIGRATIONS)) throw new Error(`no migration ${name}`);
  const later = Object.keys(MIGRATIONS).slice(Object.keys(MIGRATIONS).indexOf(name) + 1);
  const [done] = (await db.migrate.list({ migrationSource: source })) as [{ name: string }[] | string[], unknown];
  const applied = new Set(done.map((m) => (typeof m === 'string' ? m : m.name)));
  for (const next of later.reverse()) if (applied.has(next)) await db.migrate.down({ migrationSource: source, name: next });
}
