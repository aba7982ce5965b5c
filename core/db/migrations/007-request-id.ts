import type { Knex } from 'knex';

/**
 * screenshots.request_id: the X-Request-Id of the HTTP request that created the record, so one id leads
 * from the access log line through the agent's log lines to the record ('' when no request created it).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => {
    t.string('request_id', 64).notNullable().defaultTo('');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => t.dropColumn('request_id'));
}
