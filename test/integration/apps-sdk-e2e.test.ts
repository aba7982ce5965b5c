import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { htmlKey, shotKey } from '../../core/storage/storage-keys.js';
import { FakeDropbox } from '../support/fake-dropbox.js';
import { startFakeGoogleDrive, type FakeGoogleDrive } from '../support/fake-google-drive.js';
import { startFakeMicrosoftGraph, type FakeMicrosoftGraph } from '../support/fake-microsoft-graph.js';
import { FAKE_SLACK_TOKEN, FakeSlack } from '../support/fake-slack.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';
import { appsSettled as settledApps, createScreenshot, storedObject } from '../support/app-runs.js';

/**
 * The SDK-based built-in apps (slack, gdrive, dropbox, onedrive) and webcategorize, end to end through the
 * running service: a control plane with an embedded Chromium agent captures a local page, the service's
 * app runner runs each configured app for that screenshot against local fakes of the providers (the
 * SHOTFARM_*_URL endpoints point at them), and the bytes that arrive are the screenshot's stored ones.
 * Nothing here reaches the internet.
 */

const MASK = '********';

// Slack: a bot token the fake accepts, and one it refuses (invalid_auth).
const SLACK_BAD_TOKEN = 'xoxb-9999-refused-slacktoken';

// Google Drive: a service account with a real RSA key (the fake verifies the JWT's signature), a shared folder.
const { privateKey: SA_PRIVATE_KEY, publicKey: SA_PUBLIC_KEY } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const SA_EMAIL = 'uploader@shotfarm-e2e.iam.gserviceaccount.com';
const SA_JSON = JSON.stringify({
  type: 'service_account',
  project_id: 'shotfarm-e2e',
  private_key_id: 'e2e-key-1',
  private_key: SA_PRIVATE_KEY,
  client_email: SA_EMAIL,
  client_id: '100000000000000000042',
  // Unreachable on purpose: the configured SHOTFARM_GOOGLE_TOKEN_URL must win over the key's own token_uri.
  token_uri: 'https://token-uri-from-the-key.invalid/token',
});
const GOOGLE_OAUTH = { clientId: '4242-e2e.apps.googleusercontent.com', clientSecret: 'GOCSPX-e2e-client-secret', refreshToken: '1//e2e-refresh-token' };
const DRIVE_FOLDER = '1E2eFolderForScreenshots_abc-XYZ';

// Dropbox: an app whose refresh token can be exchanged; a long-lived access token the fake refuses.
const DROPBOX_APP = { key: 'e2eappkey', secret: 'e2e+app/secret&=?', refreshToken: 'e2e-dropbox-refresh_TOKEN-1' };
const DROPBOX_BAD_TOKEN = 'sl.e2e-refused-access-token';

// Microsoft Graph: a public client with a user's refresh token (delegated: the user's own drive).
const MS_CLIENT_ID = '11111111-2222-3333-4444-e2e000000001';
const MS_CLIENT_SECRET = 'e2e~graph.client.secret';
const MS_REFRESH_TOKEN = 'M.C1_e2e-refresh-token';

/**
 * The page captured: /echo renders the request it received, so a query of kitchen words gives the page
 * (and its URL) a recognisable topic for webcategorize.
 */
const RECIPE_QUERY =
  'recipe=how+to+bake+the+best+banana+bread+at+home+with+ripe+bananas+and+this+easy+recipe+for+the+whole+family' + '&ingredients=flour+sugar+butter+eggs+tablespoon+teaspoon&method=bake+in+the+oven';

