// How values of the API are shown.
import { h } from './dom.js';

export function dateTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '' || value === 0) return '—';
  // Batch and crawl times are Unix seconds; records carry ISO strings.
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
}

export const count = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : n.toLocaleString());

/**
 * A size in bytes as people read it, in binary units like `free` and `top` (1 MB = 1024² bytes), in MB
 * below 1 GB and in GB with one decimal above: `536 MB`, `1.4 GB`. Unknown (null: unreadable) is `—`.
 */
export function bytesText(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  const mb = bytes / 1024 / 1024;
  return mb < 1024 ? `${Math.round(mb)} MB` : `${(mb / 1024).toFixed(1)} GB`;
}

/** A status as a badge; the colour follows the word, the word is always there. */
export function statusBadge(status: string): HTMLElement {
  return h('span', { class: `badge badge-${status.replace(/[^a-z_]/g, '')}` }, status);
}

/** A field value of a record as text: objects and arrays as JSON. */
export function fieldText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A progress bar with its numbers, for batches and crawls. */
export function progress(done: number, total: number, label: string): HTMLElement {
  const max = Math.max(total, done, 1);
  return h('span', { class: 'progress-cell' }, h('progress', { max, value: done, 'aria-label': label }), ` ${done} / ${total}`);
}
