import type { Knex } from 'knex';

/**
 * screenshots.blocked: what the capture did not load, per category (`{ads, trackers, chats, social,
 * resources, urls}` counts, drivers/shared/block-lists/request-blocker.ts), as the agent reported it.
 * All zero while processing, and on records that ended before it existed.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => {
    t.jsonb('blocked')
      .notNullable()
      .defaultTo(JSON.stringify({ ads: 0, trackers: 0, chats: 0, social: 0, resources: 0, urls: 0 }));
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => t.dropColumn('blocked'));
}
