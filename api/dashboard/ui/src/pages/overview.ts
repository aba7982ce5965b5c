import { api } from '../api.js';
import { h, stat, table } from '../dom.js';
import { count, dateTime, statusBadge } from '../format.js';
import { section } from '../forms.js';
import type { z } from 'zod';
import type { DashboardOverview } from '../../../../accounts/account-shapes.js';

/** The answer of GET /dashboard/overview. */
type Overview = z.infer<typeof DashboardOverview>;

/** GET /dashboard/overview: balance, this month's usage, the counts by status, the latest screenshots. */
export async function overviewPage(): Promise<HTMLElement> {
  const o = await api<Overview>('/dashboard/overview');
  const plan = o.billing;
  return h(
    'div',
    null,
    h('h1', null, 'Overview'),
    h('p', { class: 'subtitle' }, o.account.company_name),
    h(
      'div',
      { class: 'stats' },
      stat('Balance', `${count(o.account.balance)} credits`),
      stat(
        'Screenshots this month',
        count(o.usage.screenshots_this_month),
        plan ? `${count(plan.usage.remaining)} of ${count(plan.usage.monthly_limit)} left in ${plan.plan.name}` : 'no plan: pay as you go',
      ),
      stat('Processing', count(o.usage.processing)),
      stat('Finished', count(o.usage.finished)),
      stat('Error', count(o.usage.error)),
      stat('Batches', count(o.batches.total), `${o.batches.processing} processing, ${o.batches.finished} finished, ${o.batches.error} error`),
    ),
    section(
      'Latest screenshots',
      o.recent_screenshots.length === 0
        ? h('p', { class: 'empty' }, 'No screenshots yet. ', h('a', { href: '#/create' }, 'Take the first one'), '.')
        : table(
            ['ID', 'URL', 'Status', 'Cost', 'Created'],
            o.recent_screenshots.map((s) => [
              h('a', { href: `#/screenshots/${s.id}` }, String(s.id)),
              h('span', { class: 'url' }, s.url),
              statusBadge(s.status),
              String(s.cost),
              dateTime(s.created_at),
            ]),
          ),
      o.recent_screenshots.length > 0 ? h('p', null, h('a', { href: '#/screenshots' }, 'All screenshots')) : null,
    ),
  );
}
