import { api } from '../api.js';
import { empty, h, table } from '../dom.js';
import { dateTime } from '../format.js';
import { field, input, messageArea, onSubmit, section, submitButton } from '../forms.js';
import { flash } from '../layout.js';
import { navigate } from '../router.js';
import type { z } from 'zod';
import type { ApiKey, NewApiKey } from '../../../../accounts/account-shapes.js';

/** An API key as GET /key/list answers it (never the secret). */
type ApiKeyInfo = z.infer<typeof ApiKey>;

/** GET /key/list, POST /key/create (the secret is shown once) and POST /key/delete. */
export async function keysPage(): Promise<HTMLElement> {
  const keys = await api<ApiKeyInfo[]>('/key/list');
  const name = input('name', { placeholder: 'CI pipeline' });
  const area = messageArea();
  const form = h('form', { novalidate: true, 'aria-label': 'New API key' }, h('div', { class: 'row' }, field('Key name', name)), area, submitButton('Create key'));
  onSubmit(form, area, async () => {
    const created = await api<z.infer<typeof NewApiKey>>('/key/create', { json: name.value.trim() ? { name: name.value.trim() } : {} });
    flash(`Key ${created.name ?? created.prefix} created. This is the only time it is shown: copy it now.`, created.key);
    navigate('#/keys');
  });
  const rows = keys.map((k) => {
    const remove = h('button', { type: 'button', class: 'danger', disabled: k.current }, 'Delete');
    remove.addEventListener('click', () => {
      if (!confirm(`Delete key ${k.name ?? k.prefix}? Clients using it stop working at once.`)) return;
      api('/key/delete', { query: { id: k.id }, json: {} })
        .then(() => navigate('#/keys'))
        .catch((err: unknown) => remove.after(h('span', { class: 'field-error' }, String(err instanceof Error ? err.message : err))));
    });
    return [k.name ?? '—', h('code', null, `${k.prefix}…`), dateTime(k.created_at), dateTime(k.last_used_at), remove];
  });
  return h(
    'div',
    null,
    h('h1', null, 'API keys'),
    section('Keys', keys.length === 0 ? empty('No keys: create one to call the API.') : table(['Name', 'Key', 'Created', 'Last used', ''], rows)),
    section('New key', form),
  );
}
