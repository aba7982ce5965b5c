import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import { expect } from 'chai';
import { z } from 'zod';
import type { AppRunError } from '../../plugins/contract.js';
import { type AppPlugin } from '../../plugins/contract.js';
import { checkAppPlugin, expectRunError, memoryFiles, runContext, SAMPLE_HTML, SAMPLE_PNG, sampleFiles } from '../../plugins/contract-kit.js';
import { createGdriveApp, driveFileName, driveQueryString } from '../../plugins/gdrive/gdrive-app.js';
import { clearDriveTokenCache, DRIVE_SCOPE } from '../../plugins/gdrive/gdrive-auth.js';
import { gdriveSettingsSchema } from '../../plugins/gdrive/gdrive-settings.js';
import { GOOGLE_TOKEN_AUDIENCE, startFakeGoogleDrive, type FakeGoogleDrive } from '../support/fake-google-drive.js';

/** The test's service account: a real RSA key pair, made here; the fake verifies assertions with the public half. */
function makeServiceAccount(email: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const keyFile = {
    type: 'service_account',
    project_id: 'shotfarm-test',
    private_key_id: 'test-key-1',
    private_key: privateKey,
    client_email: email,
    client_id: '100000000000000000001',
    // A real key names Google's endpoint; an unreachable one here proves the configured token URL wins.
    token_uri: 'https://token-uri-from-the-key.invalid/token',
  };
  return { email, privateKey, publicKey, json: JSON.stringify(keyFile) };
}

const SA = makeServiceAccount('uploader@shotfarm-test.iam.gserviceaccount.com');
const OTHER_KEY = makeServiceAccount(SA.email); // same account, a key Google does not know
const OAUTH = { clientId: '1234-test.apps.googleusercontent.com', clientSecret: 'GOCSPX-test-secret', refreshToken: '1//test-refresh-token' };
const FOLDER = '1FolderIdForScreenshots_abc-XYZ';

const oauthSettings = (overrides: Record<string, unknown> = {}) => ({
  client_id: OAUTH.clientId,
  client_secret: OAUTH.clientSecret,
  refresh_token: OAUTH.refreshToken,
  folder_id: FOLDER,
  ...overrides,
});
const saSettings = (overrides: Record<string, unknown> = {}) => ({ service_account_json: SA.json, folder_id: FOLDER, ...overrides });

/** Runs the plugin the way the runner does; the settings go through the schema first. */
async function run(plugin: AppPlugin, settings: Record<string, unknown>, opts: Parameters<typeof runContext>[1] = {}) {
  return plugin.run(runContext(plugin.settingsSchema.parse(settings), opts));
}

