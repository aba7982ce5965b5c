import type { Knex } from 'knex';

/**
 * screenshots.page_metadata (the record's `metadata`; the option `metadata` is the switch, read back from the spec): what the page says about itself (metadata=1, beyond-v1.md part 5), as the agent read
 * it (drivers/shared/extract-page.ts). Null when not asked, while processing, and on records older than it.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => {
    t.jsonb('page_metadata').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => t.dropColumn('page_metadata'));
}
