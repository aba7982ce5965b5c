import { expect } from 'chai';
import { z } from 'zod';
import { checkAppPlugin, expectRunError, memoryFiles, runContext, SAMPLE_HTML, SAMPLE_PNG, sampleFiles, sampleScreenshot } from '../../plugins/contract-kit.js';
import { AppRunError, type AppEndpoints, type AppFile } from '../../plugins/contract.js';
import { createSlackApp, filesToPost, slackSettingsSchema } from '../../plugins/slack/slack-app.js';
import { ChannelNameCache } from '../../plugins/slack/slack-channel.js';
import { DEFAULT_MESSAGE_TEMPLATE, MAX_MESSAGE_LENGTH, renderSlackMessage, validateMessageTemplate } from '../../plugins/slack/slack-message.js';
import { FAKE_SLACK_TOKEN, FakeSlack } from '../support/fake-slack.js';

/**
 * The slack app against a local fake of Slack's Web API (test/support/fake-slack.ts), through the real
 * SDK: the contract kit, the bytes and arguments that arrive, name lookup, and how failures are classed.
 */

const CHANNEL = 'C0123ABCDE';
const settingsFor = (over: Record<string, unknown> = {}) => slackSettingsSchema.parse({ token: FAKE_SLACK_TOKEN, channel: CHANNEL, ...over });

function endpoints(slackApiUrl: string): AppEndpoints {
  return {
    slackApiUrl,
    googleDriveApiUrl: 'http://127.0.0.1:9/drive',
    googleTokenUrl: 'http://127.0.0.1:9/token',
    dropboxApiUrl: 'http://127.0.0.1:9/dropbox',
    dropboxContentUrl: 'http://127.0.0.1:9/content',
    microsoftGraphUrl: 'http://127.0.0.1:9/graph',
    microsoftLoginUrl: 'http://127.0.0.1:9/login',
  };
}

function image(shot: number, body: Buffer): { file: AppFile; body: Buffer } {
  return { file: { kind: 'image', shot, contentType: 'image/png', size: body.length, extension: 'png' }, body };
}