function runError(plugin: AppPlugin, settings: Record<string, unknown>, opts: Parameters<typeof runContext>[1] = {}): Promise<AppRunError> {
  return expectRunError(run(plugin, settings, opts));
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('gdrive app (fake Google token endpoint and Drive API)', () => {
  let fake: FakeGoogleDrive;
  let plugin: AppPlugin;

  beforeEach(async () => {
    clearDriveTokenCache();
    fake = await startFakeGoogleDrive({ serviceAccounts: [{ clientEmail: SA.email, publicKey: SA.publicKey }], oauthClients: [OAUTH] });
    fake.addFolder(FOLDER);
    plugin = createGdriveApp({ googleDriveApiUrl: fake.url, googleTokenUrl: fake.tokenUrl });
  });
  afterEach(async () => {
    await fake.stop();
  });

  const invalidSettings = [
    { settings: { folder_id: FOLDER }, why: 'no authentication at all' },
    { settings: { ...oauthSettings(), service_account_json: SA.json }, why: 'both a service account and OAuth' },
    { settings: { service_account_json: SA.json, client_id: OAUTH.clientId }, why: 'a service account and part of OAuth' },
    { settings: { client_id: OAUTH.clientId, refresh_token: OAUTH.refreshToken }, why: 'OAuth without client_secret' },
    { settings: { service_account_json: '{"client_email": "x@y"}' }, why: 'a key file without private_key' },
    { settings: { service_account_json: 'not json' }, why: 'a key that is not JSON' },
    { settings: { ...saSettings(), folder_id: 'https://drive.google.com/drive/folders/abc' }, why: 'a folder URL instead of its ID' },
    { settings: { ...saSettings(), path: '{id}-{nope}' }, why: 'an unknown template variable' },
  ];

  it('passes the contract kit with a service account: the JWT is verified, the multipart body arrives whole', async () => {
    const { output } = await checkAppPlugin(plugin, { settings: saSettings(), invalidSettings });

    // One token request, to the configured URL (not the key's token_uri), a jwt-bearer grant signed by the key.
    expect(fake.tokenRequests).to.have.length(1);
    const token = fake.tokenRequests[0]!;
    expect(token.status).to.equal(200);
    expect(token.grantType).to.equal('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(token.jwtHeader).to.include({ alg: 'RS256' });
    expect(token.jwtClaims).to.include({ iss: SA.email, aud: GOOGLE_TOKEN_AUDIENCE, scope: DRIVE_SCOPE });

    // The contract's run uploaded the PNG and the HTML; its aborted run uploaded nothing.
    expect(fake.uploads).to.have.length(2);
    const [png, html] = fake.uploads;
    expect(png!.status).to.equal(200);
    expect(png!.query.get('uploadType')).to.equal('multipart');
    expect(png!.contentType).to.match(/^multipart\/related; boundary=/);
    expect(png!.authorization).to.match(/^Bearer ya29\.fake-/);
    expect(png!.metadataContentType).to.equal('application/json');
    expect(png!.metadata).to.deep.equal({ name: '4242-www.example.com.png', parents: [FOLDER] });
    expect(png!.mediaContentType).to.equal('image/png');
    expect(png!.media.equals(SAMPLE_PNG), 'the PNG bytes that arrived').to.equal(true);
    expect(html!.metadata).to.deep.equal({ name: '4242-www.example.com.html', parents: [FOLDER] });
    expect(html!.mediaContentType).to.equal('text/html');
    expect(html!.media.equals(SAMPLE_HTML)).to.equal(true);

    const [pngFile, htmlFile] = fake.files;
    expect(output.output_url).to.equal(`https://drive.google.com/file/d/${pngFile!.id}/view?usp=drivesdk`);
    expect(output.output_data).to.deep.equal({
      files: [
        { id: pngFile!.id, name: '4242-www.example.com.png', size: SAMPLE_PNG.length },
        { id: htmlFile!.id, name: '4242-www.example.com.html', size: SAMPLE_HTML.length },
      ],
    });
  });

  it('passes the contract kit with OAuth: the refresh token is exchanged at the configured token URL', async () => {
    const { output } = await checkAppPlugin(plugin, { settings: oauthSettings(), invalidSettings });
    expect(fake.tokenRequests).to.have.length(1);
    const form = fake.tokenRequests[0]!.form;
    expect(Object.fromEntries(form)).to.deep.equal({ grant_type: 'refresh_token', refresh_token: OAUTH.refreshToken, client_id: OAUTH.clientId, client_secret: OAUTH.clientSecret });
    expect(fake.uploads.map((u) => u.status)).to.deep.equal([200, 200]);
    expect(fake.uploads[0]!.metadata).to.deep.equal({ name: '4242-www.example.com.png', parents: [FOLDER] });
    expect(fake.uploads[0]!.media.equals(SAMPLE_PNG)).to.equal(true);
    expect(output.output_url).to.equal(`https://drive.google.com/file/d/${fake.files[0]!.id}/view?usp=drivesdk`);
  });

  it('refuses both or neither authentication method with a message that says so', () => {
    const both = gdriveSettingsSchema.safeParse({ ...oauthSettings(), service_account_json: SA.json });
    expect(both.success).to.equal(false);
    expect(both.error!.issues.map((i) => i.message).join()).to.match(/either service_account_json, or client_id .* not both/);
    const neither = gdriveSettingsSchema.safeParse({ folder_id: FOLDER });
    expect(neither.success).to.equal(false);
    expect(neither.error!.issues.map((i) => i.message).join()).to.match(/give service_account_json .*, or client_id, client_secret and refresh_token/);
    const partial = gdriveSettingsSchema.safeParse({ client_id: OAUTH.clientId });
    expect(partial.error!.issues.map((i) => i.path.join('.'))).to.deep.equal(['client_secret', 'refresh_token']);
    const wrongType = gdriveSettingsSchema.safeParse({ service_account_json: JSON.stringify({ type: 'authorized_user', client_id: 'x', client_secret: 'y', refresh_token: 'z' }) });
    expect(wrongType.error!.issues[0]!.message).to.match(/not "service_account"/);
    const badKey = gdriveSettingsSchema.safeParse({ service_account_json: JSON.stringify({ client_email: SA.email, private_key: 'not a key' }) });
    expect(badKey.error!.issues[0]!.message).to.match(/not a PEM private key/);
    // Secrets are marked (masked in answers, encrypted at rest); the JSON Schema says which.
    const schema = z.toJSONSchema(gdriveSettingsSchema, { io: 'input' }) as any;
    expect(schema.properties.service_account_json).to.include({ writeOnly: true, format: 'password' });
  });

  it('a refused OAuth client (401 from the token endpoint) fails the run for good, asked once', async () => {
    const err = await runError(plugin, oauthSettings({ client_secret: 'GOCSPX-wrong' }));
    expect(err.retryable).to.equal(false);
    expect(err.message).to.match(/Google refused the credentials \(invalid_client: Unauthorized\)/);
    expect(err.message).not.to.include('GOCSPX');
    expect(fake.tokenRequests.map((t) => t.status)).to.deep.equal([401]); // no library retry
    expect(fake.uploads).to.have.length(0);
  });

  it('a revoked refresh token and a service account key Google does not know fail for good', async () => {
    const revoked = await runError(plugin, oauthSettings({ refresh_token: '1//revoked' }));
    expect(revoked.retryable).to.equal(false);
    expect(revoked.message).to.match(/invalid_grant: Token has been expired or revoked/);
    const unknownKey = await runError(plugin, saSettings({ service_account_json: OTHER_KEY.json }));
    expect(unknownKey.retryable).to.equal(false);
    expect(unknownKey.message).to.match(/invalid_grant: Invalid JWT Signature\..*uploader@shotfarm-test/);
    expect(fake.tokenRequests.map((t) => t.status)).to.deep.equal([400, 400]);
  });

  it('a 5xx or 429 from the token endpoint is retryable, asked once', async () => {
    fake.failNextTokens(1, { status: 503, error: 'temporarily_unavailable' });
    const err = await runError(plugin, saSettings());
    expect(err.retryable).to.equal(true);
    expect(err.message).to.match(/token endpoint answered HTTP 503/);
    fake.failNextTokens(1, { status: 429, error: 'rate_limit_exceeded' });
    expect((await runError(plugin, oauthSettings())).retryable).to.equal(true);
    expect(fake.tokenRequests.map((t) => t.status)).to.deep.equal([503, 429]);
  });

  it('a 500 from the upload is retryable, and the library did not retry it itself', async () => {
    fake.failNextUploads(1, { status: 500, reason: 'backendError', message: 'Backend Error' });
    const err = await runError(plugin, saSettings());
    expect(err.retryable).to.equal(true);
    expect(err.message).to.match(/Google Drive answered HTTP 500 \(backendError: Backend Error\)/);
    expect(fake.uploads.map((u) => u.status)).to.deep.equal([500]);
  });

  it('classifies Drive refusals: 403 rate limits and 429 retry, other 403s and a missing folder do not', async () => {
    const cases: { fault: Parameters<FakeGoogleDrive['failNextUploads']>[1]; retryable: boolean; message: RegExp }[] = [
      { fault: { status: 403, reason: 'userRateLimitExceeded', message: 'User Rate Limit Exceeded' }, retryable: true, message: /rate-limited/ },
      { fault: { status: 403, reason: 'rateLimitExceeded', message: 'Rate Limit Exceeded' }, retryable: true, message: /rate-limited/ },
      { fault: { status: 429, reason: 'rateLimitExceeded', message: 'Rate Limit Exceeded' }, retryable: true, message: /HTTP 429/ },
      { fault: { status: 403, reason: 'insufficientFilePermissions', message: 'The user does not have sufficient permissions for this file.' }, retryable: false, message: /needs write access/ },
      { fault: { status: 403, reason: 'storageQuotaExceeded', message: 'Service Accounts do not have storage quota.' }, retryable: false, message: /shared drive/ },
      { fault: { status: 400, reason: 'badRequest', message: 'Bad Request' }, retryable: false, message: /HTTP 400/ },
    ];
    for (const c of cases) {
      fake.failNextUploads(1, c.fault);
      const err = await runError(plugin, saSettings());
      expect(err.retryable, `${c.fault.status} ${c.fault.reason}`).to.equal(c.retryable);
      expect(err.message).to.match(c.message);
    }
    const missing = await runError(plugin, saSettings({ folder_id: 'NoSuchFolder123' }));
    expect(missing.retryable).to.equal(false);
    expect(missing.message).to.match(/did not find folder NoSuchFolder123 \(notFound: File not found: NoSuchFolder123\.\).*share the folder with uploader@/);
    expect(fake.tokenRequests, 'the token was cached between runs').to.have.length(1);
  });

  it('network failures are retryable (token endpoint and Drive API unreachable)', async () => {
    const port = await closedPort();
    const noToken = createGdriveApp({ googleDriveApiUrl: fake.url, googleTokenUrl: `http://127.0.0.1:${port}/token` });
    const a = await runError(noToken, oauthSettings());
    expect(a.retryable).to.equal(true);
    expect(a.message).to.match(/could not reach Google's token endpoint .*ECONNREFUSED/);
    const noDrive = createGdriveApp({ googleDriveApiUrl: `http://127.0.0.1:${port}`, googleTokenUrl: fake.tokenUrl });
    const b = await runError(noDrive, oauthSettings());
    expect(b.retryable).to.equal(true);
    expect(b.message).to.match(/could not reach Google Drive: .*ECONNREFUSED/);
  });

  it("an abort stops a hanging token request and rejects with the signal's reason", async () => {
    fake.hangTokens = true;
    const started = Date.now();
    const signal = AbortSignal.timeout(300);
    const error = await run(plugin, saSettings(), { signal }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).to.equal(signal.reason);
    expect(Date.now() - started).to.be.below(5000);
    expect(fake.tokenRequests).to.have.length(1);
  });

  it('uploads to the root without folder_id, names files from the path template with / replaced, and serves shared drives', async () => {
    await run(plugin, oauthSettings({ folder_id: undefined, path: '{domain}/{id}' }));
    expect(fake.uploads[0]!.metadata).to.deep.equal({ name: 'www.example.com_4242.png' });
    expect(fake.uploads[1]!.metadata).to.deep.equal({ name: 'www.example.com_4242.html' });

    fake.addFolder('SharedDriveFolder1', { sharedDrive: true });
    const refused = await runError(plugin, oauthSettings({ folder_id: 'SharedDriveFolder1' }));
    expect(refused.retryable).to.equal(false);
    expect(refused.message).to.match(/set supports_all_drives/);
    const out = await run(plugin, oauthSettings({ folder_id: 'SharedDriveFolder1', supports_all_drives: true }));
    expect(fake.uploads.at(-1)!.query.get('supportsAllDrives')).to.equal('true');
    expect((out.output_data as any).files).to.have.length(2);
  });

  it("a run's own filename wins over path; output_url is the first image even when it is not the first file", async () => {
    const files = sampleFiles().reverse(); // HTML first
    const out = await run(plugin, saSettings({ path: 'ignored-{id}' }), { files: memoryFiles(files), runFilename: 'batch/menu' });
    expect(fake.uploads.map((u) => u.metadata.name)).to.deep.equal(['batch_menu-4242.html', 'batch_menu-4242.png']);
    const png = fake.files.find((f) => f.name.endsWith('.png'))!;
    expect(out.output_url).to.equal(`https://drive.google.com/file/d/${png.id}/view?usp=drivesdk`);
  });

  it('reuses a cached token, and a cached token Drive refuses is forgotten (retryable), the next run gets a new one', async () => {
    await run(plugin, saSettings());
    await run(plugin, saSettings());
    expect(fake.tokenRequests).to.have.length(1);
    fake.revokeAccessTokens();
    const err = await runError(plugin, saSettings());
    expect(err.retryable).to.equal(true);
    expect(err.message).to.match(/refused a cached access token/);
    await run(plugin, saSettings());
    expect(fake.tokenRequests).to.have.length(2);
    // A token freshly issued and refused is not the cache's fault: not retryable.
    clearDriveTokenCache();
    fake.failNextUploads(1, { status: 401, reason: 'authError', message: 'Invalid Credentials' });
    const fresh = await runError(plugin, saSettings());
    expect(fresh.retryable).to.equal(false);
  });

  it('a retried run reuses what an earlier attempt uploaded instead of uploading it twice', async () => {
    // Attempt 1: the PNG is stored, the HTML's upload fails.
    let calls = 0;
    const flaky = memoryFiles();
    const files = {
      ...flaky,
      stream: async (f: Parameters<typeof flaky.stream>[0]) => {
        calls++;
        if (calls === 2) fake.failNextUploads(1, { status: 503, reason: 'backendError', message: 'Backend Error' });
        return flaky.stream(f);
      },
    };
    const first = await runError(plugin, saSettings(), { files });
    expect(first.retryable).to.equal(true);
    expect(fake.files.map((f) => f.name)).to.deep.equal(['4242-www.example.com.png']);
    // Attempt 2: finds the PNG (same name and size) and uploads only the HTML.
    const out = await run(plugin, saSettings(), { attempt: 2 });
    expect(fake.files.map((f) => f.name)).to.deep.equal(['4242-www.example.com.png', '4242-www.example.com.html']);
    expect(fake.uploads.map((u) => u.metadata.name)).to.deep.equal(['4242-www.example.com.png', '4242-www.example.com.html', '4242-www.example.com.html']);
    expect(fake.listRequests.map((q) => q.get('q'))).to.deep.equal([
      `name = '4242-www.example.com.png' and '${FOLDER}' in parents and trashed = false`,
      `name = '4242-www.example.com.html' and '${FOLDER}' in parents and trashed = false`,
    ]);
    expect((out.output_data as any).files.map((f: any) => f.id)).to.deep.equal(fake.files.map((f) => f.id));
  });

  it('escapes names in Drive queries and flattens paths', () => {
    expect(driveQueryString("it's a \\ test")).to.equal("it\\'s a \\\\ test");
    expect(driveFileName('a/b\\c.png')).to.equal('a_b_c.png');
  });
});
