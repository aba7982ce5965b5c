import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { checkAppPlugin, expectRunError, memoryFiles, runContext, SAMPLE_HTML, SAMPLE_PNG, sampleFiles } from '../../plugins/contract-kit.js';
import type { AppFile } from '../../plugins/contract.js';
import { fixedChunks, SESSION_CHUNK_UNIT } from '../../plugins/onedrive/graph-upload.js';
import { createOneDriveApp, oneDriveSettingsSchema } from '../../plugins/onedrive/onedrive-app.js';
import { FAKE_SCOPE, startFakeMicrosoftGraph, type FakeMicrosoftGraph } from '../support/fake-microsoft-graph.js';
import { Readable } from 'node:stream';

const CLIENT_ID = '11111111-2222-3333-4444-555555555555';
const CLIENT_SECRET = 'fake~secret.for.tests';
const REFRESH_TOKEN = 'M.C1_fake-refresh-token';
const TENANT = 'contoso.onmicrosoft.com';
const DRIVE_ID = 'b!fakeDrive_0123-xyz';
const USER_ID = 'adele@contoso.example';

/** The sample screenshot (id 4242, https://www.example.com/…) with drive_path `Screenshots/{domain}`. */
const PNG_PATH = 'Screenshots/www.example.com/4242-www.example.com.png';
const HTML_PATH = 'Screenshots/www.example.com/4242-www.example.com.html';

const delegatedSettings = { client_id: CLIENT_ID, refresh_token: REFRESH_TOKEN, drive_path: 'Screenshots/{domain}' };
const appOnlySettings = { tenant: TENANT, client_id: CLIENT_ID, client_secret: CLIENT_SECRET, drive_id: DRIVE_ID, drive_path: 'Screenshots/{domain}' };

const parse = (settings: Record<string, unknown>) => oneDriveSettingsSchema.strict().parse(settings);

