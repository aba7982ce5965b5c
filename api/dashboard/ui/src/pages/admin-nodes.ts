import { api } from '../api.js';
import { empty, h, replaceChildren, table } from '../dom.js';
import { bytesText, dateTime } from '../format.js';
import type { PageContext } from '../page.js';
import type { z } from 'zod';
import type { BrowserActivity, Node } from '../../../../farm/farm-shapes.js';

/** A node of the farm as GET /admin/nodes answers it (rssBytes is absent from older nodes). */
type NodeStatus = z.infer<typeof Node>;
/** GET /admin/browsers (api/farm/browser-activity.ts): the window and one entry per browser. */
type FarmActivity = z.infer<typeof BrowserActivity>;

const POLL_MS = 5000;

/** `42 s`, `3 min 5 s`, `2 h 10 min`: a wait as an operator reads it. */
export function waitText(seconds: number): string {
  if (seconds <= 0) return '—';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

function browsersTable(activity: FarmActivity): HTMLElement {
  return table(
    ['Browser', 'Queued', 'Oldest waiting', `Captures / min (${activity.window_minutes} min)`, 'Error rate'],
    activity.browsers.map((b) => [
      b.browser,
      String(b.queued),
      waitText(b.oldest_wait_seconds),
      b.per_minute.toFixed(2),
      b.captures === 0 ? '—' : `${Math.round(b.error_rate * 100)}% (${b.errors} of ${b.captures})`,
    ]),
    'Queue and throughput per browser',
  );
}

/**
 * Drain asks the node to take no new job, finish those in flight and leave; Undrain withdraws that
 * while it still runs. A drained embedded agent stops the whole `shotfarm serve` process: the confirm says so.
 */
function drainButton(node: NodeStatus, done: () => Promise<void>, area: HTMLElement): HTMLButtonElement {
  const action = node.draining ? 'undrain' : 'drain';
  const label = node.draining ? 'Undrain' : 'Drain';
  const button = h('button', { type: 'button', class: node.draining ? '' : 'danger', 'aria-label': `${label} ${node.id}` }, label);
  button.addEventListener('click', () => {
    if (action === 'drain' && !confirm(`Drain ${node.id}? It takes no new job, finishes those in flight, then leaves the farm (an embedded agent stops the service).`)) return;
    button.disabled = true;
    api('/admin/nodes/' + action, { json: { id: node.id } })
      .then(async () => {
        replaceChildren(area);
        await done();
      })
      .catch((err: unknown) => {
        button.disabled = false;
        replaceChildren(area, h('p', { class: 'field-error', role: 'alert' }, `Could not ${action} ${node.id}: ${err instanceof Error ? err.message : String(err)}`));
      });
  });
  return button;
}

function nodesTable(nodes: NodeStatus[], refresh: () => Promise<void>, area: HTMLElement): HTMLElement {
  if (nodes.length === 0) return empty('No node is heartbeating: nothing can take screenshots.');
  return table(
    ['Node', 'Host', 'Browsers', 'Countries', 'Busy / slots', 'Memory', 'Jobs done', 'Failures', 'Started', 'State', ''],
    nodes.map((n) => [
      h('code', null, n.id),
      n.host,
      n.browsers.map((b) => `${b.name} ${b.version} (${b.driver})`).join(', '),
      n.countries.join(', ') || 'any',
      `${n.inFlight} / ${n.slots}`,
      bytesText(n.rssBytes),
      String(n.jobsDone),
      String(n.failures),
      dateTime(n.startedAt),
      n.draining ? 'draining' : 'accepting',
      drainButton(n, refresh, area),
    ]),
    'Live nodes of the farm',
  );
}

/** GET /admin/nodes and /admin/browsers: the farm's nodes and its queue and throughput per browser, refreshed while the page is open. */
export async function adminNodesPage(ctx: PageContext): Promise<HTMLElement> {
  const area = h('div', { 'aria-live': 'assertive' });
  const nodesBox = h('div', { 'aria-live': 'polite' });
  const browsersBox = h('div', { 'aria-live': 'polite' });
  const refresh = async (): Promise<void> => {
    const [nodes, activity] = await Promise.all([api<NodeStatus[]>('/admin/nodes'), api<FarmActivity>('/admin/browsers')]);
    if (!ctx.alive()) return;
    replaceChildren(nodesBox, nodesTable(nodes, refresh, area));
    replaceChildren(browsersBox, browsersTable(activity));
  };
  await refresh();
  ctx.every(POLL_MS, refresh);
  return h('div', null, h('h1', null, 'Nodes'), h('div', { class: 'card' }, h('h2', null, 'Browsers'), browsersBox), h('div', { class: 'card' }, h('h2', null, 'Live nodes'), area, nodesBox));
}
