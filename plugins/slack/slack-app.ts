import { LogLevel, WebClient, type FetchFunction, type FilesCompleteUploadExternalResponse, type Logger as SlackLogger } from '@slack/web-api';
import { z } from 'zod';
import { validateTemplate } from '../../core/batch/filename-template.js';
import { AppRunError, defineAppPlugin, type AppEndpoints, type AppFile, type AppLogger, type AppPlugin, type AppRunContext } from '../contract.js';
import { secret } from '../secret-setting.js';
import { ChannelNameCache, isChannelSetting, resolveChannel } from './slack-channel.js';
import { toAppRunError } from './slack-errors.js';
import { DEFAULT_MESSAGE_TEMPLATE, MAX_MESSAGE_TEMPLATE_LENGTH, MESSAGE_PLACEHOLDERS, renderSlackMessage, validateMessageTemplate } from './slack-message.js';

/**
 * The `slack` app: posts the screenshot's image to a Slack channel with a message, through the official
 * SDK (@slack/web-api) and Slack's external upload flow: `files.uploadV2` calls
 * files.getUploadURLExternal for each file, POSTs the bytes to the upload URL Slack returns, then
 * files.completeUploadExternal once, which shares the files to the channel with the message.
 *
 * Decisions:
 *  - What is posted: every image of the screenshot (one per shot), together in ONE message. HTML and
 *    video are never posted (Slack shows neither usefully; the record links to them). A screenshot without
 *    any image (a PDF-only capture) gets its PDF posted instead, which Slack previews; one with neither
 *    fails, not retryable.
 *  - The WebClient is built per run: its `fetch` carries the run's signal (the SDK has no per-call
 *    signal, but takes a fetch function), its own retries are off (`retries: 0`; the runner retries with
 *    backoff) and a 429 rejects at once instead of sleeping Retry-After (`rejectRateLimitedCalls`). The
 *    whole upload is also raced against the signal, so an abort rejects promptly whatever the SDK awaits.
 *    The SDK's log lines go to the run's log (debug dropped: it holds request bodies).
 *  - Base URL: SHOTFARM_SLACK_API_URL (AppEndpoints.slackApiUrl) with one trailing `/`, which the SDK
 *    appends method names to. Methods are never taken from absolute URLs (`allowAbsoluteUrls: false`).
 *  - File names: ctx.filename with the `filename` setting as the template (a batch's own filename wins,
 *    default `{id}-{domain}`); Slack has no folders, so a `/` in the rendered path becomes `_`. The file's
 *    title is its name; its alt text says what page it shows.
 *  - Message: `message` rendered by slack-message.ts (default "Screenshot of {url}"); an empty message posts
 *    the files alone.
 *  - Output: output_url is the first file's permalink; output_data `{file_id, file_ids, channel}` (the
 *    channel's ID, also when the setting named it).
 */

export const SLACK_APP_TYPE = 'slack';

export const slackSettingsSchema = z.object({
  token: secret(
    z
      .string()
      .trim()
      .min(1, 'the Slack bot token is required')
      .regex(/^(?:xoxe\.)?xox[a-z]-\S+$/, 'a Slack token looks like xoxb-… (bot token)')
      .describe('Bot token (xoxb-…) of a Slack app with the files:write scope'),
  ),
  channel: z
    .string()
    .trim()
    .min(1, 'the Slack channel is required')
    .refine(isChannelSetting, 'a channel ID (C0123ABCDE) or a channel name in lower case (#general)')
    .describe('Channel ID (C0123ABCDE), or name (#general; needs the channels:read scope, and groups:read for private channels)'),
  message: z
    .string()
    .max(MAX_MESSAGE_TEMPLATE_LENGTH)
    .superRefine((value, check) => {
      const problem = validateMessageTemplate(value);
      if (problem) check.addIssue({ code: 'custom', message: problem });
    })
    .default(DEFAULT_MESSAGE_TEMPLATE)
    .describe(`Text posted with the image; placeholders: ${MESSAGE_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}`),
  filename: z
    .string()
    .trim()
    .min(1)
    .superRefine((value, check) => {
      const problem = validateTemplate(value);
      if (problem) check.addIssue({ code: 'custom', message: problem });
    })
    .nullish()
    .describe('File name template (default {id}-{domain}); variables as for batch file names'),
});

export type SlackSettings = z.output<typeof slackSettingsSchema>;

