import { api } from '../api.js';
import { empty, h, replaceChildren, table } from '../dom.js';
import { dateTime } from '../format.js';
import type { PageContext } from '../page.js';

interface NodeStatus {
  id: string; host: string; browsers: { name: string; version: string; driver: string }[]; countries: string[];
  slots: number; inFlight: number; jobsDone: number; failures: number; startedAt: string; draining: boolean;
}

const POLL_MS = 5000;

function nodesTable(nodes: NodeStatus[]): HTMLElement {
  if (nodes.length === 0) return empty('No node is heartbeating: nothing can take screenshots.');
  return table(['Node', 'Host', 'Browsers', 'Countries', 'Busy / slots', 'Jobs done', 'Failures', 'Started', 'State'], nodes.map((n) => [
    h('code', null, n.id), n.host, n.browsers.map((b) => `${b.name} ${b.version} (${b.driver})`).join(', '), n.countries.join(', ') || 'any',
    `${n.inFlight} / ${n.slots}`, String(n.jobsDone), String(n.failures), dateTime(n.startedAt), n.draining ? 'draining' : 'accepting',
  ]), 'Live nodes of the farm');
}

/** GET /admin/nodes: the live nodes of the farm, refreshed while the page is open. */
export async function adminNodesPage(ctx: PageContext): Promise<HTMLElement> {
  const box = h('div', { 'aria-live': 'polite' }, nodesTable(await api<NodeStatus[]>('/admin/nodes')));
  ctx.every(POLL_MS, async () => {
    const nodes = await api<NodeStatus[]>('/admin/nodes');
    if (ctx.alive()) replaceChildren(box, nodesTable(nodes));
  });
  return h('div', null, h('h1', null, 'Nodes'), h('div', { class: 'card' }, box));
}
