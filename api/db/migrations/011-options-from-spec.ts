import type { Knex } from 'knex';

/**
 * The capture options leave their columns: a record's option values are read back from its stored
 * CaptureSpec, and the few the spec cannot say (a PDF option while the PDF is off, `cache`, `priority`,
 * a cookie string spaced otherwise than the parsed cookies) from the new jsonb `request_options`.
 * Kept as columns: url, country and tag (list filters on them), browser (the Nodes page counts per
 * browser) and user_agent (the capture writes the one it used); api/options/create-params.ts says so
 * entry by entry. Each row is moved by the option table's rule (requestOptionsOf), so what a record
 * answers is what it answered before; a stored spec older than one of its plain fields (hideAds...) gets
 * the column's value written into it first. The table and its two rules are frozen below as they were when
 * 011 was written: a later change of the live option table does not change what 011 does to a database.
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

/** A stored CaptureSpec, as 011 reads it. */
type StoredSpec = Record<string, unknown>;

/**
 * What 011's rules read of a capture option with a record (api/options/option-table.ts's CaptureOption of the
 * day): its column, where the spec holds it (`spec`, `specPath` or `fromSpec`), its default and its empty value.
 */
interface Option011 {
  column?: true;
  spec?: string;
  specPath?: string;
  fromSpec?: (spec: StoredSpec) => unknown;
  default?: unknown;
  defaultFrom?: string;
  /** the value of an option not given and without a default: by its kind, no items, 0, false or '' */
  empty: unknown;
}

const list = { empty: [] };
const text = { empty: '' };
const number = { empty: 0 };
const flag = { empty: false };

/** The options with a record, in the table's order (a margin side defaults from pdf_margin, listed before it). */
const OPTIONS_011: Record<string, Option011> = {
  url: { ...list, column: true, fromSpec: (s) => s.url },
  country: { ...list, column: true, fromSpec: (s) => s.country },
  browser: { ...text, column: true, spec: 'browser', default: 'chrome' },
  delay: { ...number, spec: 'delay', default: 0 },
  hide_ads: { ...flag, spec: 'hideAds', default: false },
  hide_popups: { ...flag, spec: 'hidePopups', default: false },
  screen_width: { ...number, specPath: 'device.width', default: 1280 },
  screen_height: { ...number, specPath: 'device.height', default: 800 },
  size: { ...text, spec: 'size', default: 'screen' },
  cookie: { ...text },
  header: { ...list, fromSpec: (s) => (s.headers as { name: string; value: string }[]).map((h) => `${h.name}: ${h.value}`).join('\n') },
  post_data: { ...text, specPath: 'postData' },
  referer: { ...text, specPath: 'referer' },
  user_agent: { ...text, column: true, specPath: 'userAgent' },
  max_wait: { ...number, spec: 'maxWait', default: 0 },
  script: { ...list, fromSpec: (s) => (s.scripts as string[]).join('\n') },
  script_inline: { ...text, specPath: 'scriptInline' },
  dark: { ...flag, spec: 'dark', default: false },
  strict_ssl: { ...flag, spec: 'strictSsl', default: false },
  cache: { ...text, default: 0 },
  max_height: { ...number, spec: 'maxHeight', default: 0 },
  shots: { ...number, spec: 'shots', default: 1 },
  shot_interval: { ...number, spec: 'shotInterval', default: 1 },
  tag: { ...list, column: true },
  target: { ...text, specPath: 'target' },
  html: { ...flag, spec: 'html', default: false },
  geo_enable: { ...flag, fromSpec: (s) => s.geo !== null },
  geo_latitude: { ...number, specPath: 'geo.latitude' },
  geo_longitude: { ...number, specPath: 'geo.longitude' },
  language: { ...text, specPath: 'language' },
  timezone: { ...text, specPath: 'timezone' },
  device_name: { ...text, specPath: 'device.name' },
  device_landscape: { ...flag, specPath: 'device.landscape', default: false },
  device_mobile: { ...flag, specPath: 'device.mobile', default: false },
  device_touch: { ...flag, specPath: 'device.touch', default: false },
  device_scale: { ...number, specPath: 'device.scale', default: 1 },
  pdf: { ...flag, default: false, fromSpec: (s) => s.pdf !== null },
  pdf_background: { ...flag, specPath: 'pdf.background', default: false },
  pdf_landscape: { ...flag, specPath: 'pdf.landscape', default: false },
  pdf_one_page: { ...flag, specPath: 'pdf.onePage', default: false },
  pdf_format: { ...text, specPath: 'pdf.format', default: 'a4' },
  pdf_margin: { ...text, default: '0px' },
  pdf_margin_top: { ...text, specPath: 'pdf.margin.top', defaultFrom: 'pdf_margin' },
  pdf_margin_bottom: { ...text, specPath: 'pdf.margin.bottom', defaultFrom: 'pdf_margin' },
  pdf_margin_left: { ...text, specPath: 'pdf.margin.left', defaultFrom: 'pdf_margin' },
  pdf_margin_right: { ...text, specPath: 'pdf.margin.right', defaultFrom: 'pdf_margin' },
  video: { ...flag, default: false, fromSpec: (s) => s.video !== null },
  video_format: { ...text, specPath: 'video.format', default: 'mp4' },
  video_quality: { ...number, specPath: 'video.quality', default: 23 },
  video_speed: { ...number, specPath: 'video.speed', default: 1 },
  video_duration: { ...number, specPath: 'video.duration', default: 0 },
  video_fps: { ...number, specPath: 'video.fps', default: 25 },
  video_colors: { ...number, specPath: 'video.colors', default: 256 },
  video_scale: { ...number, specPath: 'video.scale', default: 1 },
  priority: { ...number, default: 0 },
};

