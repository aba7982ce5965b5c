import { expect } from 'chai';
import { AppRunError, type AppFile } from '../../plugins/contract.js';
import { checkAppPlugin, expectRunError, memoryFiles, runContext, SAMPLE_HTML, SAMPLE_PNG, sampleFiles, sampleScreenshot } from '../../plugins/contract-kit.js';
import { createDropboxApp, dropboxWebUrl } from '../../plugins/dropbox/dropbox-app.js';
import { rechunk, rewriteDropboxUrl } from '../../plugins/dropbox/dropbox-client.js';
import { dropboxSettingsSchema, type DropboxSettings } from '../../plugins/dropbox/dropbox-settings.js';
import { FakeDropbox } from '../support/fake-dropbox.js';

const ACCESS_TOKEN = 'sl.test-long-lived-access-token';
const EXPIRED_TOKEN = 'sl.test-expired-token';
const APP = { key: 'appkey123', secret: 'app+secret/&=?', refreshToken: 'refresh-token-abc_DEF-123' };
const PATH = '/screenshots/{domain}/{id}';

const accessSettings = (over: Record<string, unknown> = {}) => ({ access_token: ACCESS_TOKEN, path: PATH, ...over });
const refreshSettings = (over: Record<string, unknown> = {}) => ({ refresh_token: APP.refreshToken, app_key: APP.key, app_secret: APP.secret, path: PATH, ...over });
const parse = (settings: Record<string, unknown>): DropboxSettings => dropboxSettingsSchema.parse(settings);

/** Settings every check must refuse, with why. */
const INVALID = [
  { settings: { access_token: ACCESS_TOKEN, refresh_token: APP.refreshToken, app_key: APP.key, app_secret: APP.secret, path: PATH }, why: 'both auth methods' },
  { settings: { access_token: ACCESS_TOKEN, app_key: APP.key, path: PATH }, why: 'access_token with part of the refresh set' },
  { settings: { path: PATH }, why: 'neither auth method' },
  { settings: { refresh_token: APP.refreshToken, path: PATH }, why: 'refresh_token without app_key and app_secret' },
  { settings: { refresh_token: APP.refreshToken, app_key: APP.key, path: PATH }, why: 'refresh_token without app_secret' },
  { settings: { access_token: '  ', path: PATH }, why: 'an empty access token' },
  { settings: { access_token: ACCESS_TOKEN, path: 'screenshots/{id}' }, why: 'a path not starting with /' },
  { settings: { access_token: ACCESS_TOKEN, path: '/{nope}/{id}' }, why: 'an unknown variable' },
  { settings: { access_token: ACCESS_TOKEN, path: '/a/b/c/d/{id}' }, why: 'too many folder levels' },
  { settings: { access_token: ACCESS_TOKEN, mode: 'update' }, why: 'an unknown mode' },
];

