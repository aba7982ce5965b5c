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
  const attempts = h('div', { 'aria-live': 'polite' });
  let batch: Batch;
  // POST /batch/retry: the failed screenshots of an ended batch are captured again.
  const retry = h('button', { type: 'button' }, 'Retry failed');
  retry.addEventListener('click', () => {
    retry.disabled = true;
    api('/batch/retry', { json: { id } })
      .then(() => refresh())
      .catch((err: unknown) => retry.after(h('span', { class: 'field-error' }, err instanceof Error ? err.message : String(err))));
  });
  const refresh = async (): Promise<void> => {
    batch = await api<Batch>('/batch/info', { query: { id } });
    if (!ctx.alive()) return;
    replaceChildren(summary, table(['ID', 'Status', 'Progress', 'Failed', 'Started', 'Result', ''], [batchRow(batch, () => void refresh())]));
    retry.hidden = batch.status === 'processing' || batch.failed === 0;
    retry.disabled = false;
    const tries = batch.attempts ?? [];
    replaceChildren(
      attempts,
      tries.length < 2
        ? null
        : table(
            ['Attempt', 'Screenshots', 'Finished', 'Failed'],
            tries.map((a) => [String(a.attempt), String(a.count), String(a.processed), String(a.failed)]),
          ),
    );
    const ids = batch.screenshots ?? [];
    replaceChildren(
      shots,
      ids.length === 0
        ? empty('No screenshots yet.')
        : h(
            'ul',
            { class: 'id-list' },
            ids.map((sid) => h('li', null, h('a', { href: `#/screenshots/${sid}` }, `Screenshot ${sid}`))),
          ),
    );
  };
  await refresh();
  ctx.every(POLL_MS, async () => {
    if (batch.status === 'processing') await refresh();
  });
  return h(
    'div',
    null,
    h('p', null, h('a', { href: '#/batches' }, '← Batches')),
    h('h1', null, `Batch ${id}${batch!.name ? `: ${batch!.name}` : ''}`),
    summary,
    h('p', null, retry),
    attempts,
    section('Screenshots', shots),
  );
}
