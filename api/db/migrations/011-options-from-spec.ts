import type { Knex } from 'knex';
import type { CaptureSpec } from '../../../core/capture-spec.js';
import { CAPTURE_OPTIONS } from '../../options/create-params.js';
import { requestOptionsOf, storedOptionValues } from '../../options/option-table.js';

/**
 * The capture options leave their columns: a record's option values are read back from its stored
 * CaptureSpec, and the few the spec cannot say (a PDF option while the PDF is off, `cache`, `priority`,
 * a cookie string spaced otherwise than the parsed cookies) from the new jsonb `request_options`.
 * Kept as columns: url, country and tag (list filters on them), browser (the Nodes page counts per
 * browser) and user_agent (the capture writes the one it used); api/options/create-params.ts says so
 * entry by entry. Each row is moved by the option table's own rule (requestOptionsOf), so what a record
 * answers is what it answered before; a stored spec older than one of its plain fields (hideAds...) gets
 * the column's value written into it first.
 *
 * The dropped columns as 001 made them (their type, for down()).
 */
const DROPPED: Record<string, 'text' | 'boolean' | 'integer' | 'double' | number> = {
  language: 5,
  timezone: 64,
  geo_enable: 'boolean',
  geo_latitude: 'double',
  geo_longitude: 'double',
  size: 6,
  cache: 'integer',
  delay: 'integer',
  screen_width: 'integer',
  screen_height: 'integer',
  max_height: 'integer',
  priority: 'integer',
  referer: 'text',
  post_data: 'text',
  cookie: 'text',
  script: 'text',
  script_inline: 'text',
  header: 'text',
  html: 'boolean',
  pdf: 'boolean',
  video: 'boolean',
  pdf_background: 'boolean',
  pdf_one_page: 'boolean',
  pdf_landscape: 'boolean',
  pdf_format: 10,
  pdf_margin: 32,
  pdf_margin_top: 32,
  pdf_margin_bottom: 32,
  pdf_margin_left: 32,
  pdf_margin_right: 32,
  video_format: 10,
  video_quality: 'integer',
  video_speed: 'double',
  video_duration: 'integer',
  video_fps: 'integer',
  video_colors: 'integer',
  video_scale: 'double',
  max_wait: 'integer',
  hide_popups: 'boolean',
  hide_ads: 'boolean',
  dark: 'boolean',
  strict_ssl: 'boolean',
  shots: 'integer',
  shot_interval: 'integer',
  target: 'text',
  device_name: 100,
  device_scale: 'double',
  device_mobile: 'boolean',
  device_touch: 'boolean',
  device_landscape: 'boolean',
};

/** Rows moved per statement: bounds the memory a large table takes. */
const CHUNK = 500;

/** Calls `each` with the screenshot rows in id order, CHUNK at a time. */
async function inChunks(db: Knex, columns: string[], each: (rows: Record<string, unknown>[]) => Promise<void>): Promise<void> {
  for (let after = 0; ;) {
    const rows = (await db('screenshots')
      .where('id', '>', after)
      .orderBy('id')
      .limit(CHUNK)
      .select(['id', ...columns])) as Record<string, unknown>[];
    if (rows.length === 0) return;
    await each(rows);
    after = Number(rows[rows.length - 1]?.id);
  }
}

/** The plain spec fields (`spec` of an entry) a stored spec lacks, written from the row's columns. */
function backfilledSpec(row: Record<string, unknown>): CaptureSpec {
  const spec = { ...(row.capture_spec as Record<string, unknown>) };
  for (const [name, o] of Object.entries(CAPTURE_OPTIONS)) {
    if ('spec' in o && !(o.spec in spec) && row[name] !== undefined) spec[o.spec] = row[name];
  }
  return spec as unknown as CaptureSpec;
}

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => {
    t.jsonb('request_options').notNullable().defaultTo('{}');
  });
  await inChunks(db, ['capture_spec', ...Object.keys(DROPPED)], async (rows) => {
    const moved = rows.map((row) => {
      const spec = backfilledSpec(row);
      return { id: Number(row.id), spec: JSON.stringify(spec), kept: JSON.stringify(requestOptionsOf(CAPTURE_OPTIONS, row, spec)) };
    });
    // One statement per chunk: the rows' new values as a JSON record set joined on id.
    await db.raw(
      `update screenshots s set capture_spec = v.spec::jsonb, request_options = v.kept::jsonb
       from json_to_recordset(?::json) as v(id bigint, spec text, kept text) where s.id = v.id`,
      [JSON.stringify(moved)],
    );
  });
  await db.schema.alterTable('screenshots', (t) => {
    for (const name of Object.keys(DROPPED)) t.dropColumn(name);
  });
}

/** The columns again, filled with what each record answers (its spec keeps the fields up() added: they are its own). */
export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => {
    for (const [name, type] of Object.entries(DROPPED)) {
      if (typeof type === 'number') t.string(name, type);
      else if (type === 'double') t.double(name);
      else t[type](name);
    }
  });
  // The option columns 011 keeps (not the table's of a later day, whose own migration may be undone already).
  await inChunks(db, ['capture_spec', 'request_options', 'url', 'country', 'tag', 'browser', 'user_agent'], async (rows) => {
    for (const row of rows) {
      const values = storedOptionValues(CAPTURE_OPTIONS, row);
      await db('screenshots')
        .where({ id: row.id })
        .update(Object.fromEntries(Object.keys(DROPPED).map((name) => [name, values[name]])));
    }
  });
  await db.raw(
    `alter table screenshots ${Object.keys(DROPPED)
      .map((name) => `alter column ${name} set not null`)
      .join(', ')}`,
  );
  await db.schema.alterTable('screenshots', (t) => t.dropColumn('request_options'));
}