export function createSlackApp(endpoints: Pick<AppEndpoints, 'slackApiUrl'>): AppPlugin<typeof slackSettingsSchema> {
  const slackApiUrl = `${endpoints.slackApiUrl.replace(/\/+$/, '')}/`;
  const channelNames = new ChannelNameCache();

  return defineAppPlugin({
    type: SLACK_APP_TYPE,
    name: 'Slack',
    description: 'Posts the screenshot image to a Slack channel, with a message.',
    settingsSchema: slackSettingsSchema,
    uploads: true,
    runsOnError: false,

    async run(ctx) {
      ctx.signal.throwIfAborted();
      const { settings } = ctx;
      const files = filesToPost(ctx.files.list());
      if (files.length === 0) throw new AppRunError('the screenshot has no image (nor PDF) to post to Slack', { retryable: false });

      // Read before any Slack call: a storage failure stays what it is (retryable), not a "Slack" error.
      const uploads = await abortable(
        Promise.all(
          files.map(async (file) => {
            const filename = ctx.filename(file, settings.filename).replaceAll('/', '_');
            return { file: await ctx.files.read(file), filename, title: filename, alt_text: altText(ctx, file, files.length) };
          }),
        ),
        ctx.signal,
      );

      const client = slackClient(slackApiUrl, settings.token, ctx);
      let channelLabel = settings.channel;
      let cacheKey: string | null = null;
      try {
        const channel = await abortable(resolveChannel(client, settings.token, settings.channel, channelNames), ctx.signal);
        channelLabel = channel.label;
        cacheKey = channel.cacheKey;

        const message = renderSlackMessage(settings.message, ctx.screenshot);
        const result = await abortable(
          client.files.uploadV2({
            channel_id: channel.id,
            ...(message ? { initial_comment: message } : {}),
            file_uploads: uploads,
          }),
          ctx.signal,
        );

        const posted = ((result as { files?: FilesCompleteUploadExternalResponse[] }).files ?? []).flatMap((c) => c.files ?? []);
        const fileIds = posted.map((f) => f.id).filter((id): id is string => typeof id === 'string');
        const [firstId] = fileIds;
        if (!firstId) throw new AppRunError('Slack completed the upload without returning the file', { retryable: true });
        ctx.log.info('posted to Slack', { channel: channel.id, file_ids: fileIds });
        const permalink = posted[0]?.permalink;
        return {
          ...(typeof permalink === 'string' ? { output_url: permalink } : {}),
          output_data: { file_id: firstId, file_ids: fileIds, channel: channel.id },
        };
      } catch (error) {
        const failure = toAppRunError(error, { channel: channelLabel, signal: ctx.signal });
        if (cacheKey && failure instanceof AppRunError && !failure.retryable) channelNames.forget(cacheKey);
        throw failure;
      }
    },
  });
}

/** The images in shot order; the PDF when there is no image; never HTML or video. */
export function filesToPost(all: readonly AppFile[]): AppFile[] {
  const images = all.filter((f) => f.kind === 'image');
  if (images.length > 0) return images;
  return all.filter((f) => f.kind === 'pdf').slice(0, 1);
}

function slackClient(slackApiUrl: string, token: string, ctx: AppRunContext<SlackSettings>): WebClient {
  const { signal } = ctx;
  return new WebClient(token, {
    slackApiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    allowAbsoluteUrls: false,
    logger: slackLogger(ctx.log),
    // Node's Response has Headers#entries; the DOM lib this project compiles with (no DOM.Iterable) does not say so.
    fetch: async (url, init) => (await fetch(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal })) as unknown as Awaited<ReturnType<FetchFunction>>,
  });
}

function altText(ctx: AppRunContext<SlackSettings>, file: AppFile, count: number): string {
  const what = file.kind === 'image' ? 'Screenshot' : 'PDF';
  const shot = file.kind === 'image' && count > 1 && file.shot !== null ? ` (shot ${file.shot} of ${count})` : '';
  return `${what} of ${ctx.screenshot.url}${shot}`.slice(0, 1000);
}

/** The SDK's logger interface over the run's log; debug lines (request bodies) are dropped. */
function slackLogger(log: AppLogger): SlackLogger {
  const line = (msg: unknown[]): string => `slack sdk: ${msg.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).join(' ')}`;
  return {
    debug: () => undefined,
    info: (...msg: unknown[]) => log.info(line(msg)),
    warn: (...msg: unknown[]) => log.warn(line(msg)),
    error: (...msg: unknown[]) => log.error(line(msg)),
    setLevel: () => undefined,
    getLevel: () => LogLevel.INFO,
    setName: () => undefined,
  };
}

/** `promise`, or the signal's reason as soon as it aborts (the promise's own outcome is then ignored). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