describe('SDK-based apps end to end through the service (embedded Chromium, local fakes of Slack, Drive, Dropbox, Graph)', function () {
  this.timeout(60_000);
  let site: TestSite;
  let slack: FakeSlack;
  let drive: FakeGoogleDrive;
  let dropbox: FakeDropbox;
  let graph: FakeMicrosoftGraph;
  let api: TestApi;
  let acct: TestAccount;
  /** Every configuration made, by app_id: the settings sent, and the create call's answer. */
  const configs = new Map<string, { type: string; sent: Record<string, unknown>; created: any }>();

  const createApp = async (appId: string, type: string, settings: Record<string, unknown>): Promise<void> => {
    const res = await call(api.url, '/app/create', {
      method: 'POST',
      key: acct.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: appId, type, name: `e2e ${appId}`, settings }),
    });
    if (res.status !== 200) throw new Error(`creating ${appId} (${type}): ${res.status} ${JSON.stringify(res.body)}`);
    configs.set(appId, { type, sent: settings, created: res.body.data });
  };
  const screenshot = (query: string) => createScreenshot(api, acct.key, query);
  const stored = (key: string): Promise<Buffer> => storedObject(api, key);
  const appsSettled = (id: number) => settledApps(api, acct.key, id);
  const attemptsOf = async (screenshotId: number, appId: string): Promise<number> => {
    const config = configs.get(appId)?.created;
    const row = await api.database.db('app_runs').where({ screenshot_id: screenshotId, app_config_id: config.id }).first('attempts');
    return Number(row.attempts);
  };

  before(async () => {
    site = await TestSite.start();
    slack = await FakeSlack.start();
    drive = await startFakeGoogleDrive({ serviceAccounts: [{ clientEmail: SA_EMAIL, publicKey: SA_PUBLIC_KEY }], oauthClients: [GOOGLE_OAUTH] });
    drive.addFolder(DRIVE_FOLDER);
    dropbox = await FakeDropbox.start({ app: DROPBOX_APP });
    graph = await startFakeMicrosoftGraph({ clientId: MS_CLIENT_ID, clientSecret: MS_CLIENT_SECRET, refreshTokens: [MS_REFRESH_TOKEN], publicClient: true });
    api = await startTestApi(
      'pglite',
      {
        SHOTFARM_AGENT_BROWSERS: 'chrome',
        SHOTFARM_APP_MAX_ATTEMPTS: '2',
        SHOTFARM_APP_RETRY_SECONDS: '0.05',
        // Trailing slashes on purpose: the config strips them.
        SHOTFARM_SLACK_API_URL: `${slack.apiUrl}/`,
        SHOTFARM_GDRIVE_API_URL: `${drive.url}/`,
        SHOTFARM_GOOGLE_TOKEN_URL: drive.tokenUrl,
        SHOTFARM_DROPBOX_API_URL: `${dropbox.url}/`,
        SHOTFARM_DROPBOX_CONTENT_URL: dropbox.url,
        SHOTFARM_GRAPH_API_URL: `${graph.graphUrl}/`,
        SHOTFARM_MICROSOFT_LOGIN_URL: graph.loginUrl,
      },
      { agent: true },
    );
    acct = await api.account(1000);

    // Configurations the fakes accept…
    await createApp('e2e-slack', 'slack', { token: FAKE_SLACK_TOKEN, channel: '#screenshots', message: 'Shot {id} of {url}: {status}' });
    await createApp('e2e-gdrive', 'gdrive', { service_account_json: SA_JSON, folder_id: DRIVE_FOLDER });
    await createApp('e2e-dropbox', 'dropbox', { refresh_token: DROPBOX_APP.refreshToken, app_key: DROPBOX_APP.key, app_secret: DROPBOX_APP.secret });
    await createApp('e2e-onedrive', 'onedrive', { client_id: MS_CLIENT_ID, refresh_token: MS_REFRESH_TOKEN, drive_path: 'Screenshots/{domain}' });
    await createApp('e2e-categories', 'webcategorize', { max_categories: 3, min_score: 0.15 });
    // …and ones whose credentials the providers refuse (well-formed: the service accepts them).
    await createApp('e2e-slack-refused', 'slack', { token: SLACK_BAD_TOKEN, channel: 'C0123ABCDE' });
    await createApp('e2e-gdrive-refused', 'gdrive', {
      client_id: GOOGLE_OAUTH.clientId,
      client_secret: GOOGLE_OAUTH.clientSecret,
      refresh_token: '1//e2e-revoked-refresh-token',
      folder_id: DRIVE_FOLDER,
    });
    await createApp('e2e-dropbox-refused', 'dropbox', { access_token: DROPBOX_BAD_TOKEN });
    await createApp('e2e-onedrive-refused', 'onedrive', { client_id: MS_CLIENT_ID, refresh_token: 'M.C1_e2e-revoked-refresh-token' });
  });

  after(async () => {
    await api?.stop();
    await graph?.stop();
    await dropbox?.close();
    await drive?.stop();
    await slack?.stop();
    await site?.close();
  });

  it('one screenshot runs slack, gdrive, dropbox, onedrive and webcategorize: each fake receives the stored PNG, the record shows what each answered', async () => {
    const pageUrl = site.url(`/echo?${RECIPE_QUERY}`);
    const apps = ['e2e-slack', 'e2e-gdrive', 'e2e-dropbox', 'e2e-onedrive', 'e2e-categories'];
    const id = await screenshot(`url=${encodeURIComponent(pageUrl)}&html=true&${apps.map((a) => `apps=${a}`).join('&')}`);
    const info = await appsSettled(id);
    expect(info.status).to.equal('finished');
    expect(info.apps.map((a: any) => a.app_id).sort(), JSON.stringify(info.apps)).to.deep.equal([...apps].sort());
    for (const app of info.apps) expect(app, JSON.stringify(app)).to.include({ status: 'finished', error: '' });
    const run = (appId: string) => info.apps.find((a: any) => a.app_id === appId);

    const png = await stored(shotKey(id, 1));
    const html = await stored(htmlKey(id));
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'a PNG was stored').to.equal(true);
    expect(png.length).to.be.above(1000);
    expect(html.toString('utf8')).to.include('banana');

    // Slack: the PNG (only) reached the upload URL; the channel named #screenshots was found by name; the
    // record's output_url is the permalink files.completeUploadExternal answered.
    expect(slack.uploads, 'one file posted to Slack').to.have.length(1);
    const slackUpload = slack.uploads[0]!;
    expect(slackUpload.bytes.equals(png), 'the bytes Slack received are the stored PNG').to.equal(true);
    expect(slackUpload.filename).to.equal(`${id}-127.0.0.1.png`);
    expect(slack.completions).to.have.length(1);
    expect(slack.completions[0]).to.deep.include({ channel_id: 'C0SCREENS1', initial_comment: `Shot ${id} of ${pageUrl.replaceAll('&', '&amp;')}: finished` });
    for (const c of slack.calls) expect(c.authorization).to.equal(`Bearer ${FAKE_SLACK_TOKEN}`);
    const slackOrigin = slack.apiUrl.replace(/\/api$/, '');
    expect(run('e2e-slack')).to.include({ type: 'slack', output_url: `${slackOrigin}/files/U0FAKEBOT/${slackUpload.fileId}/${encodeURIComponent(slackUpload.filename)}` });
    expect(run('e2e-slack').output_data).to.deep.equal({ file_id: slackUpload.fileId, file_ids: [slackUpload.fileId], channel: 'C0SCREENS1' });

    // Google Drive: a JWT-bearer token from the configured token URL, then the PNG and the HTML into the folder.
    expect(drive.tokenRequests.map((t) => [t.grantType, t.status])).to.deep.equal([['urn:ietf:params:oauth:grant-type:jwt-bearer', 200]]);
    expect(drive.tokenRequests[0]!.jwtClaims).to.include({ iss: SA_EMAIL });
    expect(drive.files.map((f) => [f.name, f.parents])).to.deep.equal([
      [`${id}-127.0.0.1.png`, [DRIVE_FOLDER]],
      [`${id}-127.0.0.1.html`, [DRIVE_FOLDER]],
    ]);
    const [drivePng, driveHtml] = drive.files;
    expect(drivePng!.content.equals(png), 'the bytes Drive received are the stored PNG').to.equal(true);
    expect(driveHtml!.content.equals(html), 'the bytes Drive received are the stored HTML').to.equal(true);
    expect(run('e2e-gdrive')).to.include({ type: 'gdrive', output_url: `https://drive.google.com/file/d/${drivePng!.id}/view?usp=drivesdk` });
    expect(run('e2e-gdrive').output_data).to.deep.equal({
      files: [
        { id: drivePng!.id, name: `${id}-127.0.0.1.png`, size: png.length },
        { id: driveHtml!.id, name: `${id}-127.0.0.1.html`, size: html.length },
      ],
    });

    // Dropbox: the refresh token exchanged at the API base, the files uploaded to the content base.
    expect(dropbox.tokenRequests()).to.have.length(1);
    const dropboxPng = dropbox.file(`/screenshots/127.0.0.1/${id}.png`);
    const dropboxHtml = dropbox.file(`/screenshots/127.0.0.1/${id}.html`);
    expect(dropboxPng?.content.equals(png), 'the bytes Dropbox received are the stored PNG').to.equal(true);
    expect(dropboxHtml?.content.equals(html), 'the bytes Dropbox received are the stored HTML').to.equal(true);
    for (const upload of dropbox.uploads()) expect(upload.headers.authorization).to.equal(`Bearer ${dropbox.issuedTokens[0]}`);
    expect(run('e2e-dropbox')).to.include({ type: 'dropbox', output_url: `https://www.dropbox.com/home/screenshots/127.0.0.1/${id}.png` });
    expect(run('e2e-dropbox').output_data).to.deep.equal({
      files: [
        { kind: 'image', shot: 1, path_display: dropboxPng!.path_display, id: dropboxPng!.id, size: png.length },
        { kind: 'html', shot: null, path_display: dropboxHtml!.path_display, id: dropboxHtml!.id, size: html.length },
      ],
    });

    // OneDrive: a delegated token from the configured login URL, the files in the user's drive under drive_path.
    expect(graph.tokenRequests.map((t) => [t.tenant, t.form.grant_type, t.status])).to.deep.equal([['common', 'refresh_token', 200]]);
    const onedrivePng = graph.file('me', `Screenshots/127.0.0.1/${id}-127.0.0.1.png`);
    const onedriveHtml = graph.file('me', `Screenshots/127.0.0.1/${id}-127.0.0.1.html`);
    expect(onedrivePng?.bytes.equals(png), 'the bytes OneDrive received are the stored PNG').to.equal(true);
    expect(onedriveHtml?.bytes.equals(html), 'the bytes OneDrive received are the stored HTML').to.equal(true);
    expect(run('e2e-onedrive')).to.include({ type: 'onedrive', output_url: onedrivePng!.item.webUrl });
    expect(run('e2e-onedrive').output_data).to.deep.equal({
      files: [onedrivePng!.item, onedriveHtml!.item].map((item) => ({ id: item.id, name: item.name, size: item.size, webUrl: item.webUrl })),
    });

    // webcategorize: read the stored HTML, found the kitchen topic and the language.
    const categories = run('e2e-categories');
    expect(categories).to.include({ type: 'webcategorize', output_url: '' });
    expect(categories.output_data.categories).to.be.an('array').that.is.not.empty;
    expect(categories.output_data.language).to.be.a('string');
    expect(categories.output_data.basis).to.equal('html');
    expect(categories.output_data.categories[0].name, JSON.stringify(categories.output_data)).to.equal('food-drink');
    expect(categories.output_data.language).to.equal('en');

    // Each app ran once: nothing needed a retry.
    for (const appId of apps) expect(await attemptsOf(id, appId), appId).to.equal(1);
  });

  it('credentials the providers refuse end the runs as error after exactly one attempt, saying why; the screenshot stays finished', async () => {
    const slackCallsBefore = slack.calls.length;
    const slackUploadsBefore = slack.uploads.length;
    const driveUploadsBefore = drive.uploads.length;
    const driveTokensBefore = drive.tokenRequests.length;
    const dropboxRequestsBefore = dropbox.requests.length;
    const graphTokensBefore = graph.tokenRequests.length;
    const apps = ['e2e-slack-refused', 'e2e-gdrive-refused', 'e2e-dropbox-refused', 'e2e-onedrive-refused'];
    const id = await screenshot(`url=${encodeURIComponent(site.url('/echo?refused=1'))}&${apps.map((a) => `apps=${a}`).join('&')}`);
    const info = await appsSettled(id);
    expect(info.status).to.equal('finished');
    expect(info.apps.map((a: any) => a.app_id).sort()).to.deep.equal([...apps].sort());
    const run = (appId: string) => info.apps.find((a: any) => a.app_id === appId);
    for (const app of info.apps) {
      expect(app, JSON.stringify(app)).to.include({ status: 'error', output_url: '' });
      expect(app.error, app.app_id).to.not.include('gave up after');
    }

    // Slack: invalid_auth, one call (no retry), the token not in the message, nothing uploaded.
    expect(run('e2e-slack-refused').error).to.include('invalid_auth').and.not.include(SLACK_BAD_TOKEN);
    const slackCalls = slack.calls.slice(slackCallsBefore);
    expect(slackCalls.map((c) => [c.method, c.authorization])).to.deep.equal([['files.getUploadURLExternal', `Bearer ${SLACK_BAD_TOKEN}`]]);
    expect(slack.uploads).to.have.length(slackUploadsBefore);

    // Google: the refresh token is refused at the token endpoint (invalid_grant), once.
    expect(run('e2e-gdrive-refused').error).to.include('Google refused the credentials').and.not.include('e2e-revoked-refresh-token');
    expect(drive.tokenRequests.slice(driveTokensBefore).map((t) => [t.grantType, t.status])).to.deep.equal([['refresh_token', 400]]);
    expect(drive.uploads).to.have.length(driveUploadsBefore);

    // Dropbox: 401 invalid_access_token on the upload, once.
    expect(run('e2e-dropbox-refused').error)
      .to.match(/invalid_access_token|access token/i)
      .and.not.include(DROPBOX_BAD_TOKEN);
    const dropboxRequests = dropbox.requests.slice(dropboxRequestsBefore);
    expect(dropboxRequests.map((r) => r.pathname)).to.deep.equal(['/2/files/upload']);

    // Microsoft: the refresh token is refused (invalid_grant), once; Graph is never called with it.
    expect(run('e2e-onedrive-refused').error).to.include('invalid_grant').and.not.include('e2e-revoked-refresh-token');
    expect(graph.tokenRequests.slice(graphTokensBefore).map((t) => [t.form.grant_type, t.status])).to.deep.equal([['refresh_token', 400]]);

    for (const appId of apps) expect(await attemptsOf(id, appId), appId).to.equal(1);
  });

  it('GET /app/info of every configuration shows each secret setting as ******** and never the secret itself', async () => {
    const types = (await call(api.url, '/app/types', { key: acct.key })).body.data as any[];
    const secretsOf = (type: string): string[] => {
      const properties = types.find((t) => t.type === type)?.settings_schema?.properties ?? {};
      return Object.entries(properties)
        .filter(([, schema]) => (schema as any).writeOnly === true)
        .map(([name]) => name);
    };
    // The settings each type must treat as secret (the schema says so too).
    const EXPECTED_SECRETS: Record<string, string[]> = {
      slack: ['token'],
      gdrive: ['service_account_json', 'client_secret', 'refresh_token'],
      dropbox: ['access_token', 'refresh_token', 'app_secret'],
      onedrive: ['client_secret', 'refresh_token'],
      webcategorize: [],
    };
    for (const [type, secrets] of Object.entries(EXPECTED_SECRETS)) expect(secretsOf(type).sort(), type).to.deep.equal([...secrets].sort());

    expect(configs.size).to.equal(9);
    for (const [appId, { type, sent, created }] of configs) {
      const res = await call(api.url, `/app/info?id=${created.id}`, { key: acct.key });
      expect(res.status, appId).to.equal(200);
      const shown = res.body.data;
      expect(shown).to.include({ app_id: appId, type });
      const secretNames = EXPECTED_SECRETS[type]!;
      const secretValues = Object.entries(sent)
        .filter(([k]) => secretNames.includes(k))
        .map(([, v]) => String(v));
      for (const [name, value] of Object.entries(sent)) {
        if (secretNames.includes(name)) {
          expect(shown.settings[name], `${appId}: ${name} in /app/info`).to.equal(MASK);
          expect(created.settings[name], `${appId}: ${name} in the create answer`).to.equal(MASK);
        } else {
          expect(shown.settings[name], `${appId}: ${name}`).to.deep.equal(value);
        }
      }
      // No secret anywhere in either answer (nor a fragment of the service account's private key).
      for (const text of [JSON.stringify(res.body), JSON.stringify(created)]) {
        for (const value of secretValues) expect(text, `${appId} leaks a secret`).to.not.include(value);
        expect(text).to.not.include('PRIVATE KEY');
      }
    }
    // The list answers the same masked settings.
    const listed = (await call(api.url, '/app/list?limit=100', { key: acct.key })).body.data as any[];
    for (const [appId, { type, sent }] of configs) {
      const entry = listed.find((a) => a.app_id === appId);
      for (const name of EXPECTED_SECRETS[type]!.filter((n) => n in sent)) expect(entry.settings[name], `${appId}: ${name} in /app/list`).to.equal(MASK);
    }
  });
});