describe('slack app (plugins/slack)', () => {
  let slack: FakeSlack;
  beforeEach(async () => {
    slack = await FakeSlack.start();
  });
  afterEach(async () => {
    await slack.stop();
  });

  describe('the contract kit', () => {
    it('passes checkAppPlugin; the PNG reaches the upload URL and the message, channel and name reach completeUploadExternal', async () => {
      const plugin = createSlackApp(endpoints(slack.apiUrl));
      const { output } = await checkAppPlugin(plugin, {
        settings: { token: FAKE_SLACK_TOKEN, channel: CHANNEL, message: 'Shot {id} of {url} ({status}) → {final_url}' },
        invalidSettings: [
          { settings: { token: FAKE_SLACK_TOKEN }, why: 'channel missing' },
          { settings: { token: FAKE_SLACK_TOKEN, channel: '' }, why: 'channel empty' },
          { settings: { token: '', channel: CHANNEL }, why: 'token empty' },
          { settings: { token: '   ', channel: CHANNEL }, why: 'token blank' },
          { settings: { channel: CHANNEL }, why: 'token missing' },
          { settings: { token: 'hunter2', channel: CHANNEL }, why: 'not a Slack token' },
          { settings: { token: FAKE_SLACK_TOKEN, channel: 'General Chat' }, why: 'neither a channel ID nor a channel name' },
          { settings: { token: FAKE_SLACK_TOKEN, channel: CHANNEL, message: 'See {ulr}' }, why: 'unknown placeholder' },
          { settings: { token: FAKE_SLACK_TOKEN, channel: CHANNEL, filename: '{nope}' }, why: 'unknown filename variable' },
          { settings: { token: FAKE_SLACK_TOKEN, channel: CHANNEL, thread: '1.2' }, why: 'unknown setting' },
        ],
      });

      // The kit's aborted run reached nothing: one getUploadURLExternal and one completeUploadExternal in all.
      expect(slack.methods).to.deep.equal(['files.getUploadURLExternal', 'files.completeUploadExternal']);
      for (const call of slack.calls) expect(call.authorization).to.equal(`Bearer ${FAKE_SLACK_TOKEN}`);
      expect(slack.calls[0]!.params).to.include({ filename: '4242-www.example.com.png', length: String(SAMPLE_PNG.length) });

      // The image only (the sample's HTML is not posted), byte for byte.
      expect(slack.uploads).to.have.length(1);
      expect(slack.uploads[0]!.bytes.equals(SAMPLE_PNG)).to.equal(true);
      expect(slack.uploads[0]!.altText).to.equal('Screenshot of https://www.example.com/menu?day=1');

      expect(slack.completions).to.have.length(1);
      const completion = slack.completions[0]!;
      expect(completion.channel_id).to.equal(CHANNEL);
      expect(completion.initial_comment).to.equal('Shot 4242 of https://www.example.com/menu?day=1 (finished) → https://www.example.com/menu?day=1');
      expect(completion.files).to.deep.equal([{ id: slack.uploads[0]!.fileId, title: '4242-www.example.com.png' }]);

      const fileId = slack.uploads[0]!.fileId;
      expect(output).to.deep.equal({
        output_url: `${slack.apiUrl.replace(/\/api$/, '')}/files/U0FAKEBOT/${fileId}/4242-www.example.com.png`,
        output_data: { file_id: fileId, file_ids: [fileId], channel: CHANNEL },
      });
    });

    it('describes itself: type slack, uploads, not run on errors, the token secret', () => {
      const plugin = createSlackApp(endpoints(slack.apiUrl));
      expect(plugin).to.include({ type: 'slack', name: 'Slack', uploads: true, runsOnError: false });
      const schema = z.toJSONSchema(plugin.settingsSchema, { io: 'input' }) as { properties: Record<string, Record<string, unknown>>; required: string[] };
      expect(schema.required).to.have.members(['token', 'channel']);
      expect(schema.properties.token).to.include({ type: 'string', writeOnly: true, format: 'password' });
      expect(schema.properties.message).to.include({ default: DEFAULT_MESSAGE_TEMPLATE });
    });
  });

  describe('settings', () => {
    const accepts = (settings: Record<string, unknown>): boolean => slackSettingsSchema.strict().safeParse(settings).success;

    it('refuses a missing channel and an empty token', () => {
      expect(accepts({ token: FAKE_SLACK_TOKEN })).to.equal(false);
      expect(accepts({ token: FAKE_SLACK_TOKEN, channel: ' ' })).to.equal(false);
      expect(accepts({ token: '', channel: CHANNEL })).to.equal(false);
      expect(accepts({ channel: CHANNEL })).to.equal(false);
      const issues = slackSettingsSchema.safeParse({ token: '', channel: CHANNEL }).error?.issues ?? [];
      expect(issues.map((i) => i.path.join('.'))).to.include('token');
    });

    it('takes channel IDs and lower-case names, with or without #', () => {
      for (const channel of ['C0123ABCDE', 'G01ABCDEFGH', 'D0123456789', 'general', '#general', 'team-ops_2', 'équipe', '#開発']) {
        expect(accepts({ token: FAKE_SLACK_TOKEN, channel }), channel).to.equal(true);
      }
      for (const channel of ['General', '#two words', 'a,b', `#${'x'.repeat(81)}`, '<#C0123ABCDE>']) {
        expect(accepts({ token: FAKE_SLACK_TOKEN, channel }), channel).to.equal(false);
      }
    });

    it('takes bot, user and rotating tokens; defaults the message; an empty message is allowed', () => {
      for (const token of ['xoxb-1-2-abc', 'xoxp-1-2-abc', 'xoxe.xoxb-1-abc']) expect(accepts({ token, channel: CHANNEL }), token).to.equal(true);
      expect(settingsFor().message).to.equal(DEFAULT_MESSAGE_TEMPLATE);
      expect(settingsFor({ message: '' }).message).to.equal('');
      expect(settingsFor({ token: `  ${FAKE_SLACK_TOKEN}\n` }).token).to.equal(FAKE_SLACK_TOKEN);
    });
  });

  describe('what is posted', () => {
    it("escapes the record's values for Slack, not the template; missing values are empty", async () => {
      const plugin = createSlackApp(endpoints(slack.apiUrl));
      const screenshot = sampleScreenshot({ url: 'https://example.com/?a=1&b=<b>', final_url: '', response_code: null });
      await plugin.run(runContext(settingsFor({ message: '<!here> {url} [{final_url}] {response_code} {tags}' }), { screenshot }));
      expect(slack.completions[0]!.initial_comment).to.equal('<!here> https://example.com/?a=1&amp;b=&lt;b&gt; []  sample');
    });

    it('posts files alone when the message is empty', async () => {
      await createSlackApp(endpoints(slack.apiUrl)).run(runContext(settingsFor({ message: '' })));
      expect(slack.completions[0]!.initial_comment).to.equal(null);
    });

    it('names files by the filename setting, flattened (Slack has no folders)', async () => {
      await createSlackApp(endpoints(slack.apiUrl)).run(runContext(settingsFor({ filename: '{domain}/{date}/shot-{id}' })));
      expect(slack.uploads[0]!.filename).to.equal('www.example.com_2026-11-21_shot-4242.png');
      expect(slack.completions[0]!.files[0]!.title).to.equal('www.example.com_2026-11-21_shot-4242.png');
    });

    it("a batch's own filename wins over the setting", async () => {
      await createSlackApp(endpoints(slack.apiUrl)).run(runContext(settingsFor({ filename: 'ignored-{id}' }), { runFilename: 'menu-{id}' }));
      expect(slack.uploads[0]!.filename).to.equal('menu-4242.png');
    });

    it('posts every shot in one message, in shot order; HTML stays behind', async () => {
      const second = Buffer.concat([SAMPLE_PNG, Buffer.from('second')]);
      const files = memoryFiles([image(1, SAMPLE_PNG), image(2, second), sampleFiles()[1]!]);
      const output = await createSlackApp(endpoints(slack.apiUrl)).run(runContext(settingsFor(), { files }));
      expect(slack.uploads.map((u) => u.filename).sort()).to.deep.equal(['4242-www.example.com-2.png', '4242-www.example.com.png']);
      const byName = new Map(slack.uploads.map((u) => [u.filename, u.bytes]));
      expect(byName.get('4242-www.example.com.png')!.equals(SAMPLE_PNG)).to.equal(true);
      expect(byName.get('4242-www.example.com-2.png')!.equals(second)).to.equal(true);
      expect(slack.completions).to.have.length(1);
      expect(slack.completions[0]!.files.map((f) => f.title)).to.deep.equal(['4242-www.example.com.png', '4242-www.example.com-2.png']);
      expect(slack.uploads.every((u) => !u.bytes.equals(SAMPLE_HTML))).to.equal(true);
      expect((output.output_data as { file_ids: string[] }).file_ids).to.have.length(2);
    });

    it('posts the PDF when there is no image; fails, not retryable, when there is neither', async () => {
      const pdf = Buffer.from('%PDF-1.7\n%fake\n');
      const pdfOnly = memoryFiles([{ file: { kind: 'pdf', shot: null, contentType: 'application/pdf', size: pdf.length, extension: 'pdf' }, body: pdf }]);
      await createSlackApp(endpoints(slack.apiUrl)).run(runContext(settingsFor(), { files: pdfOnly }));
      expect(slack.uploads[0]!.filename).to.equal('4242-www.example.com.pdf');
      expect(slack.uploads[0]!.bytes.equals(pdf)).to.equal(true);

      const htmlOnly = memoryFiles([sampleFiles()[1]!]);
      const error = await expectRunError(createSlackApp(endpoints(slack.apiUrl)).run(runContext(settingsFor(), { files: htmlOnly })));
      expect(error.retryable).to.equal(false);
      expect(slack.calls).to.have.length(1 + 1); // only the PDF run's two calls
    });

    it('picks images, else the PDF, never HTML or video', () => {
      const f = (kind: AppFile['kind'], shot: number | null = null): AppFile => ({ kind, shot, contentType: 'x', size: 1, extension: 'x' });
      expect(filesToPost([f('image', 1), f('html'), f('pdf'), f('video')]).map((x) => x.kind)).to.deep.equal(['image']);
      expect(filesToPost([f('html'), f('pdf'), f('video')]).map((x) => x.kind)).to.deep.equal(['pdf']);
      expect(filesToPost([f('html'), f('video')])).to.deep.equal([]);
    });

    it('works with a base URL that already ends in /', async () => {
      await createSlackApp(endpoints(`${slack.apiUrl}/`)).run(runContext(settingsFor()));
      expect(slack.methods).to.deep.equal(['files.getUploadURLExternal', 'files.completeUploadExternal']);
    });
  });

  describe('channel names', () => {
    it('finds a private channel by name across conversations.list pages, then remembers it', async () => {
      const plugin = createSlackApp(endpoints(slack.apiUrl));
      const output = await plugin.run(runContext(settingsFor({ channel: '#secret-team' })));
      expect(slack.methods.filter((m) => m === 'conversations.list').length).to.be.greaterThan(1);
      expect(slack.calls[0]!.params).to.include({ types: 'public_channel,private_channel', exclude_archived: 'true' });
      expect(slack.completions[0]!.channel_id).to.equal('C0PRIVATE1');
      expect(output.output_data).to.include({ channel: 'C0PRIVATE1' });

      const before = slack.calls.length;
      await plugin.run(runContext(settingsFor({ channel: 'secret-team' })));
      expect(slack.methods.slice(before)).to.deep.equal(['files.getUploadURLExternal', 'files.completeUploadExternal']);
    });

    it('without groups:read it looks among public channels only', async () => {
      await slack.stop();
      slack = await FakeSlack.start({ scopes: ['files:write', 'channels:read'] });
      const plugin = createSlackApp(endpoints(slack.apiUrl));
      await plugin.run(runContext(settingsFor({ channel: 'screenshots' })));
      expect(slack.completions[0]!.channel_id).to.equal('C0SCREENS1');

      const error = await expectRunError(plugin.run(runContext(settingsFor({ channel: 'secret-team' }))));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.contain('#secret-team').and.contain('channel_not_found');
    });

    it('an unknown or archived name is channel_not_found, not retryable, and nothing is uploaded', async () => {
      for (const channel of ['no-such-channel', 'old-stuff']) {
        const error = await expectRunError(createSlackApp(endpoints(slack.apiUrl)).run(runContext(settingsFor({ channel }))));
        expect(error.retryable, channel).to.equal(false);
        expect(error.message).to.contain(`#${channel}`);
      }
      expect(slack.uploads).to.deep.equal([]);
    });

    it('forgets a remembered channel when posting to it fails for good', () => {
      const now = { t: 0 };
      const cache = new ChannelNameCache(() => now.t);
      const key = cache.key(FAKE_SLACK_TOKEN, 'general');
      expect(key).to.not.contain(FAKE_SLACK_TOKEN);
      cache.set(key, 'C0123ABCDE');
      expect(cache.get(key)).to.equal('C0123ABCDE');
      expect(cache.get(cache.key('xoxb-other', 'general'))).to.equal(null);
      now.t += 11 * 60_000;
      expect(cache.get(key)).to.equal(null);
      cache.set(key, 'C0123ABCDE');
      cache.forget(key);
      expect(cache.get(key)).to.equal(null);
    });
  });

  describe('failures', () => {
    const run = (over: Record<string, unknown> = {}, signal?: AbortSignal) => createSlackApp(endpoints(slack.apiUrl)).run(runContext(settingsFor(over), { signal }));

    it('a bad token: invalid_auth, not retryable, the token not in the message', async () => {
      const error = await expectRunError(run({ token: 'xoxb-9999-wrong-token' }));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.contain('invalid_auth').and.not.contain('xoxb-9999');
      expect(slack.calls).to.have.length(1);
      expect(slack.uploads).to.deep.equal([]);
    });

    it('channel_not_found and not_in_channel from completeUploadExternal are not retryable and name the channel', async () => {
      const missing = await expectRunError(run({ channel: 'C0NOSUCH99' }));
      expect(missing.retryable).to.equal(false);
      expect(missing.message).to.contain('channel_not_found').and.contain('C0NOSUCH99');

      const outside = await expectRunError(run({ channel: 'C0OUTSIDE1' }));
      expect(outside.retryable).to.equal(false);
      expect(outside.message).to.contain('not_in_channel').and.contain('/invite');
    });

    it('a revoked token, a missing scope, not_authed: not retryable', async () => {
      slack.failNext('files.getUploadURLExternal', { error: 'token_revoked' });
      expect((await expectRunError(run())).retryable).to.equal(false);
      slack.failNext('files.getUploadURLExternal', { error: 'not_authed' });
      expect((await expectRunError(run())).retryable).to.equal(false);

      await slack.stop();
      slack = await FakeSlack.start({ scopes: ['channels:read'] });
      const scope = await expectRunError(run());
      expect(scope.retryable).to.equal(false);
      expect(scope.message).to.contain('missing_scope').and.contain('files:write');
    });

    it('HTTP 500: retryable, one request (the SDK does not retry on its own)', async () => {
      slack.failNext('files.getUploadURLExternal', { status: 500 });
      const error = await expectRunError(run());
      expect(error.retryable).to.equal(true);
      expect(error.message).to.contain('500');
      expect(slack.calls).to.have.length(1);
    });

    it('HTTP 429 with Retry-After: retryable at once (the SDK does not sleep through it)', async () => {
      slack.failNext('files.completeUploadExternal', { status: 429, retryAfter: 30 });
      const started = Date.now();
      const error = await expectRunError(run());
      expect(Date.now() - started).to.be.below(5_000);
      expect(error.retryable).to.equal(true);
      expect(error.message).to.contain('429');
      expect(slack.methods).to.deep.equal(['files.getUploadURLExternal', 'files.completeUploadExternal']);
    });

    it('HTTP 429 without Retry-After, `ratelimited`, `internal_error`: retryable', async () => {
      slack.failNext('files.getUploadURLExternal', { status: 429 });
      expect((await expectRunError(run())).retryable).to.equal(true);
      slack.failNext('files.getUploadURLExternal', { error: 'ratelimited' });
      expect((await expectRunError(run())).retryable).to.equal(true);
      slack.failNext('files.completeUploadExternal', { error: 'internal_error' });
      expect((await expectRunError(run())).retryable).to.equal(true);
    });

    it('the upload URL answering 503: retryable, the URL not in the message; the next attempt succeeds', async () => {
      slack.failNext('upload', { status: 503 });
      const error = await expectRunError(run());
      expect(error.retryable).to.equal(true);
      expect(error.message).to.not.contain('/upload/v1/');
      expect(slack.completions).to.deep.equal([]);

      const output = await run();
      expect(slack.completions).to.have.length(1);
      expect(output.output_data).to.include({ channel: CHANNEL });
    });

    it('Slack unreachable: retryable', async () => {
      const url = slack.apiUrl;
      await slack.stop();
      const error = await expectRunError(createSlackApp(endpoints(url)).run(runContext(settingsFor())));
      expect(error.retryable).to.equal(true);
      expect(error.message).to.contain('could not reach Slack');
      slack = await FakeSlack.start(); // for afterEach
    });

    it("an abort in the middle of a request rejects promptly with the signal's reason", async () => {
      slack.hangNext('files.completeUploadExternal');
      const controller = new AbortController();
      const reason = new Error('run deadline');
      const pending = run({}, controller.signal);
      while (slack.uploads.length === 0) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50));
      controller.abort(reason);
      const started = Date.now();
      let caught: unknown;
      try {
        await pending;
      } catch (e) {
        caught = e;
      }
      expect(caught).to.equal(reason);
      expect(Date.now() - started).to.be.below(1_000);
      expect(slack.completions).to.deep.equal([]);
    });

    it('a storage failure stays as it is (retryable) and calls nothing', async () => {
      const broken = {
        ...memoryFiles(),
        read: async () => {
          throw new Error('object store: connection reset');
        },
      };
      let caught: unknown;
      try {
        await createSlackApp(endpoints(slack.apiUrl)).run(runContext(settingsFor(), { files: broken }));
      } catch (e) {
        caught = e;
      }
      expect((caught as Error).message).to.equal('object store: connection reset');
      expect(caught).to.not.be.instanceOf(AppRunError);
      expect(slack.calls).to.deep.equal([]);
    });

    it('an already aborted signal calls nothing', async () => {
      const controller = new AbortController();
      controller.abort(new Error('stopping'));
      let caught: unknown;
      try {
        await run({}, controller.signal);
      } catch (e) {
        caught = e;
      }
      expect((caught as Error).message).to.equal('stopping');
      expect(slack.calls).to.deep.equal([]);
    });
  });
});

