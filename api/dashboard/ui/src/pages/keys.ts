import { api } from '../api.js';
import { empty, h, table } from '../dom.js';
import { dateTime } from '../format.js';
import { field, input, messageArea, onSubmit, section, submitButton } from '../forms.js';
import { flash } from '../layout.js';
import { navigate } from '../router.js';
import type { z } from 'zod';
import type { ApiKey, NewApiKey, RotatedSigningSecret } from '../../../../accounts/account-shapes.js';

/** An API key as GET /key/list answers it (never the secret). */
type ApiKeyInfo = z.infer<typeof ApiKey>;

/**
 * GET /key/list, POST /key/create (the key and its signing secret are shown once), POST /key/delete, and
 * POST /key/rotate-signing-secret (the new signing secret is shown once; the previous one signs through its grace).
 */
export async function keysPage(): Promise<HTMLElement> {
  const keys = await api<ApiKeyInfo[]>('/key/list');
  const name = input('name', { placeholder: 'CI pipeline' });
  const area = messageArea();
  const form = h('form', { novalidate: true, 'aria-label': 'New API key' }, h('div', { class: 'row' }, field('Key name', name)), area, submitButton('Create key'));
  onSubmit(form, area, async () => {
    const created = await api<z.infer<typeof NewApiKey>>('/key/create', { json: name.value.trim() ? { name: name.value.trim() } : {} });
    flash(
      `Key ${created.name ?? created.prefix} created, with its signing secret for render links (access ${created.access}). This is the only time they are shown: copy them now.`,
      created.key,
      created.signing_secret,
    );
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
    const rotate = h('button', { type: 'button' }, k.signing_secret_set ? 'Rotate signing secret' : 'Make signing secret');
    rotate.addEventListener('click', () => {
      api<z.infer<typeof RotatedSigningSecret>>('/key/rotate-signing-secret', { json: { id: k.id } })
        .then((r) => {
          const grace = r.previous_secret_valid_until ? ` The previous one keeps signing until ${dateTime(r.previous_secret_valid_until)}.` : '';
          flash(`New signing secret of key ${k.name ?? k.prefix} (access ${r.access}). This is the only time it is shown: copy it now.${grace}`, r.signing_secret);
          navigate('#/keys');
        })
        .catch((err: unknown) => rotate.after(h('span', { class: 'field-error' }, String(err instanceof Error ? err.message : err))));
    });
    return [k.name ?? '—', h('code', null, `${k.prefix}…`), h('code', null, k.access), dateTime(k.created_at), dateTime(k.last_used_at), h('span', { class: 'row' }, rotate, remove)];
  });
  return h(
    'div',
    null,
    h('h1', null, 'API keys'),
    section('Keys', keys.length === 0 ? empty('No keys: create one to call the API.') : table(['Name', 'Key', 'Access (signed links)', 'Created', 'Last used', ''], rows)),
    section('New key', form),
  );
}
