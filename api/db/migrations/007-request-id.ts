import type { Knex } from 'knex';

/**
 * - screenshots.request_id: the X-Request-Id of the HTTP request that created the record, so one id leads
 *   from the access log line through the agent's log lines to the record ('' when no request created it);
 * - an index on screenshots.finished_at: the Nodes page reads the last minutes' captures per browser
 *   (api/farm/browser-activity.ts) every few seconds, which must not scan every record ever made.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => {
    t.string('request_id', 64).notNullable().defaultTo('');
    t.index(['finished_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => {
    t.dropIndex(['finished_at']);
    t.dropColumn('request_id');
  });
}
