import type { Knex } from 'knex';

/**
 * screenshots.error_cause: the stable code of why a record ended as `error` (core/error-cause.ts), beside
 * the sentence in `error`. Null while processing, when finished, and on records that ended before it existed.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => {
    t.string('error_cause', 32);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => t.dropColumn('error_cause'));
}