describe('onedrive app plugin', () => {
  let fake: FakeMicrosoftGraph;
  const app = (options: Parameters<typeof createOneDriveApp>[1] = {}) => createOneDriveApp({ microsoftGraphUrl: fake.graphUrl, microsoftLoginUrl: fake.loginUrl }, options);

  beforeEach(async () => {
    fake = await startFakeMicrosoftGraph({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      refreshTokens: [REFRESH_TOKEN],
      publicClient: true,
      driveIds: [DRIVE_ID],
      userIds: [USER_ID],
    });
  });
  afterEach(async () => {
    await fake.stop();
  });

  describe('contract', () => {
    const invalidSettings = [
      { settings: { client_id: CLIENT_ID }, why: 'neither client_secret nor refresh_token' },
      { settings: { tenant: TENANT, client_id: CLIENT_ID, client_secret: CLIENT_SECRET }, why: 'app-only without drive_id or user_id' },
      { settings: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, drive_id: DRIVE_ID }, why: 'app-only with the "common" tenant' },
      { settings: { ...delegatedSettings, conflict: 'overwrite' }, why: 'unknown conflict behaviour' },
    ];

    it('passes the contract kit with a refresh token (delegated): the files arrive in /me/drive under drive_path', async () => {
      const { output } = await checkAppPlugin(app(), { settings: delegatedSettings, invalidSettings });

      const png = fake.file('me', PNG_PATH);
      expect(png, "the PNG in the user's drive").to.not.equal(undefined);
      expect(png?.bytes.equals(SAMPLE_PNG)).to.equal(true);
      expect(fake.file('me', HTML_PATH)?.bytes.equals(SAMPLE_HTML)).to.equal(true);
      const upload = fake.uploads.find((u) => u.path === PNG_PATH);
      expect(upload).to.include({ drive: 'me', via: 'simple', contentType: 'image/png', conflictBehavior: 'rename' });

      // <microsoftGraphUrl>/me/drive/root:/<path>:/content, with the token from the refresh-token grant.
      const put = fake.graphRequests.find((r) => r.url.includes('.png'));
      expect(put?.method).to.equal('PUT');
      expect(put?.url).to.equal('/graph/v1.0/me/drive/root:/Screenshots/www.example.com/4242-www.example.com.png:/content?@microsoft.graph.conflictBehavior=rename');
      expect(put?.authorization).to.match(/^Bearer fake-at-/);
      expect(fake.tokenRequests[0]).to.deep.include({ tenant: 'common', status: 200 });
      expect(fake.tokenRequests[0]?.form).to.include({ grant_type: 'refresh_token', client_id: CLIENT_ID, refresh_token: REFRESH_TOKEN });
      expect(fake.tokenRequests[0]?.form.scope).to.equal(`${FAKE_SCOPE} offline_access`);

      expect(output.output_url).to.equal(png?.item.webUrl);
      const files = (output.output_data as { files: unknown[] }).files;
      expect(files).to.deep.equal(fake.uploads.map((u) => ({ id: u.item.id, name: u.item.name, size: u.item.size, webUrl: u.item.webUrl })));
      expect(files).to.have.length(2);
      // The aborted run of the kit uploaded nothing more.
      expect(fake.uploads).to.have.length(2);
    });

    it('passes the contract kit with a client secret (app-only): the files arrive in the drive named by drive_id', async () => {
      const { output } = await checkAppPlugin(app(), { settings: appOnlySettings, invalidSettings });

      const png = fake.file(`drives/${DRIVE_ID}`, PNG_PATH);
      expect(png?.bytes.equals(SAMPLE_PNG)).to.equal(true);
      expect(output.output_url).to.equal(png?.item.webUrl);
      expect(fake.graphRequests[0]?.url).to.equal(
        `/graph/v1.0/drives/${encodeURIComponent(DRIVE_ID)}/root:/Screenshots/www.example.com/4242-www.example.com.png:/content?@microsoft.graph.conflictBehavior=rename`,
      );
      expect(fake.tokenRequests[0]).to.deep.include({ tenant: TENANT, status: 200 });
      expect(fake.tokenRequests[0]?.form).to.include({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET, scope: FAKE_SCOPE });
    });

    it("uploads to a user's OneDrive with user_id (app-only)", async () => {
      const { drive_id: _d, ...settings } = appOnlySettings;
      const output = await app().run(runContext(parse({ ...settings, user_id: USER_ID })));
      expect(fake.file(`users/${USER_ID}`, PNG_PATH)?.bytes.equals(SAMPLE_PNG)).to.equal(true);
      expect(fake.graphRequests[0]?.url).to.match(/^\/graph\/v1\.0\/users\/adele%40contoso\.example\/drive\/root:\//);
      expect(output.output_url).to.be.a('string');
    });
  });

  describe('paths and names', () => {
    it("puts files at the drive's root when drive_path is empty, with the filename template", async () => {
      await app().run(runContext(parse({ ...delegatedSettings, drive_path: '', filename: '{date}_{id}' })));
      expect(fake.uploads.map((u) => u.path)).to.deep.equal(['2026-11-21_4242.png', '2026-11-21_4242.html']);
    });

    it("lets a batch's filename win and keeps drive_path as the folder; encodes what a name may hold", async () => {
      await app().run(runContext(parse({ ...delegatedSettings, drive_path: 'Shots #1/{yyyy}' }), { runFilename: 'menu 100%/{id} & co' }));
      expect(fake.uploads.map((u) => u.path)).to.deep.equal(['Shots #1/2026/menu 100%/4242 & co.png', 'Shots #1/2026/menu 100%/4242 & co.html']);
      expect(fake.graphRequests[0]?.url).to.include('/root:/Shots%20%231/2026/menu%20100%25/4242%20%26%20co.png:/content');
    });

    it('renames on a name conflict by default, replaces or fails when told', async () => {
      const settings = parse(delegatedSettings);
      await app().run(runContext(settings));
      await app().run(runContext(settings));
      expect(fake.uploads.map((u) => u.path).slice(2)).to.deep.equal(['Screenshots/www.example.com/4242-www.example.com 1.png', 'Screenshots/www.example.com/4242-www.example.com 1.html']);

      const first = fake.file('me', PNG_PATH)?.item.id;
      await app().run(runContext(parse({ ...delegatedSettings, conflict: 'replace' })));
      expect(fake.uploads[4]).to.include({ path: PNG_PATH, conflictBehavior: 'replace' });
      expect(fake.file('me', PNG_PATH)?.item.id).to.equal(first);

      const error = await expectRunError(app().run(runContext(parse({ ...delegatedSettings, conflict: 'fail' }))));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.match(/already exists.*conflict is "fail".*409/);
    });
  });

  describe('large files', () => {
    const video = (size: number): { file: AppFile; body: Buffer } => {
      const body = randomBytes(size);
      return { file: { kind: 'video', shot: null, contentType: 'video/mp4', size, extension: 'mp4' }, body };
    };

    it('uploads a 5 MB video through an upload session in 320 KiB-multiple ranges, intact', async () => {
      const big = video(5 * 1024 * 1024 + 12_345);
      const files = memoryFiles([...sampleFiles(), big]);
      const output = await app().run(runContext(parse(delegatedSettings), { files }));

      const upload = fake.uploads.find((u) => u.path.endsWith('.mp4'));
      expect(upload).to.include({ via: 'session', drive: 'me', path: 'Screenshots/www.example.com/4242-www.example.com.mp4', conflictBehavior: 'rename' });
      expect(upload?.bytes.equals(big.body), 'the bytes that arrived').to.equal(true);
      expect(upload?.chunks).to.deep.equal([10 * SESSION_CHUNK_UNIT, big.body.length - 10 * SESSION_CHUNK_UNIT]);
      // The pre-authenticated uploadUrl got no token; the session was created through Graph with one.
      expect(fake.sessionPuts.every((p) => p.authorization === undefined)).to.equal(true);
      const create = fake.graphRequests.find((r) => r.url.endsWith(':/createUploadSession'));
      expect(create).to.include({ method: 'POST', url: '/graph/v1.0/me/drive/root:/Screenshots/www.example.com/4242-www.example.com.mp4:/createUploadSession' });
      expect(create?.authorization).to.match(/^Bearer /);
      // The small files still went up in one request each; output_url is the image's.
      expect(fake.uploads.filter((u) => u.via === 'simple').map((u) => u.path)).to.deep.equal([PNG_PATH, HTML_PATH]);
      expect(output.output_url).to.equal(fake.file('me', PNG_PATH)?.item.webUrl);
      expect((output.output_data as { files: { name: string; size: number }[] }).files[2]).to.include({ name: '4242-www.example.com.mp4', size: big.body.length });
    });

    it('uses smaller ranges when configured, and a session for everything at or above the threshold', async () => {
      const big = video(SESSION_CHUNK_UNIT * 3);
      await app({ chunkBytes: SESSION_CHUNK_UNIT, simpleUploadMaxBytes: SESSION_CHUNK_UNIT }).run(runContext(parse(appOnlySettings), { files: memoryFiles([big]) }));
      expect(fake.uploads[0]).to.include({ via: 'session', drive: `drives/${DRIVE_ID}` });
      expect(fake.uploads[0]?.chunks).to.deep.equal([SESSION_CHUNK_UNIT, SESSION_CHUNK_UNIT, SESSION_CHUNK_UNIT]);
      expect(fake.uploads[0]?.bytes.equals(big.body)).to.equal(true);
    });

    it('stops when aborted mid-session, rejects, and cancels the session', async () => {
      const controller = new AbortController();
      fake.onSessionPut = () => controller.abort(new Error('run timed out'));
      const files = memoryFiles([video(5 * 1024 * 1024)]);
      const error = await expectRunError(app().run(runContext(parse(delegatedSettings), { files, signal: controller.signal })));
      expect(error.message).to.match(/aborted: run timed out/);
      expect(fake.uploads).to.have.length(0);
      for (let i = 0; i < 50 && fake.sessionDeletes.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(fake.sessionDeletes).to.have.length(1);
    });

    it('a failed range is retryable and the session is cancelled', async () => {
      fake.failNext('upload', 500);
      const error = await expectRunError(app().run(runContext(parse(delegatedSettings), { files: memoryFiles([video(5 * 1024 * 1024)]) })));
      expect(error.retryable).to.equal(true);
      for (let i = 0; i < 50 && fake.sessionDeletes.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(fake.sessionDeletes).to.have.length(1);
    });

    it('cuts a stream into exact chunks whatever pieces it arrives in', async () => {
      const data = randomBytes(1000);
      const pieces = [data.subarray(0, 7), data.subarray(7, 300), data.subarray(300, 301), data.subarray(301)];
      const chunks: Buffer[] = [];
      for await (const chunk of fixedChunks(Readable.from(pieces), 256)) chunks.push(chunk);
      expect(chunks.map((c) => c.length)).to.deep.equal([256, 256, 256, 232]);
      expect(Buffer.concat(chunks).equals(data)).to.equal(true);
    });
  });

  describe('failures', () => {
    it('a wrong client secret is not retryable (invalid_client), and nothing is uploaded', async () => {
      const error = await expectRunError(app().run(runContext(parse({ ...appOnlySettings, client_secret: 'wrong' }))));
      expect(error.retryable).to.equal(false);
      expect(error.message)
        .to.match(/invalid_client/)
        .and.to.match(/AADSTS7000215/)
        .and.not.to.include('wrong');
      expect(fake.graphRequests).to.have.length(0);
    });

    it('an expired or revoked refresh token is not retryable (invalid_grant)', async () => {
      const error = await expectRunError(app().run(runContext(parse({ ...delegatedSettings, refresh_token: 'revoked' }))));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.match(/invalid_grant/);
    });

    it('a 503 from the token endpoint or from Graph is retryable', async () => {
      fake.failNext('token', 503);
      const tokenError = await expectRunError(app().run(runContext(parse(delegatedSettings))));
      expect(tokenError.retryable).to.equal(true);

      fake.failNext('graph', 503, { headers: { 'retry-after': '5' } });
      const graphError = await expectRunError(app().run(runContext(parse(delegatedSettings))));
      expect(graphError.retryable).to.equal(true);
      expect(graphError.message).to.match(/503.*serviceNotAvailable/);
    });

    it('429 and a 5xx without a JSON body are retryable', async () => {
      fake.failNext('graph', 429, { body: { error: { code: 'activityLimitReached', message: 'throttled' } } });
      expect((await expectRunError(app().run(runContext(parse(delegatedSettings))))).retryable).to.equal(true);
      fake.failNext('graph', 502, { body: '<html>Bad gateway</html>' });
      const error = await expectRunError(app().run(runContext(parse(delegatedSettings))));
      expect(error.retryable).to.equal(true);
      expect(error.message).to.match(/answered 502/);
    });

    it('a network failure is retryable', async () => {
      const plugin = createOneDriveApp({ microsoftGraphUrl: fake.graphUrl, microsoftLoginUrl: fake.loginUrl });
      await plugin.run(runContext(parse(delegatedSettings))); // a token is cached now
      await fake.stop();
      const error = await expectRunError(plugin.run(runContext(parse(delegatedSettings))));
      expect(error.retryable).to.equal(true);
      expect(error.message).to.match(/could not be reached/);
    });

    it('403 and an unknown drive (404) are not retryable', async () => {
      fake.failNext('graph', 403, { body: { error: { code: 'accessDenied', message: 'Access denied' } } });
      const denied = await expectRunError(app().run(runContext(parse(appOnlySettings))));
      expect(denied.retryable).to.equal(false);
      expect(denied.message).to.match(/access denied \(403\)/);

      const missing = await expectRunError(app().run(runContext(parse({ ...appOnlySettings, drive_id: 'b!no-such-drive' }))));
      expect(missing.retryable).to.equal(false);
      expect(missing.message).to.match(/not found \(404\)/);
    });

    it('a cached token Graph refuses is renewed once; a token refused again is not retryable', async () => {
      const plugin = app();
      await plugin.run(runContext(parse(delegatedSettings)));
      expect(fake.tokenRequests).to.have.length(1); // the second file reused the token

      fake.revokeTokens();
      await plugin.run(runContext(parse(delegatedSettings)));
      expect(fake.tokenRequests).to.have.length(2);
      expect(fake.uploads).to.have.length(4);

      // The cached token is refused, and the renewed one too: a second 401 is the end.
      fake.failNext('graph', 401, { times: 2, body: { error: { code: 'InvalidAuthenticationToken', message: 'Access token has expired.' } } });
      const error = await expectRunError(plugin.run(runContext(parse(delegatedSettings))));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.match(/refused the access token \(401\)/);
    });

    it('/me with an app-only token would be a 400: the schema keeps app-only settings from getting there', () => {
      const result = oneDriveSettingsSchema.strict().safeParse({ tenant: TENANT, client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
      expect(result.success).to.equal(false);
    });
  });

  describe('settings schema', () => {
    const messages = (settings: Record<string, unknown>): string[] => {
      const result = oneDriveSettingsSchema.strict().safeParse(settings);
      expect(result.success, JSON.stringify(settings)).to.equal(false);
      return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };

    it('refuses settings without any credential', () => {
      expect(messages({ client_id: CLIENT_ID })).to.deep.equal(["client_secret: set client_secret (app-only access) or refresh_token (delegated access to a user's drive)"]);
    });

    it('refuses app-only settings that name no drive, or use a multi-tenant alias', () => {
      expect(messages({ tenant: TENANT, client_id: CLIENT_ID, client_secret: CLIENT_SECRET })).to.deep.equal([
        'drive_id: app-only access (client_secret without refresh_token) has no signed-in user: set drive_id or user_id to say whose drive',
      ]);
      expect(messages({ tenant: 'organizations', client_id: CLIENT_ID, client_secret: CLIENT_SECRET, user_id: USER_ID })).to.deep.equal([
        'tenant: app-only access needs the tenant id or domain of the directory, not "organizations"',
      ]);
      expect(messages({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, drive_id: DRIVE_ID })[0]).to.match(/^tenant: .*not "common"/);
    });

    it('refuses drive_id with user_id, bad values, unknown settings', () => {
      expect(messages({ ...delegatedSettings, drive_id: DRIVE_ID, user_id: USER_ID })).to.deep.equal(['user_id: set drive_id or user_id, not both']);
      expect(messages({ ...delegatedSettings, conflict: 'overwrite' })[0]).to.match(/^conflict: /);
      expect(messages({ ...delegatedSettings, tenant: 'contoso/../x' })[0]).to.match(/^tenant: must be a tenant id/);
      expect(messages({ ...delegatedSettings, refresh_token: '' })[0]).to.match(/^refresh_token: /);
      expect(messages({ ...delegatedSettings, drive_path: 'Shots/{hostname}' })[0]).to.match(/^drive_path: unknown variable \{hostname\}/);
      expect(messages({ ...delegatedSettings, drive_path: 'a/b/c/d' })[0]).to.match(/^drive_path: may have at most 3 folder levels/);
      expect(messages({ ...delegatedSettings, filename: '{nope}' })[0]).to.match(/^filename: unknown variable/);
      expect(messages({ ...delegatedSettings, folder: 'x' })[0]).to.match(/folder/);
    });

    it('accepts delegated settings with a secret (confidential client) and fills the defaults', () => {
      const settings = parse({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, refresh_token: REFRESH_TOKEN });
      expect(settings).to.deep.include({ tenant: 'common', drive_path: '', conflict: 'rename' });
    });

    it('shows the secrets as write-only passwords in the JSON Schema', async () => {
      const { z } = await import('zod');
      const schema = z.toJSONSchema(oneDriveSettingsSchema, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, Record<string, unknown>>; required?: string[] };
      expect(schema.properties.client_secret).to.include({ type: 'string', writeOnly: true, format: 'password' });
      expect(schema.properties.refresh_token).to.include({ type: 'string', writeOnly: true, format: 'password' });
      expect(schema.properties.drive_path?.description).to.match(/Screenshots\/\{domain\}/);
      expect(schema.required).to.deep.equal(['client_id']);
    });
  });
});
