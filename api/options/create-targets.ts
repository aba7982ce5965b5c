import { createHash } from 'node:crypto';
import type { CaptureSource, SourceKind } from '../../core/capture-spec.js';

/**
 * What a create request renders (beyond-v1.md part 3): its URLs or one source. Apart from the parameters
 * (source-params.ts), which the dashboard's browser build imports with the option table: this needs Node's crypto.
 */

/** The record's url of a source: its kind and the SHA-256 of its text as sent (UTF-8). */
export const sourceUrl = (kind: SourceKind, text: string): string => `source:${kind}/${createHash('sha256').update(text, 'utf8').digest('hex')}`;

/** Whether a record's or monitor's url names a source (source:html/… or source:markdown/…) rather than a page. */
export const isSourceUrl = (url: string): boolean => /^source:(html|markdown)\/[0-9a-f]{64}$/.test(url);

/** The options a source cannot take: they describe a request to a web server, and a source has none. */
const URL_ONLY = ['post_data', 'cookie'] as const;

interface TargetParams {
  url?: string[];
  source_html?: string;
  source_markdown?: string;
  base_url?: string;
  post_data?: string;
  cookie?: string;
}

/**
 * What a create request renders: its URLs, or one source. Exactly one of url, source_html and
 * source_markdown; base_url only with a source. Errors go to `addError` under the field they concern;
 * `refused` holds the fields already refused.
 */
export function targetsOf(p: TargetParams, refused: Readonly<Record<string, unknown>>, addError: (field: string, message: string) => void): { urls: string[]; source: CaptureSource | null } {
  // A target given but refused (its own 400 says why) is still the one given: no "url is required" on top.
  const given = (['url', 'source_html', 'source_markdown'] as const).filter((name) => p[name] !== undefined || refused[name] !== undefined);
  if (given.length === 0) {
    addError('url', 'is required (or give source_html or source_markdown)');
    return { urls: [], source: null };
  }
  if (given.length > 1) {
    for (const name of given) addError(name, `give exactly one of url, source_html and source_markdown (this request gives ${given.join(' and ')})`);
    return { urls: [], source: null };
  }
  if (given[0] !== undefined && p[given[0]] === undefined) return { urls: [], source: null };
  if (p.url !== undefined) {
    if (p.url.length === 0) addError('url', 'is required');
    if (p.base_url !== undefined) addError('base_url', 'applies only with source_html or source_markdown');
    return { urls: p.url, source: null };
  }
  for (const name of URL_ONLY) if (p[name] !== undefined) addError(name, 'applies only with a url (a source is not requested from a web server)');
  const kind: SourceKind = p.source_html !== undefined ? 'html' : 'markdown';
  const text = (kind === 'html' ? p.source_html : p.source_markdown) as string;
  return { urls: [sourceUrl(kind, text)], source: { kind, text, baseUrl: p.base_url ?? null } };
}
