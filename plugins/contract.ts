import type { Agent } from 'node:http';
import type { AppEndpoints } from '../core/config/config.js';
import type { Readable } from 'node:stream';
import type { z } from 'zod';

/**
 * The contract every app plugin implements. A plugin is a descriptor: what it is called, which settings
 * it takes (a zod object schema; `GET /app/types` shows it as JSON Schema), and `run`, called once per
 * finished (or failed) screenshot the app is attached to. Plugins see only this file's types: no
 * database, no queue. The control plane's runner (api/apps) queues, retries and records the runs.
 * A plugin author's guide with an example is in plugins/README.md.
 */

/** One stored output of the screenshot: an image per shot, the HTML, the Markdown, the PDF, the video. */
export interface AppFile {
  kind: 'image' | 'html' | 'markdown' | 'pdf' | 'video';
  /** 1-based shot number of an image; null for HTML, Markdown, PDF and video. */
  shot: number | null;
  contentType: string;
  size: number;
  /** File extension without the dot (`png`, `jpg`, `html`, `pdf`, `mp4`…). */
  extension: string;
}

/** Read access to the screenshot's stored outputs (nothing else of the store is reachable). */
export interface AppFiles {
  /** Every output, images first in shot order, then HTML, Markdown, PDF, video. */
  list(): readonly AppFile[];
  /** The whole file in memory: fine for images and HTML; use `stream` for videos. */
  read(file: AppFile): Promise<Buffer>;
  stream(file: AppFile): Promise<Readable>;
}

/** What a plugin logs goes to the service log, tagged with the app, the run and the screenshot. */
export interface AppLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The finished screenshot the app runs for: the API's Screenshot record (the spec's fields). */
export type ScreenshotRecordData = Record<string, unknown> & { id: number; status: 'finished' | 'error'; url: string; error?: string };

export interface AppRunContext<S> {
  /** The record as `GET /screenshot/info` answers it. A plugin runs for errors too when it says so (`runsOnError`). */
  screenshot: ScreenshotRecordData;
  files: AppFiles;
  /** The configuration's settings, validated by the plugin's schema, secrets decrypted. */
  settings: S;
  /** Aborted when the run's time is up or the service stops: pass it to every request. */
  signal: AbortSignal;
  log: AppLogger;
  /**
   * The path of `file` for this run: the run's own filename (a batch's template or CSV filename) wins,
   * else `template` (the plugin's path setting), else `{id}-{domain}`. Variables: {id} {domain} {shot}
   * {browser} {country} {yyyy} {mm} {dd} {date} {random} {tags} {url}; the name is sanitised (no `..`,
   * no control characters), `{id}` is added when missing so names stay unique, the extension is appended.
   */
  filename(file: AppFile, template?: string | null): string;
  /**
   * Connections to hosts the USER chose (a webhook URL, an S3 endpoint) go through these agents: they
   * refuse loopback, private, link-local and metadata addresses unless the operator allows them, checked
   * on the address connected to (literal or resolved), so DNS rebinding cannot go around them.
   * Operator-configured endpoints (Slack's API…) do not need them.
   */
  egress: AppEgress;
  /** Which attempt this is (1 = first); the runner retries retryable failures with backoff. */
  attempt: number;
  /**
   * A link to the screenshot's image (its first shot) that works without an API key until it expires
   * (SHOTFARM_IMAGE_URL_TTL_SECONDS): for receivers that fetch the image themselves. null when there is
   * no image (the screenshot failed) or, for an event, when the event is not about one screenshot.
   */
  imageUrl(): string | null;
}

/** The guarded HTTP(S) agents of a run: pass `agent(url.protocol)` to any HTTP client (node:http, minio…). */
export interface AppEgress {
  agent(protocol: string): Agent;
}

/** Events other than a screenshot's own run, for plugins that receive them (the webhook). */
export type AppEventType = 'screenshot.finished' | 'screenshot.failed' | 'batch.finished' | 'crawl.finished' | 'app.upload.finished' | 'app.upload.failed' | 'monitor.changed';
export const APP_EVENT_TYPES: readonly AppEventType[] = ['screenshot.finished', 'screenshot.failed', 'batch.finished', 'crawl.finished', 'app.upload.finished', 'app.upload.failed', 'monitor.changed'];

export interface AppEvent {
  /** Stable across retries of the same delivery (a receiver de-duplicates on it). */
  id: string;
  type: AppEventType;
  /** When the event happened (not when this attempt is made). */
  timestamp: Date;
  /** The Screenshot, Batch or Crawl record. */
  data: Record<string, unknown>;
}

export interface AppEventContext<S> extends Omit<AppRunContext<S>, 'screenshot' | 'files' | 'filename'> {
  event: AppEvent;
}

/** What a run produced: a link to the result and/or data, both shown on the record's AppStatus. */
export interface AppOutput {
  output_url?: string;
  output_data?: Record<string, unknown> | null;
}

/**
 * Throw this to fail a run. `retryable: false` for what another attempt cannot fix (a bad token, a
 * missing bucket); anything else thrown counts as retryable (timeouts, 5xx, connection resets).
 */
export class AppRunError extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppRunError';
    this.retryable = options.retryable ?? true;
  }
}

// The type parameter must accept every schema (inputs may differ from outputs: defaults, transforms).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SettingsSchema = z.ZodObject<any>;

export interface AppPlugin<Schema extends SettingsSchema = SettingsSchema> {
  /** Unique, lower case, `[a-z][a-z0-9_-]*`: what app configurations name in `type`. */
  type: string;
  /** Human name shown by `GET /app/types` and the dashboard. */
  name: string;
  /** One sentence: what it does. */
  description: string;
  /** The settings; mark secret fields with `secret()` (plugins/secret-setting.ts): encrypted at rest, masked in answers. */
  settingsSchema: Schema;
  /** True for apps that upload the outputs somewhere: their runs raise app.upload.finished/failed events. */
  uploads: boolean;
  /** True when the app also runs for screenshots that failed (a webhook says so; an upload has nothing to send). */
  runsOnError: boolean;
  run(ctx: AppRunContext<z.output<Schema>>): Promise<AppOutput>;
  /** Plugins that receive events (batch.finished, app.upload.*…) implement this. */
  deliver?(ctx: AppEventContext<z.output<Schema>>): Promise<AppOutput>;
  /** Which events a configuration wants (default: every event). */
  wantsEvent?(settings: z.output<Schema>, type: AppEventType): boolean;
}

/** What SDK-based built-ins read from the service's configuration: the base URLs of the services. */
export type { AppEndpoints };

/**
 * How plugins are exported by modules named in SHOTFARM_PLUGINS: `export default` (or `export const plugin`)
 * a descriptor, or a function that receives the endpoints and returns one.
 */
export type AppPluginModuleExport = AppPlugin | ((env: { endpoints: AppEndpoints }) => AppPlugin | Promise<AppPlugin>);

/** A descriptor with its schema's type checked against `run` (use it to declare a plugin). */
export function defineAppPlugin<Schema extends SettingsSchema>(plugin: AppPlugin<Schema>): AppPlugin<Schema> {
  return plugin;
}
