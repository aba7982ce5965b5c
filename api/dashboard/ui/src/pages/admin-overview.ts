import { api } from '../api.js';
import { empty, h, stat, table } from '../dom.js';
import { count } from '../format.js';
import { section } from '../forms.js';
import type { z } from 'zod';
import type { AdminOverview as AdminOverviewShape } from '../../../../admin/admin-shapes.js';

/** The answer of GET /admin/overview. */
type AdminOverview = z.infer<typeof AdminOverviewShape>;

/** GET /admin/overview: totals across every account, the last 24 hours, the top users. */
export async function adminOverviewPage(): Promise<HTMLElement> {
  const o = await api<AdminOverview>('/admin/overview');
  return h(
    'div',
    null,
    h('h1', null, 'Admin overview'),
    h(
      'div',
      { class: 'stats' },
      stat('Users', count(o.totals.users)),
      stat('Accounts', count(o.totals.companies)),
      stat('Screenshots', count(o.totals.screenshots)),
      stat('Batches', count(o.totals.batches)),
      stat('Active clients', count(o.totals.active_clients)),
      stat('Screenshots, last 24 h', count(o.screenshots.last_24h), `${count(o.screenshots.failed_24h)} failed`),
    ),
    section(
      'Top users (30 days)',
      o.top_users.length === 0
        ? empty('Nobody has taken screenshots yet.')
        : table(
            ['User', 'Email', 'Account', 'Screenshots'],
            o.top_users.map((u) => [String(u.user_id), u.email, u.company_name, count(u.screenshots)]),
          ),
    ),
  );
}