describe('slack message templates (unit)', () => {
  const screenshot = sampleScreenshot();

  it('fills every placeholder from the record', () => {
    expect(renderSlackMessage('{id} {url} {final_url} {status} {response_code} {browser} {country} {tags} {created_at}', screenshot)).to.equal(
      '4242 https://www.example.com/menu?day=1 https://www.example.com/menu?day=1 finished 200 chrome us sample 2026-11-21T10:00:00.000Z',
    );
  });

  it('keeps other braces as text and refuses unknown lower-case placeholders', () => {
    expect(renderSlackMessage('{} {1} { url } {URL}', screenshot)).to.equal('{} {1} { url } {URL}');
    expect(validateMessageTemplate('Done: {url} {} {1}')).to.equal(null);
    expect(validateMessageTemplate('Done: {link} {ulr}')).to.contain('{link}').and.contain('{ulr}');
  });

  it('cuts long messages without splitting an entity', () => {
    // The cut falls inside `&amp;` (the URL's `&` escaped): the partial entity goes too.
    const long = renderSlackMessage(`${'x'.repeat(MAX_MESSAGE_LENGTH - 20)}{url}`, sampleScreenshot({ url: 'https://e.com/?a&b' }));
    expect(long.length).to.be.at.most(MAX_MESSAGE_LENGTH);
    expect(long.endsWith('https://e.com/?a…')).to.equal(true);
  });
});
