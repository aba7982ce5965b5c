import { api } from '../api.js';
import { empty, h, replaceChildren, table } from '../dom.js';
import { dateTime, statusBadge } from '../format.js';
import { field, input, messageArea, onSubmit, section, submitButton } from '../forms.js';
import { flash } from '../layout.js';
import type { PageContext } from '../page.js';
import type { Monitor } from '../records.js';
import { navigate } from '../router.js';

/** "every 10 min" or the cron expression: how a monitor's schedule reads in a table. */
export const scheduleText = (m: Monitor): string => (m.cron ? `cron ${m.cron} (UTC)` : m.interval % 60 === 0 ? `every ${m.interval / 60} min` : `every ${m.interval} s`);

export function monitorRow(m: Monitor): HTMLElement[] {
  return [
    h('a', { href: `#/monitors/${m.id}` }, String(m.id)),
    h('span', { class: 'url' }, m.name ? `${m.name}: ${m.url}` : m.url),
    statusBadge(m.status),
    scheduleText(m),
    `${m.threshold} %`,
    m.last_run_at ? dateTime(m.last_run_at) : '—',
    m.next_run_at ? dateTime(m.next_run_at) : '—',
  ].map((cell) => h('span', null, cell));
}

export const MONITOR_HEADERS = ['ID', 'Page', 'Status', 'Schedule', 'Threshold', 'Last run', 'Next run'];

/** POST /monitor/create and GET /monitor/list. */
export async function monitorsPage(ctx: PageContext): Promise<HTMLElement> {
  const url = input('url', { type: 'url', required: true, placeholder: 'https://example.com/pricing' });
  const name = input('name', { placeholder: 'Pricing page' });
  const minutes = input('interval', { type: 'number', min: 5, value: '60', required: true });
  const threshold = input('threshold', { type: 'number', min: 0, max: 100, step: '0.1', value: '1' });
  const ignore = input('ignore', { placeholder: '.clock, #ad-banner' });
  const area = messageArea();
  const form = h(
    'form',
    { novalidate: true, 'aria-label': 'New monitor' },
    h('div', { class: 'row' }, field('Page URL', url), field('Name (optional)', name)),
    h(
      'div',
      { class: 'row' },
      field('Every (minutes)', minutes, 'At least 5.'),
      field('Threshold (% of pixels)', threshold, 'A run that changed more pixels than this notifies.'),
      field('Ignore (CSS selectors)', ignore, 'Comma-separated; these elements are left out of every comparison.'),
    ),
    area,
    submitButton('Start monitoring'),
  );
  onSubmit(form, area, async () => {
    const selectors = ignore.value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const monitor = await api<Monitor>('/monitor/create', {
      json: { url: url.value.trim(), name: name.value.trim() || undefined, interval: Math.round(Number(minutes.value) * 60), threshold: Number(threshold.value), ignore: selectors },
    });
    flash(`Monitor ${monitor.id} of ${monitor.url} started.`);
    navigate(`#/monitors/${monitor.id}`);
  });

  const list = h('div', { 'aria-live': 'polite' });
  const monitors = await api<Monitor[]>('/monitor/list', { query: { limit: 100 } });
  if (ctx.alive()) replaceChildren(list, monitors.length === 0 ? empty('No monitors yet.') : table(MONITOR_HEADERS, monitors.map(monitorRow)));
  return h('div', null, h('h1', null, 'Monitors'), section('New monitor', form), section('Monitors', list));
}
