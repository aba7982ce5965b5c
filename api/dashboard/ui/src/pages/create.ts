import { api, createdRecords, type Query } from '../api.js';
import { deviceInput, optionFieldsets, type Device, type OptionInput } from '../create-form-fields.js';
import { createParameters } from '../create-parameters.js';
import { h } from '../dom.js';
import { checkbox, field, messageArea, onSubmit, section, submitButton } from '../forms.js';
import { flash } from '../layout.js';
import type { Screenshot } from '../records.js';
import { navigate } from '../router.js';
import type { z } from 'zod';
import type { AppConfig as AppConfigShape } from '../../../../apps/app-shapes.js';

/** One of the account's app configurations (GET /app/list). */
type AppConfig = z.infer<typeof AppConfigShape>;

/**
 * The create form: every create option, as the service's OpenAPI document states it (the option table
 * is their one owner). Three take their values from elsewhere: the URLs (one per line), the device (from
 * the catalogue) and the apps (the account's); GET /screenshot/create, then the list where the result appears.
 */
export async function createPage(): Promise<HTMLElement> {
  const [parameters, devices, apps] = await Promise.all([createParameters(), api<Device[]>('/device/list'), api<AppConfig[]>('/app/list', { query: { limit: 100 } })]);

  const urls = h('textarea', { name: 'url', rows: 3, required: true, placeholder: 'https://example.com' });
  const appBoxes = apps.map((a) => Object.assign(checkbox('apps'), { value: a.app_id }));
  const special: Record<string, OptionInput | null> = {
    url: null,
    device_name: deviceInput(devices),
    apps:
      apps.length > 0
        ? {
            name: 'apps',
            element: h(
              'fieldset',
              { class: 'field', 'data-field': 'apps' },
              h('legend', null, 'Apps'),
              h(
                'div',
                { class: 'row checks' },
                apps.map((a, i) => field(`${a.name} (${a.type})`, appBoxes[i] as HTMLInputElement)),
              ),
            ),
            value: () => appBoxes.filter((b) => b.checked).map((b) => b.value),
          }
        : null,
  };
  const { inputs, sections } = optionFieldsets(parameters, special);
  const area = messageArea();

  const form = h(
    'form',
    { class: 'create-form', novalidate: true, 'aria-label': 'New screenshot' },
    section('Page', field('URLs', urls, 'One URL per line: one screenshot each.')),
    sections,
    area,
    submitButton('Take screenshot'),
  );

  onSubmit(form, area, async () => {
    const query: Query = {
      url: urls.value
        .split('\n')
        .map((u) => u.trim())
        .filter(Boolean),
    };
    // Only the options set are sent: the service's defaults stand for the rest.
    for (const i of inputs) {
      const value = i.value();
      if (value !== undefined) query[i.name] = value;
    }
    const created = createdRecords(await api<Screenshot[] | Screenshot>('/screenshot/create', { query }));
    flash(`Screenshot${created.length > 1 ? 's' : ''} ${created.map((s) => `#${s.id}`).join(', ')} started: the image appears here when it is ready.`);
    navigate('#/screenshots');
  });

  return h('div', null, h('h1', null, 'New screenshot'), form);
}
