/**
 * Every row of the spec's GET /screenshot/create table, with values that must pass (and what the record
 * then says) and values that must fail (and the field the 400 names). The unit suite runs it against the
 * normaliser; the HTTP suite runs it through the API on both databases.
 * `query` is appended to `url=http://site.test/page`.
 */
/** `at`: which record the expectation is about (default the first); `records`: how many there are (default 1). */
export interface PassCase {
  query: string;
  expect: Record<string, unknown>;
  records?: number;
  at?: number;
}
/** `needsAccount`: only the API can tell (it depends on the account's data, such as its apps). */
export interface FailCase {
  query: string;
  field: string;
  needsAccount?: boolean;
}
export interface ParamCase {
  params: string[];
  pass: PassCase[];
  fail: FailCase[];
}

export const BASE_URL = 'http://site.test/page';
const q = (s: string): string => encodeURIComponent(s);

export const CREATE_PARAM_CASES: ParamCase[] = [
  {
    params: ['url'],
    pass: [
      { query: '', expect: { url: 'http://site.test/page' } },
      { query: 'url=example.com', expect: { url: 'https://example.com/' }, records: 2, at: 1 },
      { query: `url=${q('https://bücher.example/a b')}`, expect: { url: 'https://xn--bcher-kva.example/a%20b' }, records: 2, at: 1 },
      { query: `url=${q('//Site.TEST:8080/x?y=1#f')}`, expect: { url: 'https://site.test:8080/x?y=1#f' }, records: 2, at: 1 },
    ],
    fail: [
      { query: 'url=ftp://example.com/', field: 'url' },
      { query: `url=${q('javascript:alert(1)')}`, field: 'url' },
      { query: `url=${q('https://example.com/' + 'a'.repeat(4080))}`, field: 'url' },
      { query: `url=${q('https://exa mple.com/')}`, field: 'url' },
    ],
  },
  {
    params: ['country'],
    pass: [
      { query: 'country=fr', expect: { country: 'fr', region: 'Europe', language: 'fr-FR', timezone: 'Europe/Paris' } },
      { query: 'country=us', expect: { country: 'us', region: 'North America', language: 'en-US', timezone: 'America/New_York' } },
      { query: 'country=de,jp', expect: { country: 'de', timezone: 'Europe/Berlin' }, records: 2 },
      { query: 'country=de,jp', expect: { country: 'jp', timezone: 'Asia/Tokyo', language: 'ja-JP', region: 'Asia' }, records: 2, at: 1 },
      { query: 'country=de&country=jp', expect: { country: 'de' }, records: 2 },
    ],
    fail: [
      { query: 'country=FR', field: 'country' },
      { query: 'country=zz', field: 'country' },
      { query: 'country=fra', field: 'country' },
    ],
  },
  {
    params: ['browser'],
    pass: [
      { query: 'browser=firefox', expect: { browser: 'firefox' } },
      { query: 'browser=brave', expect: { browser: 'brave' } },
      { query: '', expect: { browser: 'chrome' } },
    ],
    fail: [{ query: 'browser=safari', field: 'browser' }],
  },
  {
    params: ['delay'],
    pass: [
      { query: 'delay=60', expect: { delay: 60 } },
      { query: 'delay=0', expect: { delay: 0 } },
    ],
    fail: [
      { query: 'delay=61', field: 'delay' },
      { query: 'delay=-1', field: 'delay' },
      { query: 'delay=1.5', field: 'delay' },
      { query: 'delay=1&delay=2', field: 'delay' },
    ],
  },
  {
    params: ['format', 'quality'],
    pass: [
      { query: '', expect: { format: 'png', quality: 80 } },
      { query: 'format=jpeg&quality=1', expect: { format: 'jpeg', quality: 1 } },
      { query: 'format=jpg&quality=100', expect: { format: 'jpeg', quality: 100 } },
      { query: 'format=webp', expect: { format: 'webp', quality: 80 } },
      { query: 'format=webmp', expect: { format: 'webp' } },
    ],
    fail: [
      { query: 'format=gif', field: 'format' },
      { query: 'format=avif', field: 'format' },
      { query: 'format=png&format=jpeg', field: 'format' },
      { query: 'quality=0', field: 'quality' },
      { query: 'quality=101', field: 'quality' },
      { query: 'quality=5.5', field: 'quality' },
    ],
  },
  {
    params: ['hide_ads', 'hide_popups', 'dark', 'strict_ssl', 'html', 'pdf', 'video', 'pdf_background', 'pdf_landscape', 'pdf_one_page'],
    pass: [
      { query: 'hide_ads=1&hide_popups=yes&dark=on&strict_ssl=TRUE&html=true', expect: { hide_ads: true, hide_popups: true, dark: true, strict_ssl: true, html: true } },
      { query: 'pdf=1&pdf_background=1&pdf_landscape=0&pdf_one_page=off&video=no', expect: { pdf: true, pdf_background: true, pdf_landscape: false, pdf_one_page: false, video: false } },
      // An empty value is false: one official client's multipart writer sends `false` that way.
      { query: 'pdf=&html=&dark=&video=&hide_popups=False&hide_ads=True', expect: { pdf: false, html: false, dark: false, video: false, hide_popups: false, hide_ads: true, cost: 1 } },
    ],
    fail: [
      { query: 'hide_ads=2', field: 'hide_ads' },
      { query: 'hide_popups=maybe', field: 'hide_popups' },
      { query: 'dark=-', field: 'dark' },
      { query: 'strict_ssl=x', field: 'strict_ssl' },
      { query: 'html=y', field: 'html' },
      { query: 'pdf=t', field: 'pdf' },
      { query: 'video=enabled', field: 'video' },
      { query: 'pdf_background=3', field: 'pdf_background' },
      { query: 'pdf_landscape=-', field: 'pdf_landscape' },
      { query: 'pdf_one_page=none', field: 'pdf_one_page' },
    ],
  },
  {
    params: ['screen_width', 'screen_height'],
    pass: [
      { query: 'screen_width=1&screen_height=1', expect: { screen_width: 1, screen_height: 1 } },
      { query: '', expect: { screen_width: 1280, screen_height: 800 } },
      { query: 'screen_width=10000&screen_height=10000', expect: { screen_width: 10000, screen_height: 10000 } },
    ],
    fail: [
      { query: 'screen_width=0', field: 'screen_width' },
      { query: 'screen_height=abc', field: 'screen_height' },
      { query: 'screen_width=100000', field: 'screen_width' },
      // each alone is accepted; together above the pixel budget (128 megapixels by default) they are not
      { query: 'screen_width=10000&screen_height=10000&device_scale=2', field: 'screen_width' },
    ],
  },
  {
    params: ['size', 'max_height'],
    pass: [
      { query: 'size=page&max_height=5000', expect: { size: 'page', max_height: 5000, cost: 2 } },
      { query: '', expect: { size: 'screen', max_height: 0, cost: 1 } },
    ],
    fail: [
      { query: 'size=full', field: 'size' },
      { query: 'max_height=-5', field: 'max_height' },
    ],
  },
  {
    params: ['cookie'],
    pass: [{ query: `cookie=${q('a=1; session=xyz')}`, expect: { cookie: 'a=1; session=xyz' } }],
    fail: [
      { query: `cookie=${q('novalue')}`, field: 'cookie' },
      { query: `cookie=${q('a=1\r\nX: y')}`, field: 'cookie' },
    ],
  },
  {
    params: ['header'],
    pass: [
      { query: `header=${q('{"X-Token":"abc"}')}&header=${q('X-Other: 1')}`, expect: { header: 'X-Token: abc\nX-Other: 1' } },
      { query: `header=${q('A: 1\nB: 2')}`, expect: { header: 'A: 1\nB: 2' } },
    ],
    fail: [
      { query: `header=${q('{"X-Token":')}`, field: 'header' },
      { query: `header=${q('no colon here')}`, field: 'header' },
      { query: `header=${q('Host: evil')}`, field: 'header' },
    ],
  },
  {
    params: ['post_data'],
    pass: [{ query: `post_data=${q('a=1&b=two')}`, expect: { post_data: 'a=1&b=two' } }],
    fail: [{ query: `post_data=${q('x'.repeat(70_000))}`, field: 'post_data' }],
  },
  {
    params: ['referer'],
    pass: [{ query: `referer=${q('https://ref.example/x')}`, expect: { referer: 'https://ref.example/x' } }],
    fail: [{ query: `referer=${q('file:///etc/passwd')}`, field: 'referer' }],
  },
  {
    params: ['user_agent'],
    pass: [{ query: `user_agent=${q('MyBot/1.0')}`, expect: { user_agent: 'MyBot/1.0' } }],
    fail: [
      { query: `user_agent=${q('a\nb')}`, field: 'user_agent' },
      { query: `user_agent=${'a'.repeat(1025)}`, field: 'user_agent' },
    ],
  },
  {
    params: ['max_wait'],
    pass: [
      { query: 'max_wait=0', expect: { max_wait: 0 } },
      { query: 'max_wait=30', expect: { max_wait: 30 } },
    ],
    fail: [
      { query: 'max_wait=-1', field: 'max_wait' },
      { query: 'max_wait=301', field: 'max_wait' },
    ],
  },
  {
    params: ['script', 'script_inline'],
    pass: [
      {
        query: `script=${q('https://cdn.example/a.js')}&script=${q('https://cdn.example/b.js')}&script_inline=${q('document.title="x"')}`,
        expect: { script: 'https://cdn.example/a.js\nhttps://cdn.example/b.js' },
      },
    ],
    fail: [
      { query: `script=${q('data:text/javascript,alert(1)')}`, field: 'script' },
      { query: `script_inline=${q('a'.repeat(70_000))}`, field: 'script_inline' },
    ],
  },
  {
    params: ['trackers', 'tracker'],
    pass: [
      {
        query: `trackers=${q('[{"id":"t1","name":"Title","selector":"h1"}]')}`,
        expect: { trackers: [{ id: 't1', name: 'Title', selector: 'h1', value: '', input: '', name_type: 'static', value_type: 'text' }] },
      },
      {
        query: 'tracker[0][id]=p&tracker[0][selector]=.price&tracker[0][value_type]=attribute&tracker[0][input]=data-v',
        expect: { trackers: [{ id: 'p', name: '', selector: '.price', value: '', input: 'data-v', name_type: 'static', value_type: 'attribute' }] },
      },
      { query: `tracker=${q('{"id":"one","selector":"p"}')}`, expect: { trackers: [{ id: 'one', name: '', selector: 'p', value: '', input: '', name_type: 'static', value_type: 'text' }] } },
    ],
    fail: [
      { query: `trackers=${q('[{"id":"t1"}]')}`, field: 'trackers[0].selector' },
      { query: `trackers=${q('[{"id":"a","selector":"h1"}]')}&tracker[0][id]=b&tracker[0][selector]=p`, field: 'tracker' },
      { query: 'tracker[0][id]=a&tracker[0][selector]=h1&tracker[0][value_type]=pixels', field: 'tracker[0].value_type' },
      { query: `trackers=${q('not json')}`, field: 'trackers' },
    ],
  },
  {
    params: ['steps', 'step'],
    pass: [
      {
        query: `steps=${q('[{"command":"click","selector":"#go"},{"command":"wait","value":2},{"command":"type","selector":"input","value":"hi"}]')}`,
        expect: {
          steps: [
            { command: 'click', selector: '#go' },
            { command: 'wait', value: '2' },
            { command: 'type', selector: 'input', value: 'hi' },
          ],
        },
      },
      {
        query: 'step[0][command]=scroll&step[0][value]=bottom&step[1][command]=press&step[1][value]=Enter',
        expect: {
          steps: [
            { command: 'scroll', value: 'bottom' },
            { command: 'press', value: 'Enter' },
          ],
        },
      },
      { query: '', expect: { steps: undefined } },
    ],
    fail: [
      { query: `steps=${q('[{"command":"explode"}]')}`, field: 'steps[0].command' },
      { query: 'step[0][command]=click', field: 'step[0].selector' },
      { query: `steps=${q('[{"command":"wait","value":"99"}]')}`, field: 'steps[0].value' },
      { query: `steps=${q('[{"command":"navigate","value":"file:///etc/passwd"}]')}`, field: 'steps[0].value' },
      { query: `steps=${q('[{"command":"click","selector":"a"}]')}&step[0][command]=click&step[0][selector]=b`, field: 'step' },
    ],
  },
  {
    params: ['cache'],
    pass: [
      { query: 'cache=3600', expect: { cache: 3600 } },
      { query: 'cache=true', expect: { cache: 86400 } },
      { query: 'cache=false', expect: { cache: 0 } },
      { query: '', expect: { cache: 0 } },
    ],
    fail: [
      { query: 'cache=-1', field: 'cache' },
      { query: 'cache=2592001', field: 'cache' },
      { query: 'cache=soon', field: 'cache' },
    ],
  },
  {
    params: ['shots', 'shot_interval'],
    pass: [
      { query: 'shots=3&shot_interval=2', expect: { shots: 3, shot_interval: 2, cost: 3 } },
      { query: '', expect: { shots: 1, shot_interval: 1 } },
    ],
    fail: [
      { query: 'shots=0', field: 'shots' },
      { query: 'shots=11', field: 'shots' },
      { query: 'shot_interval=61', field: 'shot_interval' },
    ],
  },
  {
    params: ['tag'],
    pass: [
      { query: 'tag=a,b&tag=c', expect: { tag: ['a', 'b', 'c'] } },
      { query: '', expect: { tag: [] } },
    ],
    fail: [
      { query: `tag=${'x'.repeat(65)}`, field: 'tag' },
      { query: `tag=${Array.from({ length: 21 }, (_, i) => `t${i}`).join(',')}`, field: 'tag' },
    ],
  },
  {
    params: ['target'],
    pass: [{ query: `target=${q('#main > .card')}`, expect: { target: '#main > .card' } }],
    fail: [{ query: `target=${'a'.repeat(1025)}`, field: 'target' }],
  },
  {
    params: ['apps'],
    pass: [{ query: 'apps=my-hook', expect: { apps: [{ app_id: 'my-hook', type: 'webhook', status: 'pending' }] } }],
    fail: [
      { query: 'apps=unknown-app', field: 'apps', needsAccount: true },
      { query: `apps=${q('bad id!')}`, field: 'apps' },
    ],
  },
  {
    params: ['geo_enable', 'geo_latitude', 'geo_longitude'],
    pass: [
      { query: 'geo_enable=1&geo_latitude=48.8566&geo_longitude=2.3522', expect: { geo_enable: true, geo_latitude: 48.8566, geo_longitude: 2.3522 } },
      { query: 'geo_latitude=-33.9&geo_longitute=18.4', expect: { geo_enable: true, geo_latitude: -33.9, geo_longitude: 18.4 } },
      { query: '', expect: { geo_enable: false, geo_latitude: 0, geo_longitude: 0 } },
    ],
    fail: [
      { query: 'geo_enable=1&geo_latitude=10', field: 'geo_longitude' },
      { query: 'geo_latitude=91&geo_longitude=0', field: 'geo_latitude' },
      { query: 'geo_latitude=0&geo_longitude=181', field: 'geo_longitude' },
      { query: 'geo_latitude=1&geo_longitude=1&geo_longitute=1', field: 'geo_longitute' },
    ],
  },
  {
    params: ['language'],
    pass: [
      { query: 'country=fr&language=en-GB', expect: { language: 'en-GB', timezone: 'Europe/Paris' } },
      // A bare language (issue 25: the original clients send lang=fr) is written in each record's country.
      { query: 'language=en', expect: { language: 'en-US', country: 'us' } },
      { query: 'country=ca&lang=fr', expect: { language: 'fr-CA', timezone: 'America/Toronto' } },
      { query: 'country=ca,be&lang=fr', expect: { country: 'be', language: 'fr-BE' }, records: 2, at: 1 },
    ],
    fail: [
      { query: 'language=EN-gb', field: 'language' },
      { query: 'language=EN', field: 'language' },
      { query: 'lang=f', field: 'lang' },
      { query: 'lang=fra', field: 'lang' },
    ],
  },
  {
    params: ['timezone'],
    pass: [{ query: `timezone=${q('Asia/Tokyo')}`, expect: { timezone: 'Asia/Tokyo', country: 'us' } }],
    fail: [
      { query: `timezone=${q('Mars/Olympus')}`, field: 'timezone' },
      { query: `timezone=${q('../etc')}`, field: 'timezone' },
    ],
  },
  {
    params: ['device_name'],
    pass: [
      {
        query: `device_name=${q('iPhone 13')}&screen_width=50&device_scale=4`,
        expect: { device_name: 'iphone-13', screen_width: 390, screen_height: 664, device_scale: 3, device_mobile: true, device_touch: true, device_landscape: false },
      },
      { query: 'device_name=pixel-7-landscape', expect: { device_name: 'pixel-7-landscape', device_landscape: true, device_mobile: true } },
    ],
    fail: [{ query: 'device_name=nokia-3310', field: 'device_name' }],
  },
  {
    params: ['device_landscape', 'device_mobile', 'device_touch', 'device_scale'],
    pass: [
      {
        query: 'screen_width=400&screen_height=800&device_landscape=1&device_mobile=1&device_touch=1&device_scale=2',
        expect: { screen_width: 800, screen_height: 400, device_landscape: true, device_mobile: true, device_touch: true, device_scale: 2, device_name: '' },
      },
    ],
    fail: [
      { query: 'device_scale=0', field: 'device_scale' },
      { query: 'device_scale=6', field: 'device_scale' },
      { query: 'screen_width=10000&screen_height=10000&device_scale=1.2', field: 'device_scale' },
      { query: 'device_mobile=2', field: 'device_mobile' },
      { query: 'device_touch=x', field: 'device_touch' },
      { query: 'device_landscape=z', field: 'device_landscape' },
    ],
  },
  {
    params: ['pdf_format', 'pdf_margin', 'pdf_margin_top', 'pdf_margin_bottom', 'pdf_margin_left', 'pdf_margin_right'],
    pass: [
      {
        query: 'pdf=1&pdf_format=letter&pdf_margin=10&pdf_margin_top=5mm&pdf_margin_left=1in',
        expect: { pdf_format: 'letter', pdf_margin: '10px', pdf_margin_top: '5mm', pdf_margin_bottom: '10px', pdf_margin_left: '1in', pdf_margin_right: '10px', cost: 2 },
      },
      { query: '', expect: { pdf_format: 'a4', pdf_margin: '0px' } },
    ],
    fail: [
      { query: 'pdf_format=a3', field: 'pdf_format' },
      { query: 'pdf_margin=-1', field: 'pdf_margin' },
      { query: 'pdf_margin_top=10pt', field: 'pdf_margin_top' },
      { query: 'pdf_margin_right=abc', field: 'pdf_margin_right' },
      { query: 'pdf_margin_bottom=1e3', field: 'pdf_margin_bottom' },
      { query: 'pdf_margin_left=1,5', field: 'pdf_margin_left' },
    ],
  },
  {
    params: ['video_format', 'video_quality', 'video_speed', 'video_duration', 'video_fps', 'video_colors', 'video_scale'],
    pass: [
      {
        query: 'video=1&video_format=gif&video_quality=0&video_speed=0.1&video_duration=30&video_fps=60&video_colors=2&video_scale=0.1',
        expect: { video: true, video_format: 'gif', video_quality: 0, video_speed: 0.1, video_duration: 30, video_fps: 60, video_colors: 2, video_scale: 0.1, cost: 3 },
      },
      { query: '', expect: { video_format: 'mp4', video_quality: 23, video_speed: 1, video_duration: 0, video_fps: 25, video_colors: 256, video_scale: 1 } },
    ],
    fail: [
      { query: 'video_format=avi', field: 'video_format' },
      { query: 'video_quality=64', field: 'video_quality' },
      { query: 'video_speed=5.5', field: 'video_speed' },
      { query: 'video_duration=31', field: 'video_duration' },
      { query: 'video_fps=0', field: 'video_fps' },
      { query: 'video_colors=1', field: 'video_colors' },
      { query: 'video_scale=1.5', field: 'video_scale' },
    ],
  },
  {
    // The spellings of the original service's clients and documentation: aliases of the spec's names.
    params: ['lang', 'tz', 'full_page', 'video_length'],
    pass: [
      { query: `lang=de-DE&tz=${q('Asia/Tokyo')}&full_page=true&video=1&video_length=5`, expect: { language: 'de-DE', timezone: 'Asia/Tokyo', size: 'page', video_duration: 5, warnings: [] } },
      { query: 'full_page=false', expect: { size: 'screen' } },
      { query: 'full_page=0&size=page', expect: { size: 'page' } },
      { query: 'full_page=', expect: { size: 'screen' } },
    ],
    fail: [
      { query: 'lang=de-DE&language=fr-FR', field: 'lang' },
      { query: 'lang=german', field: 'lang' },
      { query: `tz=${q('Mars/Olympus')}`, field: 'tz' },
      { query: 'full_page=1&size=screen', field: 'full_page' },
      { query: 'full_page=maybe', field: 'full_page' },
      { query: 'video_length=31', field: 'video_length' },
    ],
  },
  {
    // fill is type; screenshot is skipped (the capture comes after the steps) and the record says so.
    params: ['steps'],
    pass: [
      {
        query: `steps=${q('[{"command":"fill","selector":"#q","value":"hi"},{"command":"screenshot"},{"command":"click","selector":"#go"}]')}`,
        expect: {
          steps: [
            { command: 'type', selector: '#q', value: 'hi' },
            { command: 'click', selector: '#go' },
          ],
          warnings: ['Step 2 (screenshot) was skipped: the screenshot is taken after the steps.'],
        },
      },
    ],
    fail: [{ query: `steps=${q('[{"command":"fill","selector":"#q"}]')}`, field: 'steps[0].value' }],
  },
  {
    // Parameters other than url and the options are ignored, as the spec's clients expect, and named in the record's warnings.
    params: ['url'],
    pass: [
      { query: 'colour=red&dark=1', expect: { dark: true, warnings: ['The parameter "colour" is not known and was ignored.'] } },
      { query: 'key=abc', expect: { warnings: [] } },
      // The name is the client's text: NUL (which Postgres' jsonb refuses) is shown as ?.
      { query: '%00colour=1', expect: { warnings: ['The parameter "?colour" is not known and was ignored.'] } },
    ],
    fail: [],
  },
  {
    params: ['priority'],
    pass: [{ query: 'priority=10', expect: { priority: 10 } }],
    fail: [{ query: 'priority=11', field: 'priority' }],
  },
  {
    // Blocking by category (shared/spec/beyond-v1.md part 6): block_resources as a comma list or repeated,
    // block_urls repeated only (a pattern may hold a comma).
    params: ['block_chats', 'block_trackers', 'block_social', 'block_resources', 'block_urls'],
    pass: [
      { query: '', expect: { block_chats: false, block_trackers: false, block_social: false, block_resources: [], block_urls: [] } },
      { query: 'block_chats=1&block_trackers=yes&block_social=on', expect: { block_chats: true, block_trackers: true, block_social: true } },
      { query: 'block_resources=image,FONT&block_resources=media', expect: { block_resources: ['image', 'font', 'media'] } },
      { query: `block_urls=${q('*.hotjar.com/*')}&block_urls=${q('https://cdn.test/a,b.js')}`, expect: { block_urls: ['*.hotjar.com/*', 'https://cdn.test/a,b.js'] } },
    ],
    fail: [
      { query: 'block_chats=maybe', field: 'block_chats' },
      { query: 'block_resources=video', field: 'block_resources' },
      { query: 'block_urls=*', field: 'block_urls' },
      { query: Array.from({ length: 51 }, (_, i) => `block_urls=*x${i}*`).join('&'), field: 'block_urls' },
    ],
  },
  {
    // Readiness and conditions (shared/spec/beyond-v1.md part 6). click and hide_selector come repeated or as
    // comma lists, split at the commas outside brackets and quotes; css is kept (not shown, as script_inline).
    params: ['wait_for', 'wait_for_hidden', 'wait_strict', 'click', 'hover', 'hide_selector', 'css', 'fail_on_status', 'fail_if_selector', 'fail_unless_selector', 'fail_on_blank'],
    pass: [
      {
        query: '',
        expect: {
          wait_for: '',
          wait_for_hidden: '',
          wait_strict: false,
          click: [],
          hover: '',
          hide_selector: [],
          fail_on_status: [],
          fail_if_selector: '',
          fail_unless_selector: '',
          fail_on_blank: false,
        },
      },
      { query: `wait_for=${q('#content')}&wait_for_hidden=${q('.spinner')}&wait_strict=1`, expect: { wait_for: '#content', wait_for_hidden: '.spinner', wait_strict: true } },
      { query: `click=${q('#tab-a')}&click=${q('#tab-b, [title="a,b"]')}`, expect: { click: ['#tab-a', '#tab-b', '[title="a,b"]'] } },
      { query: `hide_selector=${q(':is(.chat, .promo),#ad')}&hover=${q('nav > a')}&css=${q('body { color: red }')}`, expect: { hide_selector: [':is(.chat, .promo)', '#ad'], hover: 'nav > a' } },
      { query: 'fail_on_status=404,5XX&fail_on_status=4xx', expect: { fail_on_status: ['404', '5xx', '4xx'] } },
      { query: `fail_if_selector=${q('.error')}&fail_unless_selector=${q('#main')}&fail_on_blank=true`, expect: { fail_if_selector: '.error', fail_unless_selector: '#main', fail_on_blank: true } },
    ],
    fail: [
      { query: 'fail_on_status=600', field: 'fail_on_status' },
      { query: 'fail_on_status=4x', field: 'fail_on_status' },
      { query: 'fail_on_status=abc', field: 'fail_on_status' },
      { query: 'wait_strict=maybe', field: 'wait_strict' },
      { query: `wait_for=${'a'.repeat(1025)}`, field: 'wait_for' },
      { query: `wait_for=${q('#a\n#b')}`, field: 'wait_for' },
      { query: Array.from({ length: 21 }, (_, i) => `click=%23b${i}`).join('&'), field: 'click' },
      { query: `css=${q('a'.repeat(70_000))}`, field: 'css' },
      { query: 'fail_on_blank=2', field: 'fail_on_blank' },
    ],
  },
  {
    // Extraction (shared/spec/beyond-v1.md part 5): the record shows markdown and markdown_mode; its `metadata` is
    // the page's metadata object once captured (null until then), not the switch.
    params: ['markdown', 'markdown_mode', 'metadata'],
    pass: [
      { query: '', expect: { markdown: false, markdown_mode: 'main' } },
      { query: 'markdown=1&markdown_mode=full&metadata=true', expect: { markdown: true, markdown_mode: 'full' } },
    ],
    fail: [
      { query: 'markdown=yes please', field: 'markdown' },
      { query: 'markdown_mode=summary', field: 'markdown_mode' },
      { query: 'metadata=2', field: 'metadata' },
    ],
  },
];

/** The `url=` query every case starts from. */
export const caseQuery = (c: { query: string }): string => `url=${encodeURIComponent(BASE_URL)}${c.query ? `&${c.query}` : ''}`;
