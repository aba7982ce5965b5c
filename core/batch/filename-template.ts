import { randomBytes } from 'node:crypto';

/**
 * Names of the files inside a batch's ZIP, from the batch's `filename_template` (or a CSV/TSV row's
 * `filename` cell). The result is a BASE name: the caller appends the extension of each output kind
 * (`.png`, `.html`, `.pdf`, `.mp4`…), so a template ending in one of those extensions has it dropped
 * (`{domain}.png` would otherwise give `example.com.png.png`).
 *
 * Decisions:
 *  - `{id}` injection: when the template has no `{id}`, `-{id}` is appended to the LAST segment (just
 *    before the extension the caller adds), not prefixed: a template with folders (`{domain}/{date}`) would
 *    otherwise get the id in its first folder, and names that sort by what the user chose read better.
 *    A template made only of folders and nothing else (`{domain}/`) gets `{id}` as its file name.
 *  - Row filenames (the CSV/TSV `filename` column) are rendered like a template (variables work) but get
 *    NO `{id}` injection: the user named that row's files on purpose. They are not unique by construction
 *    (two rows may share a name, one row yields several shots or countries), so the ZIP writer makes them
 *    unique with `-2`, `-3` suffixes.
 *  - Subfolders are allowed: a `/` (or `\`, as Windows users write it) in the template's literal text
 *    starts a folder, at most MAX_FOLDERS deep. Variable values never create folders (their separators
 *    become `_`). Every segment is sanitised; empty, `.` and `..` segments are removed, so a name can never
 *    leave the archive's root (`../../etc/passwd` renders as `etc/passwd-<id>`).
 *  - Sanitising, per segment: control, format (zero-width, bidi overrides such as U+202E, which can
 *    disguise an extension) and line/paragraph separator characters are removed; `< > : " | ? * / \` and
 *    unpaired surrogates become `_`; the text is NFC-normalised; leading and trailing dots and spaces are
 *    removed (leading: hidden files and `..`; trailing: Windows drops them, making names collide);
 *    Windows device names (`con`, `nul`, `com1`…) get a `_` prefix; each segment is cut to
 *    MAX_SEGMENT_BYTES of UTF-8 without splitting a character and without cutting the `{id}` (the other
 *    text is shortened first).
 *  - Unknown `{variables}` are kept as literal text; validateTemplate is how the API refuses them (400).
 *  - `{shot}` is empty for outputs that belong to the whole capture (HTML, PDF, video).
 *  - Dates are UTC, so the same capture gets the same name whatever the server's time zone.
 */

export const DEFAULT_FILENAME_TEMPLATE = '{id}-{domain}';

export const FILENAME_VARIABLES = ['id', 'domain', 'shot', 'browser', 'country', 'yyyy', 'mm', 'dd', 'date', 'random', 'tags', 'url'] as const;
export type FilenameVariable = (typeof FILENAME_VARIABLES)[number];

/**
 * Most file systems allow 255 bytes per name. 200 leaves 55 for what is added after rendering: the
 * ZIP writer's collision suffix (`-<n>`) and the extension (at most `.webm`, `.html`: 5).
 */
export const MAX_SEGMENT_BYTES = 200;

/** Folder levels a name may have: enough to group by domain, date and country; deeper trees help nobody. */
export const MAX_FOLDERS = 3;

/**
 * Longest template accepted: four full segments (3 folders and a file name of MAX_SEGMENT_BYTES) with
 * room for the variable names that render shorter or longer than they are written. Longer text could only
 * be cut off.
 */
export const MAX_TEMPLATE_LENGTH = 1000;

/** What a name is rendered from: one output of one screenshot of the batch. */
export interface FilenameVars {
  /** The screenshot's id. */
  id: number | string;
  /** The normalised URL that was captured. */
  url: string;
  /** 1-based shot number of an image; null for HTML, PDF and video. */
  shot: number | null;
  browser: string;
  country: string;
  /** When the screenshot was taken; rendered in UTC. */
  date: Date;
  tags: readonly string[];
}

type Token = { text: string } | { variable: FilenameVariable };
/** A piece of one segment; `keep` marks the id, which truncation must not cut. */
interface Piece {
  text: string;
  keep: boolean;
}

