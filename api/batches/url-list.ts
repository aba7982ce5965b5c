import { normaliseTargetUrl } from '../options/target-url.js';

/**
 * The URL list of a batch (the `file` of POST /batch/create), in one of two formats:
 *  - plain: one URL per line;
 *  - CSV or TSV: recognised by its first row naming a `url` column (case-insensitive). The delimiter is a
 *    tab when that row holds one, a comma otherwise. An optional `filename` column names that row's files
 *    instead of the batch's filename_template (the template module sanitises it later).
 * In both, blank lines and lines whose first non-space character is `#` are skipped, a UTF-8 BOM is ignored
 * and CRLF, LF and lone CR line ends all work. A bad line never fails the list: it is reported in `invalid`
 * with its line number, and the caller decides what to answer.
 */

export interface UrlListEntry {
  /** The normalised URL (normaliseTargetUrl). */
  url: string;
  /** The row's `filename` column, trimmed; null when there is no such column or the cell is empty. */
  filename: string | null;
  /** 1-based line of the file where the row starts. */
  line: number;
}

export interface UrlListProblem {
  line: number;
  /** The line as written (cut to MAX_ECHO_CHARS), so the user can find it. */
  text: string;
  error: string;
}

export interface ParsedUrlList {
  /** Unique URLs in file order; for a URL given twice, the first occurrence (and its filename). */
  entries: UrlListEntry[];
  invalid: UrlListProblem[];
  /** Unique URLs: the spec's Batch.count. */
  count: number;
}

/**
 * How much of a bad line is echoed back. A garbage line can be megabytes long; the answer must stay small,
 * and 200 characters are enough to recognise a line next to its line number.
 */
export const MAX_ECHO_CHARS = 200;

type Delimiter = ',' | '\t';

/** A record read from the file, or the reason the record starting at that line could not be read. */
type RecordResult = { ok: true; fields: string[]; nextLine: number } | { ok: false; error: string; nextLine: number };

const BOM = '\uFEFF';

const isSkipped = (line: string): boolean => {
  const t = line.trim();
  return t === '' || t.startsWith('#');
};

/**
 * Control characters are shown as U+FFFD: the echo is stored as JSON, and Postgres refuses NUL (\u0000)
 * in jsonb and text, so a NUL in a bad line must not turn a 400-worthy file into a failure.
 */
const visible = (text: string): string => text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '\uFFFD');
const echo = (line: string): string => visible(line.length > MAX_ECHO_CHARS ? `${line.slice(0, MAX_ECHO_CHARS)}…` : line);

/**
 * Reads the CSV/TSV record that starts at `lines[start]`, RFC 4180 style: a field opened with `"` runs to
 * the next lone `"`, may hold the delimiter and line breaks, and `""` inside it is one quote. Lenient where
 * RFC 4180 says "invalid", because lists are hand-made or spreadsheet exports and refusing would only lose
 * rows: a `"` inside an unquoted field is kept, text after a closing quote is appended to the field, and
 * TSV is unquoted the same way (spreadsheets quote TSV cells too). A quote still open at the end of the
 * text makes only the record's first line unreadable, so one stray quote cannot swallow every later row.
 */
function readRecord(lines: readonly string[], start: number, delimiter: Delimiter): RecordResult {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  let lineIndex = start;
  let text = lines[start] ?? '';
  let i = 0;
  for (;;) {
    if (i >= text.length) {
      if (!quoted) break;
      lineIndex += 1;
      if (lineIndex >= lines.length) return { ok: false, error: 'a quoted field is never closed', nextLine: start + 1 };
      field += '\n'; // the line break is part of the quoted field
      text = lines[lineIndex] ?? '';
      i = 0;
      continue;
    }
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === delimiter) {
      fields.push(field);
      field = '';
    } else if (ch === '"' && field.trim() === '') {
      field = ''; // an opening quote, possibly after spaces (which are dropped)
      quoted = true;
    } else {
      field += ch;
    }
    i += 1;
  }
  fields.push(field);
  return { ok: true, fields, nextLine: lineIndex + 1 };
}

/** The columns of a header row, or null when the line is not one (it names no `url` column). */
function readHeader(line: string): { delimiter: Delimiter; url: number; filename: number | null } | null {
  const delimiter: Delimiter = line.includes('\t') ? '\t' : ',';
  const record = readRecord([line], 0, delimiter);
  if (!record.ok) return null;
  const names = record.fields.map((f) => f.trim().toLowerCase());
  const url = names.indexOf('url');
  if (url < 0) return null;
  const filename = names.indexOf('filename');
  return { delimiter, url, filename: filename < 0 ? null : filename };
}

/** Accepts URLs into the list: normalises, drops duplicates, enforces the limit. */
class Collector {
  readonly entries: UrlListEntry[] = [];
  readonly invalid: UrlListProblem[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly maxUrls: number) {}

  add(raw: string, filename: string | null, line: number, text: string): void {
    const normalised = normaliseTargetUrl(raw);
    if (!normalised.ok) {
      this.problem(line, text, `url ${normalised.message}`);
      return;
    }
    if (this.seen.has(normalised.url)) return; // a duplicate: the first occurrence already holds the URL
    if (this.entries.length >= this.maxUrls) {
      this.problem(line, text, `more than ${this.maxUrls} unique URLs: a batch holds at most ${this.maxUrls}`);
      return;
    }
    this.seen.add(normalised.url);
    // The filename is stored (as JSON) until the ZIP is built; its control characters go now (see visible).
    this.entries.push({ url: normalised.url, filename: filename === null ? null : visible(filename), line });
  }

  problem(line: number, text: string, error: string): void {
    this.invalid.push({ line, text: echo(text), error });
  }
}

/** Parses a batch's URL list; see the top of this file for the formats. */
export function parseUrlList(text: string, opts: { maxUrls: number }): ParsedUrlList {
  if (!Number.isSafeInteger(opts.maxUrls) || opts.maxUrls < 1) throw new RangeError(`maxUrls must be a whole number ≥ 1, got ${opts.maxUrls}`);
  const lines = (text.startsWith(BOM) ? text.slice(BOM.length) : text).split(/\r\n|\n|\r/);
  const out = new Collector(opts.maxUrls);

  const first = lines.findIndex((l) => !isSkipped(l));
  const header = first < 0 ? null : readHeader(lines[first] as string);

  if (header === null) {
    lines.forEach((line, i) => {
      if (!isSkipped(line)) out.add(line.trim(), null, i + 1, line);
    });
  } else {
    for (let i = first + 1; i < lines.length;) {
      const line = lines[i] as string;
      if (isSkipped(line)) {
        i += 1;
        continue;
      }
      const record = readRecord(lines, i, header.delimiter);
      if (!record.ok) out.problem(i + 1, line, record.error);
      else {
        const cells = record.fields.map((f) => f.trim());
        const url = cells[header.url] ?? '';
        const filename = header.filename === null ? '' : (cells[header.filename] ?? '');
        // `,,` (a spreadsheet's empty row) is a blank line too.
        if (cells.some((c) => c !== '')) {
          if (url === '') out.problem(i + 1, line, 'the url column is empty or missing');
          else out.add(url, filename === '' ? null : filename, i + 1, line);
        }
      }
      i = record.nextLine;
    }
  }
  return { entries: out.entries, invalid: out.invalid, count: out.entries.length };
}
