import type { ScreenshotRecordData } from '../contract.js';

/**
 * The text posted with the screenshot (files.completeUploadExternal's `initial_comment`), from the
 * configuration's `message` template.
 *
 * Decisions:
 *  - Placeholders are `{name}` with a name from MESSAGE_PLACEHOLDERS, filled from the screenshot record.
 *    An unknown `{word}` in lower case is refused when the settings are saved (validateMessageTemplate):
 *    a typo such as `{ulr}` would otherwise be posted literally to the whole channel. Other braces
 *    (`{}`, `{1}`, `{ X }`) are plain text.
 *  - Only the VALUES are escaped for Slack's mrkdwn (`&`, `<`, `>` become entities, as Slack asks): a URL
 *    with `<`… cannot break the message or forge a link or a mention. The template itself is the user's own
 *    mrkdwn and passes as written, so `<!here>` or `<{url}|the page>` work.
 *  - A missing or empty value (no final_url yet, response_code null) renders as an empty string; `{tags}`
 *    is the record's `tag` list joined with `, `.
 *  - The result is cut to MAX_MESSAGE_LENGTH characters (never inside an entity or a surrogate pair).
 */

export const DEFAULT_MESSAGE_TEMPLATE = 'Screenshot of {url}';

export const MESSAGE_PLACEHOLDERS = ['id', 'url', 'final_url', 'status', 'response_code', 'browser', 'country', 'tags', 'created_at', 'finished_at'] as const;
export type MessagePlaceholder = (typeof MESSAGE_PLACEHOLDERS)[number];

/** Longest template a configuration may hold. */
export const MAX_MESSAGE_TEMPLATE_LENGTH = 3000;
/** Longest rendered message: Slack truncates long messages; a screenshot caption needs far less. */
export const MAX_MESSAGE_LENGTH = 4000;

const KNOWN = new Set<string>(MESSAGE_PLACEHOLDERS);
const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** Why `template` cannot be saved, or null when it can. */
export function validateMessageTemplate(template: string): string | null {
  if (template.length > MAX_MESSAGE_TEMPLATE_LENGTH) return `must be at most ${MAX_MESSAGE_TEMPLATE_LENGTH} characters`;
  const unknown = [...template.matchAll(PLACEHOLDER)].map((m) => m[0]).filter((p) => !KNOWN.has(p.slice(1, -1)));
  if (unknown.length > 0) {
    return `unknown placeholder${unknown.length > 1 ? 's' : ''} ${[...new Set(unknown)].join(', ')}; known: ${MESSAGE_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`;
  }
  return null;
}

/** `&`, `<` and `>` as Slack wants them in message text. */
export function escapeSlackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function renderSlackMessage(template: string, screenshot: ScreenshotRecordData): string {
  const rendered = template.replace(PLACEHOLDER, (whole, name: string) => (KNOWN.has(name) ? escapeSlackText(placeholderValue(name as MessagePlaceholder, screenshot)) : whole));
  return truncate(rendered, MAX_MESSAGE_LENGTH);
}

function placeholderValue(name: MessagePlaceholder, screenshot: ScreenshotRecordData): string {
  // The record names its tags `tag` (a list); the placeholder says `{tags}`, as file name templates do.
  const value = screenshot[name === 'tags' ? 'tag' : name];
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  // Never end on half a surrogate pair or half an entity (`&am`).
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  cut = cut.replace(/&[a-z]*$/, '');
  return `${cut}…`;
}
