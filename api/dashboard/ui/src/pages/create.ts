import { api, createdRecords, queryString, type Query } from '../api.js';
import { deviceInput, optionFieldsets, type Device, type OptionInput } from '../create-form-fields.js';
import { createParameters } from '../create-parameters.js';
import { h } from '../dom.js';
import { checkbox, field, messageArea, onSubmit, section, select, showFailure, showMessage, submitButton } from '../forms.js';
import { flash } from '../layout.js';
import type { Screenshot } from '../records.js';
import { navigate } from '../router.js';
import type { z } from 'zod';
import type { AppConfig as AppConfigShape } from '../../../../apps/app-shapes.js';
import type { ApiKey, SignedRenderLink } from '../../../../accounts/account-shapes.js';

/** One of the account's app configurations (GET /app/list). */
type AppConfig = z.infer<typeof AppConfigShape>;

/**
 * The create form: every create option, as the service's OpenAPI document states it (the option table
 * is their one owner). Three take their values from elsewhere: the URLs (one per line), the device (from
 * the catalogue) and the apps (the account's); GET /screenshot/create, then the list where the result appears.
 * "Copy as signed link" makes a GET /screenshot/render link of the form's options (the first URL): the service
 * signs it with the chosen key's secret (POST /key/sign-link), since a secret is shown only once and never kept here.
 */
export async function createPage(): Promise<HTMLElement> {
  const [parameters, devices, apps, keys] = await Promise.all([
    createParameters(),
    api<Device[]>('/device/list'),
    api<AppConfig[]>('/app/list', { query: { limit: 100 } }),
    api<z.infer<typeof ApiKey>[]>('/key/list'),
  ]);

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

  /** The form's URLs and the options set: the service's defaults stand for the rest. */
  const formQuery = (): Query => {
    const query: Query = {
      url: urls.value
        .split('\n')
        .map((u) => u.trim())
        .filter(Boolean),
    };
    for (const i of inputs) {
      const value = i.value();
      if (value !== undefined) query[i.name] = value;
    }
    return query;
  };

  onSubmit(form, area, async () => {
    const query = formQuery();
    const created = createdRecords(await api<Screenshot[] | Screenshot>('/screenshot/create', { query }));
    flash(`Screenshot${created.length > 1 ? 's' : ''} ${created.map((s) => `#${s.id}`).join(', ')} started: the image appears here when it is ready.`);
    navigate('#/screenshots');
  });

  return h('div', null, h('h1', null, 'New screenshot'), form, signedLinkSection(keys, form, formQuery));
}

/** "Copy as signed link": a GET /screenshot/render link of the form's first URL and options, signed by the service with a key's secret. */
function signedLinkSection(keys: z.infer<typeof ApiKey>[], form: HTMLFormElement, formQuery: () => Query): HTMLElement {
  const signing = keys.filter((k) => k.signing_secret_set);
  if (signing.length === 0) return section('Signed link', h('p', null, 'No key has a signing secret yet: make one on the API keys page to copy signed render links.'));
  const key = select(
    'signing_key',
    signing.map((k) => [String(k.id), `${k.name ?? k.prefix} (${k.access})`]),
  );
  const out = h('input', { type: 'text', readonly: true, class: 'signed-link', 'aria-label': 'Signed link' });
  const area = messageArea();
  const copy = h('button', { type: 'button' }, 'Copy as signed link');
  copy.addEventListener('click', () => {
    const { url, ...options } = formQuery();
    // A render is one page: the first URL of the form.
    const first = Array.isArray(url) ? url[0] : url;
    api<z.infer<typeof SignedRenderLink>>('/key/sign-link', { json: { id: Number(key.value), query: queryString({ url: first, ...options }) } })
      .then(async (link) => {
        out.value = link.url;
        // The clipboard needs a secure context (https or localhost); the link stays in the box either way.
        const copied = await navigator.clipboard?.writeText(link.url).then(
          () => true,
          () => false,
        );
        showMessage(area, copied ? 'Signed link copied.' : 'Signed link ready: copy it from the box.', 'ok');
      })
      .catch((err: unknown) => showFailure(form, area, err));
  });
  return section(
    'Signed link',
    field('Signing key', key, 'The link renders this form (its first URL) as an image without an API key in it, for <img src> and CDNs.'),
    h('div', { class: 'row' }, copy),
    out,
    area,
  );
}