describe('dropbox app', () => {
  let fake: FakeDropbox;
  let endpoints: { dropboxApiUrl: string; dropboxContentUrl: string };

  before(async () => {
    fake = await FakeDropbox.start({ accessTokens: [ACCESS_TOKEN], expiredTokens: [EXPIRED_TOKEN], app: APP });
    endpoints = { dropboxApiUrl: fake.url, dropboxContentUrl: fake.url };
  });
  after(async () => fake.close());
  beforeEach(() => fake.reset());

  describe('contract', () => {
    it('passes checkAppPlugin with an access token, and the PNG and HTML arrive with their path and mode', async () => {
      const app = createDropboxApp(endpoints);
      const { output } = await checkAppPlugin(app, { settings: accessSettings(), invalidSettings: INVALID });

      const uploads = fake.uploads();
      expect(uploads, 'one request per output; none from the aborted run').to.have.length(2);
      const [png, html] = uploads as [NonNullable<(typeof uploads)[0]>, NonNullable<(typeof uploads)[0]>];
      expect(png.body.equals(SAMPLE_PNG), 'the PNG bytes').to.equal(true);
      expect(png.arg).to.deep.equal({ path: '/screenshots/www.example.com/4242.png', mode: { '.tag': 'add' }, autorename: true });
      expect(png.headers.authorization).to.equal(`Bearer ${ACCESS_TOKEN}`);
      expect(png.headers['content-type']).to.equal('application/octet-stream');
      expect(html.body.equals(SAMPLE_HTML), 'the HTML bytes').to.equal(true);
      expect(html.arg).to.deep.include({ path: '/screenshots/www.example.com/4242.html' });
      expect(fake.tokenRequests(), 'an access token is used as it is').to.have.length(0);

      const stored = fake.file('/screenshots/www.example.com/4242.png');
      expect(stored?.content.equals(SAMPLE_PNG)).to.equal(true);
      expect(output.output_url).to.equal('https://www.dropbox.com/home/screenshots/www.example.com/4242.png');
      expect(output.output_data).to.deep.equal({
        files: [
          { kind: 'image', shot: 1, path_display: '/screenshots/www.example.com/4242.png', id: stored?.id, size: SAMPLE_PNG.length },
          { kind: 'html', shot: null, path_display: '/screenshots/www.example.com/4242.html', id: fake.file('/screenshots/www.example.com/4242.html')?.id, size: SAMPLE_HTML.length },
        ],
      });
    });

    it('passes checkAppPlugin with a refresh token: the token is refreshed as a form, then used as Bearer', async () => {
      const app = createDropboxApp(endpoints);
      const issuedBefore = fake.issuedTokens.length;
      await checkAppPlugin(app, { settings: refreshSettings(), invalidSettings: INVALID });
      expect(fake.issuedTokens).to.have.length(issuedBefore + 1);

      const [tokenRequest, ...more] = fake.tokenRequests();
      expect(more, 'the token is cached for the following runs').to.have.length(0);
      expect(tokenRequest?.url, 'no secret in the URL').to.equal('/oauth2/token');
      expect(tokenRequest?.headers['content-type']).to.equal('application/x-www-form-urlencoded');
      expect(Object.fromEntries(new URLSearchParams(tokenRequest?.body.toString('utf8')))).to.deep.equal({
        grant_type: 'refresh_token',
        refresh_token: APP.refreshToken,
        client_id: APP.key,
        client_secret: APP.secret,
      });
      const uploads = fake.uploads();
      expect(uploads).to.have.length(2);
      expect(uploads[0]?.body.equals(SAMPLE_PNG)).to.equal(true);
      expect(uploads[0]?.arg).to.deep.equal({ path: '/screenshots/www.example.com/4242.png', mode: { '.tag': 'add' }, autorename: true });
      for (const upload of uploads) expect(upload.headers.authorization).to.equal(`Bearer ${fake.issuedTokens[issuedBefore]}`);
    });
  });

  describe('settings', () => {
    it('refuses both auth methods and neither, saying what to give', () => {
      const both = dropboxSettingsSchema.safeParse({ access_token: ACCESS_TOKEN, refresh_token: APP.refreshToken, app_key: APP.key, app_secret: APP.secret });
      expect(both.success).to.equal(false);
      expect(both.error?.issues.map((i) => i.message)).to.deep.equal(['give either access_token, or refresh_token with app_key and app_secret, not both']);
      const neither = dropboxSettingsSchema.safeParse({});
      expect(neither.success).to.equal(false);
      expect(neither.error?.issues.map((i) => i.message)).to.deep.equal(['give access_token, or refresh_token with app_key and app_secret']);
      const partial = dropboxSettingsSchema.safeParse({ refresh_token: APP.refreshToken });
      expect(partial.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).to.deep.equal([
        'app_key: app_key is required: refresh_token, app_key and app_secret go together',
        'app_secret: app_secret is required: refresh_token, app_key and app_secret go together',
      ]);
    });

    it('defaults path and mode, and refuses a path not starting with /', () => {
      expect(parse({ access_token: ACCESS_TOKEN })).to.deep.include({ path: '/screenshots/{domain}/{id}', mode: 'add' });
      const relative = dropboxSettingsSchema.safeParse({ access_token: ACCESS_TOKEN, path: 'x/{id}' });
      expect(relative.error?.issues[0]?.message).to.match(/must start with \//);
    });
  });

  describe('paths and modes', () => {
    it('keeps the folder of the path setting when a batch names the file', async () => {
      const app = createDropboxApp(endpoints);
      await app.run(runContext(parse(accessSettings()), { runFilename: '{date}/{domain}' }));
      expect(fake.uploads().map((u) => u.arg?.path)).to.deep.equal([
        '/screenshots/www.example.com/2026-11-21/www.example.com-4242.png',
        '/screenshots/www.example.com/2026-11-21/www.example.com-4242.html',
      ]);
    });

    it('names files {id}-{domain} in the folder when the path ends in /, and sanitises what variables bring', async () => {
      const app = createDropboxApp(endpoints);
      await app.run(runContext(parse(accessSettings({ path: '/shots/{tags}/' })), { screenshot: sampleScreenshot({ tag: ['a/b', '..'] }) }));
      expect(fake.uploads()[0]?.arg?.path).to.equal('/shots/a_b-/4242-www.example.com.png');
    });

    it('drops a folder that renders empty', async () => {
      const app = createDropboxApp(endpoints);
      await app.run(runContext(parse(accessSettings({ path: '/{tags}/{id}' })), { screenshot: sampleScreenshot({ tag: [] }) }));
      expect(fake.uploads()[0]?.arg?.path).to.equal('/4242.png');
    });

    it('re-sending the same file in add mode keeps its name; a different file of that name is renamed', async () => {
      const app = createDropboxApp(endpoints);
      const settings = parse(accessSettings());
      const first = await app.run(runContext(settings));
      const again = await app.run(runContext(settings, { attempt: 2 }));
      expect(again.output_data).to.deep.equal(first.output_data);
      expect(fake.files.size).to.equal(2);

      const otherPng = Buffer.concat([SAMPLE_PNG, Buffer.from('different')]);
      const files = memoryFiles([{ file: { kind: 'image', shot: 1, contentType: 'image/png', size: otherPng.length, extension: 'png' }, body: otherPng }]);
      const renamed = await app.run(runContext(settings, { files }));
      expect(renamed.output_url).to.equal('https://www.dropbox.com/home/screenshots/www.example.com/4242%20(1).png');
      expect(fake.file('/screenshots/www.example.com/4242.png')?.content.equals(SAMPLE_PNG)).to.equal(true);
    });

    it('overwrite mode replaces the file and sends autorename false', async () => {
      const app = createDropboxApp(endpoints);
      await app.run(runContext(parse(accessSettings())));
      const otherPng = Buffer.concat([SAMPLE_PNG, Buffer.from('newer')]);
      const files = memoryFiles([{ file: { kind: 'image', shot: 1, contentType: 'image/png', size: otherPng.length, extension: 'png' }, body: otherPng }]);
      await app.run(runContext(parse(accessSettings({ mode: 'overwrite' })), { files }));
      expect(fake.uploads()[2]?.arg).to.deep.equal({ path: '/screenshots/www.example.com/4242.png', mode: { '.tag': 'overwrite' }, autorename: false });
      expect(fake.file('/screenshots/www.example.com/4242.png')?.content.equals(otherPng)).to.equal(true);
      expect(fake.files.size).to.equal(2);
    });

    it('sends a file over the single-request size through an upload session, bytes intact', async () => {
      const app = createDropboxApp(endpoints, { limits: { singleRequestBytes: 1000, chunkBytes: 1024 } });
      const video = Buffer.alloc(5000 + 17);
      for (let i = 0; i < video.length; i++) video[i] = (i * 7) % 251;
      const file: AppFile = { kind: 'video', shot: null, contentType: 'video/mp4', size: video.length, extension: 'mp4' };
      const output = await app.run(runContext(parse(accessSettings()), { files: memoryFiles([...sampleFiles(), { file, body: video }]) }));
      const routes = fake.requests.map((r) => r.pathname).filter((p) => p.startsWith('/2/files/upload_session/'));
      expect(routes).to.deep.equal(['/2/files/upload_session/start', ...Array(4).fill('/2/files/upload_session/append_v2'), '/2/files/upload_session/finish']);
      const finish = fake.requests.find((r) => r.pathname === '/2/files/upload_session/finish');
      expect(finish?.arg).to.deep.equal({
        cursor: { session_id: 'session-1', offset: video.length },
        commit: { path: '/screenshots/www.example.com/4242.mp4', mode: { '.tag': 'add' }, autorename: true },
      });
      expect(fake.file('/screenshots/www.example.com/4242.mp4')?.content.equals(video)).to.equal(true);
      expect((output.output_data?.files as { kind: string; size: number }[])[2]).to.deep.include({ kind: 'video', size: video.length });
      expect(output.output_url, 'the link is the image').to.match(/4242\.png$/);
    });
  });

  describe('failures', () => {
    it('a bad access token: not retryable, nothing stored, no token in the message', async () => {
      const app = createDropboxApp(endpoints);
      const error = await expectRunError(app.run(runContext(parse(accessSettings({ access_token: 'sl.wrong' })))));
      expect(error.retryable).to.equal(false);
      expect(error.message)
        .to.match(/invalid_access_token/)
        .and.not.include('sl.wrong');
      expect(fake.files.size).to.equal(0);
    });

    it('an expired access token: not retryable, and says how to fix it', async () => {
      const error = await expectRunError(createDropboxApp(endpoints).run(runContext(parse(accessSettings({ access_token: EXPIRED_TOKEN })))));
      expect(error.retryable).to.equal(false);
      expect(error.message)
        .to.match(/expired/)
        .and.match(/refresh_token/);
    });

    it('a refused refresh token: not retryable, before any upload', async () => {
      const app = createDropboxApp(endpoints);
      const error = await expectRunError(app.run(runContext(parse(refreshSettings({ refresh_token: 'revoked' })))));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.match(/refresh the access token.*invalid_grant/);
      expect(fake.uploads()).to.have.length(0);
      const badSecret = await expectRunError(app.run(runContext(parse(refreshSettings({ app_secret: 'wrong' })))));
      expect(badSecret.retryable).to.equal(false);
      expect(badSecret.message)
        .to.match(/invalid_client/)
        .and.not.include('wrong');
    });

    for (const status of [500, 503]) {
      it(`a ${status} on upload is retryable`, async () => {
        fake.failNext('upload', { status, body: 'Internal Server Error' });
        const error = await expectRunError(createDropboxApp(endpoints).run(runContext(parse(accessSettings()))));
        expect(error.retryable).to.equal(true);
        expect(error.message).to.include(String(status));
      });
    }

    it('a 429 is retryable and passes on Retry-After', async () => {
      fake.failNext('upload', { status: 429, headers: { 'retry-after': '12' }, body: { error_summary: 'too_many_requests/..', error: { reason: { '.tag': 'too_many_requests' }, retry_after: 12 } } });
      const error = await expectRunError(createDropboxApp(endpoints).run(runContext(parse(accessSettings()))));
      expect(error.retryable).to.equal(true);
      expect(error.message).to.include('retry after 12 s');
    });

    it('a 5xx from the token endpoint is retryable', async () => {
      fake.failNext('token', { status: 502, body: 'Bad Gateway' });
      const error = await expectRunError(createDropboxApp(endpoints).run(runContext(parse(refreshSettings()))));
      expect(error.retryable).to.equal(true);
    });

    const pathErrors: [tag: string, retryable: boolean][] = [
      ['insufficient_space', false],
      ['disallowed_name', false],
      ['malformed_path', false],
      ['no_write_permission', false],
      ['too_many_write_operations', true],
    ];
    for (const [tag, retryable] of pathErrors) {
      it(`409 path/${tag} is ${retryable ? '' : 'not '}retryable`, async () => {
        fake.failNext('upload', { status: 409, body: { error_summary: `path/${tag}/...`, error: { '.tag': 'path', reason: { '.tag': tag }, upload_session_id: 'x' } } });
        const error = await expectRunError(createDropboxApp(endpoints).run(runContext(parse(accessSettings()))));
        expect(error.retryable).to.equal(retryable);
        expect(error.message).to.include(`path/${tag}`).and.include('/screenshots/www.example.com/4242.png');
      });
    }

    it('a 400 (malformed request) is not retryable', async () => {
      fake.failNext('upload', { status: 400, body: 'Error in call to API function "files/upload": HTTP header "Dropbox-API-Arg": could not decode input as JSON' });
      const error = await expectRunError(createDropboxApp(endpoints).run(runContext(parse(accessSettings()))));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.include('could not decode input as JSON');
    });

    it('Dropbox unreachable is retryable', async () => {
      const closed = await FakeDropbox.start();
      const url = closed.url;
      await closed.close();
      const error = await expectRunError(createDropboxApp({ dropboxApiUrl: url, dropboxContentUrl: url }).run(runContext(parse(accessSettings()))));
      expect(error.retryable).to.equal(true);
      expect(error.message).to.match(/could not reach Dropbox: ECONNREFUSED/);
    });

    it('an abort while a request is in flight ends the run at once', async () => {
      fake.delayNext('upload', 5000);
      const controller = new AbortController();
      const started = Date.now();
      const run = createDropboxApp(endpoints).run(runContext(parse(accessSettings()), { signal: controller.signal }));
      setTimeout(() => controller.abort(new Error('run timed out')), 100);
      const error = await expectRunError(run);
      expect(Date.now() - started).to.be.below(2000);
      expect(error.message).to.include('run timed out');
    });

    it('a cached access token refused early is dropped and refreshed once', async () => {
      const app = createDropboxApp(endpoints);
      const first = fake.issuedTokens.length;
      await app.run(runContext(parse(refreshSettings())));
      fake.validTokens.delete(fake.issuedTokens[first] as string); // revoked on Dropbox's side
      fake.reset();
      await app.run(runContext(parse(refreshSettings())));
      expect(fake.tokenRequests()).to.have.length(1);
      expect(fake.uploads().map((u) => u.headers.authorization)).to.deep.equal([
        `Bearer ${fake.issuedTokens[first]}`,
        `Bearer ${fake.issuedTokens[first + 1]}`,
        `Bearer ${fake.issuedTokens[first + 1]}`,
      ]);
    });
  });

  describe('pieces', () => {
    it('rewrites the SDK URLs onto the configured bases, path prefixes kept, other hosts refused', () => {
      const bases = { dropboxApiUrl: 'http://127.0.0.1:9/proxy/api/', dropboxContentUrl: 'http://127.0.0.1:9/proxy/content' };
      expect(rewriteDropboxUrl('https://api.dropboxapi.com/oauth2/token', bases)).to.deep.equal({ url: 'http://127.0.0.1:9/proxy/api/oauth2/token', kind: 'token' });
      expect(rewriteDropboxUrl('https://api.dropboxapi.com/2/users/get_current_account', bases)).to.deep.equal({ url: 'http://127.0.0.1:9/proxy/api/2/users/get_current_account', kind: 'api' });
      expect(rewriteDropboxUrl('https://content.dropboxapi.com/2/files/upload', bases)).to.deep.equal({ url: 'http://127.0.0.1:9/proxy/content/2/files/upload', kind: 'content' });
      expect(() => rewriteDropboxUrl('https://notify.dropboxapi.com/2/files/list_folder/longpoll', bases)).to.throw(AppRunError, /notify\.dropboxapi\.com/);
      expect(() => rewriteDropboxUrl('https://api.dropboxapi.com.evil.test/2/x', bases)).to.throw(AppRunError);
    });

    it('re-cuts a stream into fixed chunks', async () => {
      const out: number[] = [];
      for await (const chunk of rechunk([Buffer.alloc(3), Buffer.alloc(0), Buffer.alloc(10), Buffer.alloc(1)], 4)) out.push(chunk.length);
      expect(out).to.deep.equal([4, 4, 4, 2]);
    });

    it('links to the file in the Dropbox web UI', () => {
      expect(dropboxWebUrl('/a b/#1?.png')).to.equal('https://www.dropbox.com/home/a%20b/%231%3F.png');
    });

    it('refuses endpoints that are not http(s) URLs', () => {
      expect(() => createDropboxApp({ dropboxApiUrl: 'ftp://x', dropboxContentUrl: 'https://content.dropboxapi.com' })).to.throw(/dropboxApiUrl/);
    });
  });
});
