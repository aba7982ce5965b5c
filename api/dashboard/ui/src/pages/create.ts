import { api, createdRecords, type Query } from '../api.js';
import { h } from '../dom.js';
import { checkbox, field, input, messageArea, onSubmit, section, select, submitButton } from '../forms.js';
import { flash } from '../layout.js';
import type { Screenshot } from '../records.js';
import { navigate } from '../router.js';

interface Device {
  device_name: string;
  name: string;
}
interface AppConfig {
  id: number;
  app_id: string;
  type: string;
  name: string;
}

/** The create form with the common options; GET /screenshot/create, then the list where the result appears. */
export async function createPage(): Promise<HTMLElement> {
  const [devices, apps] = await Promise.all([api<Device[]>('/device/list'), api<AppConfig[]>('/app/list', { query: { limit: 100 } })]);

  const urls = h('textarea', { name: 'url', rows: 3, required: true, placeholder: 'https://example.com' });
  const browser = select('browser', [
    ['', 'Default'],
    ['chrome', 'Chrome'],
    ['firefox', 'Firefox'],
    ['brave', 'Brave'],
  ]);
  const country = input('country', { placeholder: 'us', maxlength: 2, pattern: '[a-z]{2}' });
  const size = select('size', [
    ['screen', 'Screen (the viewport)'],
    ['page', 'Full page'],
  ]);
  const width = input('screen_width', { type: 'number', min: 1 });
  const height = input('screen_height', { type: 'number', min: 1 });
  const device = select('device_name', [['', 'None'], ...devices.map((d): [string, string] => [d.device_name, d.name])]);
  const delay = input('delay', { type: 'number', min: 0, max: 60, placeholder: '0' });
  const shots = input('shots', { type: 'number', min: 1, max: 10, placeholder: '1' });
  const shotInterval = input('shot_interval', { type: 'number', min: 0 });
  const tags = input('tag', { placeholder: 'campaign, homepage' });
  const flags = {
    hide_ads: checkbox('hide_ads'),
    hide_popups: checkbox('hide_popups'),
    dark: checkbox('dark'),
    html: checkbox('html'),
    pdf: checkbox('pdf'),
    video: checkbox('video'),
  };
  const videoFormat = select('video_format', [
    ['', 'Default'],
    ['mp4', 'MP4'],
    ['webm', 'WebM'],
    ['gif', 'GIF'],
  ]);
  const appBoxes = apps.map(() => checkbox('apps'));
  const area = messageArea();

  const form = h(
    'form',
    { class: 'create-form', novalidate: true, 'aria-label': 'New screenshot' },
    section(
      'Page',
      field('URLs', urls, 'One URL per line: one screenshot each.'),
      h('div', { class: 'row' }, field('Browser', browser), field('Country', country, 'Two letters, such as us or de.'), field('Tags', tags, 'Comma-separated.')),
    ),
    section(
      'Capture',
      h('div', { class: 'row' }, field('Size', size), field('Width', width, "Pixels; empty: the service's default."), field('Height', height), field('Device', device)),
      h('div', { class: 'row' }, field('Delay (seconds)', delay), field('Shots', shots, 'Images taken one after another.'), field('Seconds between shots', shotInterval)),
      h('div', { class: 'row checks' }, field('Hide ads', flags.hide_ads), field('Hide popups', flags.hide_popups), field('Dark mode', flags.dark)),
    ),
    section('Outputs', h('div', { class: 'row checks' }, field('Save HTML', flags.html), field('PDF', flags.pdf), field('Video', flags.video), field('Video format', videoFormat))),
    apps.length > 0
      ? section(
          'Apps',
          h(
            'div',
            { class: 'row checks' },
            apps.map((a, i) => {
              const box = appBoxes[i] as HTMLInputElement;
              box.value = a.app_id;
              return field(`${a.name} (${a.type})`, box);
            }),
          ),
        )
      : null,
    area,
    submitButton('Take screenshot'),
  );

  onSubmit(form, area, async () => {
    const query: Query = {
      url: urls.value
        .split('\n')
        .map((u) => u.trim())
        .filter(Boolean),
      browser: browser.value,
      country: country.value.trim(),
      size: size.value,
      screen_width: width.value,
      screen_height: height.value,
      device_name: device.value,
      delay: delay.value,
      shots: shots.value,
      shot_interval: shotInterval.value,
      tag: tags.value
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
      video_format: flags.video.checked ? videoFormat.value : '',
      apps: appBoxes.filter((b) => b.checked).map((b) => b.value),
    };
    // Only the options turned on are sent: the service's defaults stand for the rest.
    for (const [name, box] of Object.entries(flags)) if (box.checked) query[name] = true;
    const created = createdRecords(await api<Screenshot[] | Screenshot>('/screenshot/create', { query }));
    flash(`Screenshot${created.length > 1 ? 's' : ''} ${created.map((s) => `#${s.id}`).join(', ')} started: the image appears here when it is ready.`);
    navigate('#/screenshots');
  });

  return h('div', null, h('h1', null, 'New screenshot'), form);
}
