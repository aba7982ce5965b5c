import { api } from '../api.js';
import { empty, h, replaceChildren, table } from '../dom.js';
import { dateTime } from '../format.js';
import { field, input, messageArea, onSubmit, section, select, submitButton } from '../forms.js';
import { flash } from '../layout.js';
import type { PageContext } from '../page.js';
import { navigate } from '../router.js';
import { schemaFields } from '../schema-form.js';
import type { z } from 'zod';
import type { AppConfig as AppConfigShape, AppType as AppTypeShape } from '../../../../apps/app-shapes.js';

type AppType = z.infer<typeof AppTypeShape>;
type AppConfig = z.infer<typeof AppConfigShape>;

/** The form of one app configuration: new (type chosen here) or an existing one (?edit=ID). */
function appForm(types: AppType[], existing: AppConfig | null): HTMLElement {
  const typeSelect = select(
    'type',
    types.map((t): [string, string] => [t.type, t.name]),
    existing?.type ?? types[0]?.type ?? '',
  );
  typeSelect.disabled = existing !== null;
  const appId = input('app_id', { required: true, value: existing?.app_id ?? '', placeholder: 'my-webhook' });
  const name = input('name', { required: true, value: existing?.name ?? '' });
  const settingsBox = h('fieldset', { class: 'settings' });
  const description = h('p', { class: 'hint' });
  let settings = schemaFields({});
  const showSettings = (): void => {
    const type = types.find((t) => t.type === typeSelect.value);
    description.textContent = type?.description ?? '';
    settings = schemaFields(type?.settings_schema ?? {}, existing?.settings ?? {}, existing !== null);
    replaceChildren(settingsBox, h('legend', null, 'Settings'), settings.elements);
  };
  typeSelect.addEventListener('change', showSettings);
  showSettings();
  const area = messageArea();
  const form = h(
    'form',
    { novalidate: true, 'aria-label': existing ? `Edit app ${existing.app_id}` : 'New app' },
    h('div', { class: 'row' }, field('Type', typeSelect), field('App ID', appId, 'What screenshot create calls name in `apps`.'), field('Name', name)),
    description,
    settingsBox,
    area,
    submitButton(existing ? 'Save app' : 'Add app'),
    existing ? h('a', { href: '#/apps', class: 'button' }, 'Cancel') : null,
  );
  onSubmit(form, area, async () => {
    const body = { app_id: appId.value.trim(), type: typeSelect.value, name: name.value.trim(), settings: settings.read() };
    if (existing) await api('/app/update', { query: { id: existing.id }, json: body });
    else await api('/app/create', { json: body });
    flash(`App ${body.app_id} saved.`);
    navigate('#/apps');
  });
  return form;
}

/** GET /app/types and /app/list; POST /app/create|update|delete, settings forms from each plugin's schema. */
export async function appsPage(ctx: PageContext): Promise<HTMLElement> {
  const [types, configs] = await Promise.all([api<AppType[]>('/app/types'), api<AppConfig[]>('/app/list', { query: { limit: 100 } })]);
  const editId = Number(ctx.query.get('edit') ?? 0);
  const editing = configs.find((c) => c.id === editId) ?? null;

  const rows = configs.map((c) => {
    const remove = h('button', { type: 'button', class: 'danger' }, 'Delete');
    remove.addEventListener('click', () => {
      if (!confirm(`Delete app ${c.app_id}?`)) return;
      api('/app/delete', { query: { id: c.id }, json: {} })
        .then(() => navigate('#/apps'))
        .catch((err: unknown) => remove.after(h('span', { class: 'field-error' }, String(err instanceof Error ? err.message : err))));
    });
    return [
      h('code', null, c.app_id),
      c.name,
      types.find((t) => t.type === c.type)?.name ?? c.type,
      dateTime(c.created_at),
      h('span', { class: 'actions' }, h('a', { href: `#/apps?edit=${c.id}`, class: 'button' }, 'Edit'), remove),
    ];
  });

  return h(
    'div',
    null,
    h('h1', null, 'Apps'),
    h('p', { class: 'subtitle' }, 'Apps run after a screenshot finishes: uploads to storage, webhooks, chat messages.'),
    section('Your apps', configs.length === 0 ? empty('No apps configured yet.') : table(['App ID', 'Name', 'Type', 'Created', ''], rows)),
    types.length === 0 ? section('New app', empty('No app plugins are installed.')) : section(editing ? `Edit ${editing.app_id}` : 'New app', appForm(types, editing)),
  );
}
