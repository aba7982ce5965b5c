import type { Middleware } from 'koa';
import type { Config } from '../../core/config/config.js';
import { payloadTooLarge } from '../../core/errors.js';
import { bodyParser } from './body-parser.js';
import { jsonBodyFields } from './json-body.js';
import { queryOf } from './query.js';
import type { AppContext, AppState } from './state.js';
import type { QueryTree } from '../options/query-input.js';

type SourceLimits = Config['sources'];

const SOURCE_FIELDS = ['source_html', 'source_markdown'] as const;

/** The byte count in words: 65536 → "65536 bytes (64 KiB)". */
const bytesText = (n: number): string => (n % 1024 === 0 ? `${n} bytes (${n >= 1024 * 1024 && n % (1024 * 1024) === 0 ? `${n / 1024 / 1024} MiB` : `${n / 1024} KiB`})` : `${n} bytes`);

/** 413 naming the limit when a source in `fields` is longer than `maxBytes` (UTF-8 bytes of the text as sent). */
function refuseLongSources(fields: QueryTree, maxBytes: number, where: 'a query string' | 'a request body', setting: string): void {
  for (const name of SOURCE_FIELDS) {
    const value = fields[name];
    if (!Array.isArray(value)) continue;
    const bytes = value.reduce((sum, v) => sum + (typeof v === 'string' ? Buffer.byteLength(v, 'utf8') : 0), 0);
    if (bytes > maxBytes) {
      const hint = where === 'a query string' ? '; send it in a POST body' : '';
      throw payloadTooLarge(`${name} is ${bytes} bytes; ${where} takes at most ${bytesText(maxBytes)} (${setting})${hint}`);
    }
  }
}

/** The parameters of GET /screenshot/create, with its sources within the query string's limit. */
export function queryWithinLimits(ctx: AppContext, limits: SourceLimits): QueryTree {
  const query = queryOf(ctx);
  refuseLongSources(query, limits.queryMaxBytes, 'a query string', 'SHOTFARM_SOURCE_QUERY_MAX_BYTES');
  return query;
}

/**
 * The parameters of POST /screenshot/create: its query's and its body's (the body wins on conflict, as on
 * every POST), each within its own limit.
 */
export function bodyWithinLimits(ctx: AppContext, limits: SourceLimits): QueryTree {
  const params = queryWithinLimits(ctx, limits);
  const fields = jsonBodyFields(ctx);
  refuseLongSources(fields, limits.bodyMaxBytes, 'a request body', 'SHOTFARM_SOURCE_BODY_MAX_BYTES');
  for (const field of Object.keys(fields)) params[field] = fields[field] as QueryTree[string];
  return params;
}

/** Room a body needs beyond its source: every other option at its longest (scripts, CSS, post_data: 64 KiB each). */
const OTHER_FIELDS_BYTES = 1024 * 1024;

/**
 * The body parser of POST /screenshot/create: JSON or a form. Its byte limit lets a source at the setting's
 * limit through however it is encoded (a form percent-encodes a byte as 3 at worst; JSON escapes less),
 * plus the other options; the exact limit on the source's own text is bodyWithinLimits'. A body over the
 * parser's limit is a 413 naming the same setting.
 */
export function sourceBodyParser(limits: SourceLimits): Middleware<AppState> {
  const rawLimit = limits.bodyMaxBytes * 3 + OTHER_FIELDS_BYTES;
  return bodyParser({ json: true, urlencoded: true, multipart: false, jsonLimit: rawLimit, formLimit: rawLimit, textLimit: rawLimit }, (error) =>
    error.status === 413
      ? payloadTooLarge(`The request body is larger than ${bytesText(rawLimit)}: a source takes at most ${bytesText(limits.bodyMaxBytes)} (SHOTFARM_SOURCE_BODY_MAX_BYTES)`)
      : undefined,
  );
}
