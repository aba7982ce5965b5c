import { api } from '../api.js';
import { empty, h, replaceChildren, table } from '../dom.js';
import { section } from '../forms.js';
import type { PageContext } from '../page.js';
import type { Batch } from '../records.js';
import { batchRow } from './batches.js';

const POLL_MS = 2000;

/** GET /batch/info: the batch's progress and links to each of its screenshots. */
export async function batchDetailPage(ctx: PageContext): Promise<HTMLElement> {
  const id = Number(ctx.params.id);
  const summary = h('div', { class: 'card', 'aria-live': 'polite' });
  const shots = h('div');
  let batch: Batch;
  const refresh = async (): Promise<void> => {
    batch = await api<Batch>('/batch/info', { query: { id } });
    if (!ctx.alive()) return;
    replaceChildren(summary, table(['ID', 'Status', 'Progress', 'Failed', 'Started', 'Result', ''], [batchRow(batch, () => void refresh())]));
    const ids = batch.screenshots ?? [];
    replaceChildren(shots, ids.length === 0 ? empty('No screenshots yet.') : h('ul', { class: 'id-list' }, ids.map((sid) => h('li', null, h('a', { href: `#/screenshots/${sid}` }, `Screenshot ${sid}`)))));
  };
  await refresh();
  ctx.every(POLL_MS, async () => {
    if (batch.status === 'processing') await refresh();
  });
  return h('div', null,
    h('p', null, h('a', { href: '#/batches' }, '← Batches')),
    h('h1', null, `Batch ${id}${batch!.name ? `: ${batch!.name}` : ''}`),
    summary, section('Screenshots', shots));
}
