import type { Knex } from 'knex';

/**
 * What the app runner needs (api/apps):
 *  - app_runs become a durable queue: `next_attempt_at` (retries wait with backoff), `lease_until` (a run
 *    a crashed control plane was executing is taken over once its lease passes), `created_at`.
 *  - app_events: deliveries of events that are not a screenshot's own run (batch.finished, crawl.finished,
 *    app.upload.*) to the event-receiving apps (the webhook), queued and retried the same way. The payload
 *    is stored at enqueue time so every attempt sends the same message, under the same `message_id`.
 *  - app_configs.hidden: configurations the service makes for itself (a batch's hosting=s3 upload, with the
 *    service's storage credentials); they run and show in AppStatus but are not the user's to list or edit.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('app_runs', (t) => {
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('lease_until', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['status', 'next_attempt_at']);
  });
  await db.schema.alterTable('app_configs', (t) => {
    t.boolean('hidden').notNullable().defaultTo(false);
  });
  await db.schema.createTable('app_events', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('app_config_id').notNullable().references('app_configs.id').onDelete('CASCADE');
    t.string('type', 40).notNullable();
    t.string('message_id', 100).notNullable();
    t.jsonb('payload').notNullable();
    t.string('status', 20).notNullable().defaultTo('queued');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('error').notNullable().defaultTo('');
    t.jsonb('output_data');
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('lease_until', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    // One delivery of one event to one configuration: emitting twice (a redelivered result) queues it once.
    t.unique(['app_config_id', 'message_id']);
    t.index(['status', 'next_attempt_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('app_events');
  await db.schema.alterTable('app_configs', (t) => {
    t.dropColumn('hidden');
  });
  await db.schema.alterTable('app_runs', (t) => {
    t.dropIndex(['status', 'next_attempt_at']);
    t.dropColumn('next_attempt_at');
    t.dropColumn('lease_until');
    t.dropColumn('created_at');
  });
}