const KNOWN = new Set<string>(FILENAME_VARIABLES);
const VARIABLE = /\{([^{}]*)\}/g;
const SEPARATOR = /[/\\]/;
const OUTPUT_EXTENSION = /\.(?:png|jpe?g|webp|gif|html?|md|json|pdf|mp4|webm)$/i;
// Cc: control characters; Cf: format characters (zero-width, bidi overrides, BOM…); Zl/Zp: U+2028/U+2029.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const RESERVED = /[<>:"|?*/\\]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\.|$)/i;
const EDGE_DOTS_SPACES = /^[\s.]+|[\s.]+$/gu;

/** Cuts `text` to at most `max` bytes of UTF-8, never inside a character. */
function truncateBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let out = '';
  let used = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch);
    if (used + size > max) break;
    out += ch;
    used += size;
  }
  return out;
}

/** Makes text safe inside one segment (the edge rules are applied to the whole segment later). */
function sanitise(text: string): string {
  return text.normalize('NFC').replace(LONE_SURROGATE, '_').replace(INVISIBLE, '').replace(RESERVED, '_');
}

/** The URL without its scheme, every run of characters outside `A-Za-z0-9._~-` made one `_`. */
function urlForName(url: string): string {
  return url
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/\/+$/, '')
    .replace(/[^A-Za-z0-9._~-]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

function valuesOf(vars: FilenameVars): Record<FilenameVariable, string> {
  if (Number.isNaN(vars.date.getTime())) throw new RangeError('vars.date must be a valid Date');
  const yyyy = String(vars.date.getUTCFullYear()).padStart(4, '0');
  const mm = pad2(vars.date.getUTCMonth() + 1);
  const dd = pad2(vars.date.getUTCDate());
  return {
    id: String(vars.id),
    domain: hostOf(vars.url),
    shot: vars.shot === null ? '' : String(vars.shot),
    browser: vars.browser,
    country: vars.country,
    yyyy,
    mm,
    dd,
    date: `${yyyy}-${mm}-${dd}`,
    random: randomBytes(4).toString('hex'), // 4 bytes: the 8 hex characters of the spec
    tags: vars.tags
      .map((t) => t.trim())
      .filter((t) => t !== '')
      .join('-'),
    url: urlForName(vars.url),
  };
}

function tokenize(template: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  for (const match of template.matchAll(VARIABLE)) {
    const name = match[1] as string;
    if (!KNOWN.has(name)) continue; // unknown: stays in the surrounding literal text
    if (match.index > last) tokens.push({ text: template.slice(last, match.index) });
    tokens.push({ variable: name as FilenameVariable });
    last = match.index + match[0].length;
  }
  if (last < template.length) tokens.push({ text: template.slice(last) });
  return tokens;
}

/** Splits the tokens into segments at the separators of the literal text, rendering each piece. */
function segmentsOf(tokens: readonly Token[], values: Record<FilenameVariable, string>): Piece[][] {
  const segments: Piece[][] = [[]];
  const current = (): Piece[] => segments[segments.length - 1] as Piece[];
  for (const token of tokens) {
    if ('variable' in token) {
      current().push({ text: sanitise(values[token.variable]), keep: token.variable === 'id' });
      continue;
    }
    token.text.split(SEPARATOR).forEach((part, i) => {
      if (i > 0) segments.push([]);
      if (part !== '') current().push({ text: sanitise(part), keep: false });
    });
  }
  return segments;
}

/** Joins a segment's pieces within MAX_SEGMENT_BYTES, shortening the text that is not the id. */
function fit(pieces: readonly Piece[]): string {
  const kept = pieces.reduce((n, p) => (p.keep ? n + Buffer.byteLength(p.text) : n), 0);
  if (kept > MAX_SEGMENT_BYTES) return truncateBytes(pieces.map((p) => p.text).join(''), MAX_SEGMENT_BYTES);
  let budget = MAX_SEGMENT_BYTES - kept;
  let out = '';
  for (const p of pieces) {
    if (p.keep) {
      out += p.text;
      continue;
    }
    const text = truncateBytes(p.text, budget);
    out += text;
    budget -= Buffer.byteLength(text);
  }
  return out;
}

function finishSegment(pieces: readonly Piece[]): string {
  const text = fit(pieces).replace(EDGE_DOTS_SPACES, '');
  return WINDOWS_DEVICE.test(text) ? truncateBytes(`_${text}`, MAX_SEGMENT_BYTES) : text;
}

function render(template: string, vars: FilenameVars, injectId: boolean): string {
  const values = valuesOf(vars);
  const tokens = tokenize(template.trimEnd().replace(OUTPUT_EXTENSION, ''));
  const rendered = segmentsOf(tokens, values);
  // `{domain}/` (or `x/..`) names folders only: the injected id is then the file name, not a suffix.
  const endsInFolder = finishSegment(rendered[rendered.length - 1] ?? []) === '';
  const segments = rendered.filter((s) => finishSegment(s) !== '');
  const id = sanitise(values.id);
  const hasId = tokens.some((t) => 'variable' in t && t.variable === 'id');
  const last = segments[segments.length - 1];
  if (injectId && !hasId) {
    if (last === undefined || endsInFolder) segments.push([{ text: id, keep: true }]);
    // The user's part is finished first, so its trailing dots and spaces go before `-<id>` is added.
    else
      segments[segments.length - 1] = [
        { text: finishSegment(last), keep: false },
        { text: `-${id}`, keep: true },
      ];
  }
  if (segments.length > MAX_FOLDERS + 1) {
    // Too deep (only an unvalidated template gets here): the extra levels join the file name, so nothing
    // of the name, the id in particular, is lost.
    const file = segments.slice(MAX_FOLDERS).flatMap((s, i) => (i === 0 ? s : [{ text: '_', keep: false }, ...s]));
    segments.splice(MAX_FOLDERS, segments.length, file);
  }
  const names = segments.map(finishSegment).filter((s) => s !== '');
  // Only a row filename without injection can render to nothing (`..`, `???`): the id names it then.
  return names.length > 0 ? names.join('/') : finishSegment([{ text: id, keep: true }]);
}

/**
 * The base name (no extension; `/` between folders) of one output, from the batch's template
 * (null: DEFAULT_FILENAME_TEMPLATE). `{id}` is appended when the template lacks it (see the top).
 */
export function renderFilename(template: string | null, vars: FilenameVars): string {
  return render(template ?? DEFAULT_FILENAME_TEMPLATE, vars, true);
}

/** The base name from a CSV/TSV row's `filename` cell: sanitised like a template, no `{id}` injected. */
export function renderRowFilename(filename: string, vars: FilenameVars): string {
  return render(filename, vars, false);
}

/**
 * Why a template (or a row filename) cannot be used, or null when it can: unknown variables, control
 * characters, too long, too many folder levels. Everything else is sanitised rather than refused.
 */
export function validateTemplate(template: string): string | null {
  if (template.length > MAX_TEMPLATE_LENGTH) return `must be at most ${MAX_TEMPLATE_LENGTH} characters`;
  if (/\p{Cc}/u.test(template)) return 'must not contain control characters';
  const unknown = [...template.matchAll(VARIABLE)].map((m) => m[0]).filter((v) => !KNOWN.has(v.slice(1, -1)));
  if (unknown.length > 0) {
    return `unknown variable${unknown.length > 1 ? 's' : ''} ${[...new Set(unknown)].join(', ')}; known: ${FILENAME_VARIABLES.map((v) => `{${v}}`).join(', ')}`;
  }
  const parts = template.split(SEPARATOR).map((s) => s.trim().replace(/^\.+$/, ''));
  // A template naming folders only (`{domain}/`) without `{id}` gets the id as an extra file segment.
  const idSegment = !template.includes('{id}') && parts[parts.length - 1] === '' ? 1 : 0;
  if (parts.filter((s) => s !== '').length + idSegment > MAX_FOLDERS + 1) return `may have at most ${MAX_FOLDERS} folder levels`;
  return null;
}

/**
 * Whether `name` is a name the renderer could have produced: 1 to MAX_FOLDERS + 1 non-empty segments
 * joined by `/`, each within MAX_SEGMENT_BYTES, without reserved or invisible characters, without
 * leading or trailing dots or spaces, not a Windows device name. The ZIP writer checks its input with it.
 */
export function isSafeRelativeName(name: string): boolean {
  const segments = name.split('/');
  if (segments.length > MAX_FOLDERS + 1) return false;
  return segments.every((s) => s !== '' && Buffer.byteLength(s) <= MAX_SEGMENT_BYTES && s === s.replace(EDGE_DOTS_SPACES, '') && s === sanitise(s) && !WINDOWS_DEVICE.test(s));
}
