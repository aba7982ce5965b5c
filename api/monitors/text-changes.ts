import type { TextChanges } from './monitor-record.js';

/** Lines listed per side: the counts say how many more there were. */
const MAX_LISTED = 50;
/** A line longer than this is cut: a change is recognised by its start. */
const MAX_LINE = 300;

/** The visible text of an HTML document, one trimmed line per block of text (scripts, styles and tags left out). */
export function visibleLines(html: string): string[] {
  const text = html
    .replace(/<(script|style|noscript|template)\b[^]*?<\/\1\s*>/gi, '\n')
    .replace(/<!--[^]*?-->/g, '\n')
    .replace(/<(br|p|div|li|tr|h[1-6]|section|article|header|footer|nav|td|th|dt|dd|pre|blockquote)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  return text
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l !== '')
    .map((l) => l.slice(0, MAX_LINE));
}

/** Lines of text the new document has that the old one did not, and the other way round (as multisets). */
export function textChanges(beforeHtml: string, afterHtml: string): TextChanges {
  const count = (lines: string[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const l of lines) m.set(l, (m.get(l) ?? 0) + 1);
    return m;
  };
  const before = visibleLines(beforeHtml);
  const after = visibleLines(afterHtml);
  const only = (lines: string[], other: Map<string, number>): string[] => {
    const left = new Map(other);
    return lines.filter((l) => {
      const n = left.get(l) ?? 0;
      if (n > 0) left.set(l, n - 1);
      return n === 0;
    });
  };
  const added = only(after, count(before));
  const removed = only(before, count(after));
  return { added: added.slice(0, MAX_LISTED), removed: removed.slice(0, MAX_LISTED), added_count: added.length, removed_count: removed.length };
}