/** A value at a dotted path (`pdf.margin.top`) of an object; undefined when a step is missing. */
const at = (value: unknown, path: string): unknown => path.split('.').reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), value);

/** What the stored spec says of an option, else what the record shows of one not given (the table's specValue). */
function specValue(o: Option011, spec: StoredSpec, values: Record<string, unknown>): unknown {
  const said = o.fromSpec ? o.fromSpec(spec) : o.spec !== undefined ? spec[o.spec] : o.specPath !== undefined ? at(spec, o.specPath) : undefined;
  return said ?? (o.defaultFrom !== undefined ? values[o.defaultFrom] : undefined) ?? o.default ?? o.empty;
}

/** The record's request_options: its values in no column that the spec does not say (the table's requestOptionsOf). */
function requestOptions(fields: Record<string, unknown>, spec: StoredSpec): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(OPTIONS_011)) {
    if (o.column || fields[name] === undefined) continue;
    if (JSON.stringify(fields[name]) !== JSON.stringify(specValue(o, spec, fields))) kept[name] = fields[name];
  }
  return kept;
}

/** A stored row's option values: its columns, its request_options, its spec (the table's storedOptionValues). */
function storedValues(row: Record<string, unknown>): Record<string, unknown> {
  const spec = row.capture_spec as StoredSpec;
  const kept = (row.request_options ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(OPTIONS_011)) out[name] = o.column ? row[name] : name in kept ? kept[name] : specValue(o, spec, out);
  return out;
}

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
function backfilledSpec(row: Record<string, unknown>): StoredSpec {
  const spec = { ...(row.capture_spec as StoredSpec) };
  for (const [name, o] of Object.entries(OPTIONS_011)) {
    if (o.spec !== undefined && !(o.spec in spec) && row[name] !== undefined) spec[o.spec] = row[name];
  }
  return spec;
}

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => {
    t.jsonb('request_options').notNullable().defaultTo('{}');
  });
  await inChunks(db, ['capture_spec', ...Object.keys(DROPPED)], async (rows) => {
    const moved = rows.map((row) => {
      const spec = backfilledSpec(row);
      return { id: Number(row.id), spec: JSON.stringify(spec), kept: JSON.stringify(requestOptions(row, spec)) };
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
      const values = storedValues(row);
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
