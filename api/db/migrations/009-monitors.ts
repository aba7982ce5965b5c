import type { Knex } from 'knex';

/**
 * Page monitors and batches that resume.
 * - monitors: a URL captured on a schedule (an interval, or a cron expression), with the screenshot
 *   options every run is created with. `next_run_at` is the schedule's one fact: a replica claims a run by
 *   moving it forward in a conditional UPDATE, so with several API replicas each period runs once.
 * - monitor_runs: one per run, with the period it stands for (unique per monitor: a second claim of the
 *   same period cannot insert), its screenshot, and whether the comparison with the previous shot is done.
 * - screenshots.change_ratio / text_changes: a monitor run's comparison, on the record (extra fields);
 *   the diff image is a screenshot_files row of kind `diff`.
 * - screenshots.attempt / retry_of: POST /batch/retry captures a batch's failed screenshots again as new
 *   records that stand in for them (attempt 2, 3, …).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('monitors', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('api_key_id').references('api_keys.id').onDelete('SET NULL');
    t.string('name', 200);
    t.text('url').notNullable();
    t.integer('interval_seconds').notNullable();
    t.string('cron', 200);
    t.double('threshold').notNullable();
    t.jsonb('ignore').notNullable().defaultTo('[]');
    // The screenshot options as given (the create rules are applied again for every run).
    t.jsonb('options').notNullable().defaultTo('{}');
    t.jsonb('app_config_ids').notNullable().defaultTo('[]');
    t.string('status', 20).notNullable().defaultTo('active');
    t.timestamp('next_run_at', { useTz: true }).notNullable();
    t.timestamp('last_run_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['company_id', 'id']);
    // The scheduler's one query: active monitors that are due.
    t.index(['status', 'next_run_at']);
  });
  await db.schema.createTable('monitor_runs', (t) => {
    t.bigIncrements('id');
    t.bigInteger('monitor_id').notNullable().references('monitors.id').onDelete('CASCADE');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('trigger', 20).notNullable();
    // The period this run stands for (a manual run: the moment it was asked for).
    t.timestamp('scheduled_for', { useTz: true }).notNullable();
    t.bigInteger('screenshot_id').references('screenshots.id').onDelete('SET NULL');
    t.bigInteger('previous_screenshot_id').references('screenshots.id').onDelete('SET NULL');
    t.text('error').notNullable().defaultTo('');
    // Claimed for the comparison (compared, when: compare_claimed_at), and when it was done (compared_at): one
    // replica compares each run; a claim left by a process that died is taken over once its lease ran out.
    t.boolean('compared').notNullable().defaultTo(false);
    t.timestamp('compare_claimed_at', { useTz: true });
    t.timestamp('compared_at', { useTz: true });
    t.boolean('changed').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['monitor_id', 'trigger', 'scheduled_for']);
    t.index(['monitor_id', 'id']);
    t.index(['screenshot_id']);
  });
  await db.schema.alterTable('screenshots', (t) => {
    t.bigInteger('monitor_id').references('monitors.id').onDelete('SET NULL');
    t.double('change_ratio');
    t.jsonb('text_changes');
    t.integer('attempt').notNullable().defaultTo(1);
    t.bigInteger('retry_of').references('screenshots.id').onDelete('SET NULL');
    t.index(['monitor_id']);
    t.index(['retry_of']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => {
    t.dropColumn('retry_of');
    t.dropColumn('attempt');
    t.dropColumn('text_changes');
    t.dropColumn('change_ratio');
    t.dropColumn('monitor_id');
  });
  await db.schema.dropTableIfExists('monitor_runs');
  await db.schema.dropTableIfExists('monitors');
}
