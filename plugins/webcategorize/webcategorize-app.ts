import { z } from 'zod';
import { AppRunError, defineAppPlugin, type AppEndpoints, type AppPlugin, type AppRunContext } from '../contract.js';
import { categorize } from './categorize.js';
import { MAX_HTML_CHARS } from './page-text.js';

/**
 * The `webcategorize` app: sorts the captured page into the categories of taxonomy.ts from its rendered
 * text, title, meta tags, headings, structured data, URL and links, entirely on this machine (no service,
 * no network, no model to download). README.md beside this file documents the taxonomy and the method.
 *
 * output_data: `{ categories: [{name, score}], language, basis }`: scores 0..1 with 3 decimals, best
 * first; `language` an ISO 639-1 code or ''; `basis` `html` when the page's HTML had text, else
 * `url-and-links` (no HTML output: the screenshot was taken without `html=true`; or a page without text).
 *
 * Decisions:
 *  - It reads nothing but the run's HTML output (ctx.files) and the record's url, final_url and links.
 *  - An aborted signal is refused before any work and again after the HTML is read (the only await).
 *  - A failure to read the HTML is thrown (retryable: the store may be briefly unavailable) rather than
 *    silently answered with the weaker URL-only classification.
 *  - At most MAX_HTML_BYTES of the HTML are decoded (UTF-8: how the agent stores it).
 */

export const MAX_HTML_BYTES = MAX_HTML_CHARS * 2;

export const webcategorizeSettings = z.object({
  max_categories: z.number().int().min(1).max(10).default(3).describe('At most this many categories are returned (1–10).'),
  min_score: z.number().min(0).max(1).default(0.15).describe('Categories scoring below this (0–1) are left out; an empty list means nothing was confident.'),
});

export type WebcategorizeSettings = z.output<typeof webcategorizeSettings>;

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new AppRunError('the run was aborted', { cause: signal.reason });
}

const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

async function run(ctx: AppRunContext<WebcategorizeSettings>): Promise<{ output_data: Record<string, unknown> }> {
  throwIfAborted(ctx.signal);
  const htmlFile = ctx.files.list().find((f) => f.kind === 'html');
  let html: string | null = null;
  if (htmlFile) {
    let body: Buffer;
    try {
      body = await ctx.files.read(htmlFile);
    } catch (err) {
      throw new AppRunError(`could not read the page's HTML: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    throwIfAborted(ctx.signal);
    html = body.subarray(0, MAX_HTML_BYTES).toString('utf8');
  }
  const record = ctx.screenshot;
  const links = Array.isArray(record.links) ? record.links.filter((l): l is string => typeof l === 'string') : [];
  const result = categorize({ html, url: stringOr(record.url, ''), finalUrl: stringOr(record.final_url, ''), links }, { maxCategories: ctx.settings.max_categories, minScore: ctx.settings.min_score });
  ctx.log.info('page categorized', { categories: result.categories.map((c) => c.name), language: result.language, basis: result.basis });
  return { output_data: { categories: result.categories, language: result.language, basis: result.basis } };
}

/** The built-in `webcategorize` app (it needs no endpoint: it never leaves the process). */
export function createWebcategorizeApp(_endpoints: AppEndpoints): AppPlugin {
  return defineAppPlugin({
    type: 'webcategorize',
    name: 'Web categorizer',
    description: 'Classifies the captured page into content categories (news, shopping, sports…) and detects its language, locally from its text, URL and links.',
    settingsSchema: webcategorizeSettings,
    uploads: false,
    runsOnError: false,
    run,
  });
}
