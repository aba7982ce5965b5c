import { api, createdRecords } from '../api.js';
import { empty, h, replaceChildren, table } from '../dom.js';
import { dateTime, progress, statusBadge } from '../format.js';
import { deviceInput, optionFieldsets, type Device } from '../create-form-fields.js';
import { createParameters } from '../create-parameters.js';
import { field, input, messageArea, onSubmit, section, submitButton } from '../forms.js';
import { flash } from '../layout.js';
import type { PageContext } from '../page.js';
import type { Batch } from '../records.js';
import { navigate } from '../router.js';

const POLL_MS = 2000;

/** One row: progress while it runs, the ZIP (its signed zip_url needs no key) when done, cancel. */
export function batchRow(b: Batch, onChange: () => void): HTMLElement[] {
  const cancel = b.status === 'processing' ? h('button', { type: 'button', class: 'danger' }, 'Cancel') : null;
  cancel?.addEventListener('click', () => {
    cancel.disabled = true;
    api('/batch/cancel', { json: { id: b.id } })
      .then(onChange)
      .catch((err: unknown) => cancel.after(h('span', { class: 'field-error' }, String(err instanceof Error ? err.message : err))));
  });
  return [
    h('a', { href: `#/batches/${b.id}` }, String(b.id)),
    statusBadge(b.status),
    progress(b.processed + b.failed, b.count, `Batch ${b.id} progress`),
    b.failed > 0 ? `${b.failed} failed` : '',
    dateTime(b.started),
    b.status === 'finished' && b.zip_url ? h('a', { href: b.zip_url, download: `batch-${b.id}.zip` }, 'Download ZIP') : b.error || '',
    cancel,
  ].map((c) => h('span', null, c));
}

/** POST /batch/create (multipart: the URL file and options) and GET /batch/list with live progress. */
export async function batchesPage(ctx: PageContext): Promise<HTMLElement> {
  const file = input('file', { type: 'file', accept: '.txt,.csv,.tsv,text/plain,text/csv', required: true });
  const name = input('name');
  const thumbWidth = input('thumbnail_width', { type: 'number', min: 1 });
  // The screenshot options a batch applies to each URL: the create form's inputs, from the same document.
  // The list comes from the file; `apps` is a field of the batch's own (its apps run after each screenshot).
  const [parameters, devices] = await Promise.all([createParameters(), api<Device[]>('/device/list')]);
  const { inputs, sections } = optionFieldsets(parameters, { url: null, apps: null, device_name: deviceInput(devices) });
  const area = messageArea();
  const form = h(
    'form',
    { class: 'batch-form', novalidate: true, 'aria-label': 'New batch' },
    h('div', { class: 'row' }, field('URL list file', file, 'A text file with one URL per line (or a CSV with a url column).'), field('Batch name', name)),
    h('div', { class: 'row' }, field('Thumbnail width in the ZIP', thumbWidth, 'Empty keeps the original images.')),
    sections,
    area,
    submitButton('Start batch'),
  );
  onSubmit(form, area, async () => {
    const chosen = file.files?.[0];
    if (!chosen) throw new Error('Choose a file with the URLs first.');
    const body = new FormData();
    body.append('file', chosen);
    for (const control of [name, thumbWidth]) if (control.value.trim()) body.append(control.name, control.value.trim());
    // Only the options set are sent; a list is one part per item, as a repeated query parameter is.
    for (const i of inputs) {
      const value = i.value();
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) body.append(i.name, String(item));
    }
    const [created] = createdRecords(await api<Batch[] | Batch>('/batch/create', { form: body }));
    flash(`Batch ${created?.id ?? ''} started with ${created?.count ?? 0} URLs.`);
    navigate('#/batches');
  });

  const list = h('div', { 'aria-live': 'polite' });
  let batches: Batch[] = [];
  const refresh = async (): Promise<void> => {
    batches = await api<Batch[]>('/batch/list', { query: { limit: 50 } });
    if (!ctx.alive()) return;
    replaceChildren(
      list,
      batches.length === 0
        ? empty('No batches yet.')
        : table(
            ['ID', 'Status', 'Progress', 'Failed', 'Started', 'Result', ''],
            batches.map((b) => batchRow(b, () => void refresh())),
          ),
    );
  };
  await refresh();
  ctx.every(POLL_MS, async () => {
    if (batches.some((b) => b.status === 'processing')) await refresh();
  });
  return h('div', null, h('h1', null, 'Batches'), section('New batch', form), section('Batches', list));
}
