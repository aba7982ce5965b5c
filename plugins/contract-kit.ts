import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { deflateSync } from 'node:zlib';
import { z } from 'zod';
import { appFilename } from './app-filename.js';
import { APP_EVENT_TYPES, AppRunError, type AppEvent, type AppFile, type AppFiles, type AppOutput, type AppPlugin, type AppRunContext, type ScreenshotRecordData } from './contract.js';
import { secretFields } from './secret-setting.js';

/**
 * The contract test kit: plugin authors call `checkAppPlugin` from their own tests (any test runner; it
 * throws an AssertionError when the plugin breaks the contract), and every built-in passes it. It checks
 * the descriptor, the settings schema against the settings you give, a real run with a sample finished
 * screenshot and its files, a run with an already-aborted signal (it must reject), and, for plugins that
 * receive events, a delivery. It returns what the runs produced so your test can check where the bytes went.
 */

/** A real 2×2 PNG (red, green / blue, white): what the sample screenshot's image holds. */
export const SAMPLE_PNG: Buffer = encodePng(2, 2, [
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
  [255, 255, 255],
]);
export const SAMPLE_HTML: Buffer = Buffer.from('<!doctype html><html><head><title>Sample page</title></head><body><h1>Sample page</h1><p>Fresh bread daily from our bakery.</p></body></html>');

/** A finished Screenshot record with the fields plugins read (id, url, status, browser, country, tag, created_at…). */
export function sampleScreenshot(overrides: Partial<ScreenshotRecordData> = {}): ScreenshotRecordData {
  return {
    id: 4242,
    status: 'finished',
    url: 'https://www.example.com/menu?day=1',
    final_url: 'https://www.example.com/menu?day=1',
    response_code: 200,
    browser: 'chrome',
    country: 'us',
    tag: ['sample'],
    created_at: '2026-11-21T10:00:00.000Z',
    finished_at: '2026-11-21T10:00:02.000Z',
    screen_width: 1280,
    screen_height: 800,
    apps: [],
    links: ['https://www.example.com/'],
    ...overrides,
  };
}

/** In-memory files for a run: the sample PNG and HTML unless you give others. */
export function memoryFiles(files: { file: AppFile; body: Buffer }[] = sampleFiles()): AppFiles {
  const bodyOf = (file: AppFile): Buffer => {
    const found = files.find((f) => f.file.kind === file.kind && f.file.shot === file.shot);
    if (!found) throw new Error(`no ${file.kind} output`);
    return found.body;
  };
  return {
    list: () => files.map((f) => f.file),
    read: async (file) => bodyOf(file),
    stream: async (file) => Readable.from([bodyOf(file)]),
  };
}

export function sampleFiles(): { file: AppFile; body: Buffer }[] {
  return [
    { file: { kind: 'image', shot: 1, contentType: 'image/png', size: SAMPLE_PNG.length, extension: 'png' }, body: SAMPLE_PNG },
    { file: { kind: 'html', shot: null, contentType: 'text/html', size: SAMPLE_HTML.length, extension: 'html' }, body: SAMPLE_HTML },
  ];
}

/** A context as the runner builds it, for calling `run` directly in a test. */
export function runContext<S>(settings: S, opts: { screenshot?: ScreenshotRecordData; files?: AppFiles; signal?: AbortSignal; runFilename?: string; attempt?: number } = {}): AppRunContext<S> {
  const screenshot = opts.screenshot ?? sampleScreenshot();
  return {
    screenshot,
    files: opts.files ?? memoryFiles(),
    settings,
    signal: opts.signal ?? AbortSignal.timeout(30_000),
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    filename: (file, template) => appFilename(screenshot, file, opts.runFilename ?? '', template),
    // Tests talk to local servers: the kit's agents do not guard (the service's do).
    egress: { agent: (protocol) => (protocol === 'https:' ? https.globalAgent : http.globalAgent) },
    attempt: opts.attempt ?? 1,
    // The service signs this link; the kit's points nowhere real, but has the same shape.
    imageUrl: () => (screenshot.status === 'finished' ? `https://shotfarm.example/api/v1/screenshot/thumbnail?id=${screenshot.id}&token=0.sample` : null),
  };
}

/** The AppRunError a run rejects with; an AssertionError when it resolves or rejects with anything else. */
export async function expectRunError(run: Promise<unknown>): Promise<AppRunError> {
  try {
    await run;
  } catch (error) {
    assert.ok(error instanceof AppRunError, `expected an AppRunError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the run to fail');
}

export interface ContractCheckOptions {
  /** Settings a user could save (before parsing: what `POST /app/create` receives). */
  settings: Record<string, unknown>;
  /** Settings the schema must refuse, each with why (the message of a failed check). */
  invalidSettings?: { settings: Record<string, unknown>; why: string }[];
  /** Run with these instead of the sample record and files. */
  screenshot?: ScreenshotRecordData;
  files?: AppFiles;
  /** Skip the aborted-signal check (only for plugins that do no I/O, such as a local classifier). */
  noIo?: boolean;
}

export interface ContractCheckResult {
  output: AppOutput;
  /** The delivery of a screenshot.finished event, for plugins with `deliver`. */
  eventOutput: AppOutput | null;
}

const TYPE_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/;

export async function checkAppPlugin(plugin: AppPlugin, options: ContractCheckOptions): Promise<ContractCheckResult> {
  assert.match(plugin.type, TYPE_PATTERN, 'type: lower case letters, digits, - and _, starting with a letter, at most 64');
  assert.ok(plugin.name.trim().length > 0, 'name must not be empty');
  assert.ok(plugin.description.trim().length > 0, 'description must not be empty');
  assert.equal(typeof plugin.uploads, 'boolean', 'uploads must be true or false');
  assert.equal(typeof plugin.runsOnError, 'boolean', 'runsOnError must be true or false');
  assert.ok(plugin.settingsSchema instanceof z.ZodObject, 'settingsSchema must be a zod object schema');
  const jsonSchema = z.toJSONSchema(plugin.settingsSchema, { io: 'input', unrepresentable: 'any' });
  assert.equal(jsonSchema.type, 'object', 'the settings JSON Schema must describe an object');
  JSON.stringify(jsonSchema);
  for (const name of secretFields(plugin.settingsSchema)) {
    const property = (jsonSchema.properties?.[name] ?? {}) as { type?: unknown };
    assert.equal(property.type, 'string', `secret setting ${name} must be a string (it is stored encrypted as text)`);
  }

  const parsed = plugin.settingsSchema.strict().safeParse(options.settings);
  assert.ok(parsed.success, `the schema refuses the settings given: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}`);
  for (const bad of options.invalidSettings ?? []) {
    assert.ok(!plugin.settingsSchema.strict().safeParse(bad.settings).success, `the schema accepts settings it must refuse: ${bad.why}`);
  }
  const settings = parsed.data;

  const output = await plugin.run(runContext(settings, { screenshot: options.screenshot, files: options.files }));
  assertOutput(output, 'run');

  if (!options.noIo) {
    const aborted = new AbortController();
    aborted.abort(new Error('aborted by the contract kit'));
    await assert.rejects(
      plugin.run(runContext(settings, { screenshot: options.screenshot, files: options.files, signal: aborted.signal })),
      'run must reject when its signal is aborted (pass ctx.signal to every request)',
    );
  }

  let eventOutput: AppOutput | null = null;
  if (plugin.deliver) {
    if (plugin.wantsEvent) for (const type of APP_EVENT_TYPES) assert.equal(typeof plugin.wantsEvent(settings, type), 'boolean', 'wantsEvent must answer true or false');
    const event: AppEvent = { id: 'msg_contract_kit_1', type: 'screenshot.finished', timestamp: new Date(), data: options.screenshot ?? sampleScreenshot() };
    const { screenshot: _s, files: _f, filename: _n, ...rest } = runContext(settings);
    eventOutput = await plugin.deliver({ ...rest, event });
    assertOutput(eventOutput, 'deliver');
  }
  return { output, eventOutput };
}

function assertOutput(output: AppOutput, what: string): void {
  assert.ok(output !== null && typeof output === 'object', `${what} must resolve to an object ({output_url?, output_data?})`);
  for (const key of Object.keys(output)) assert.ok(key === 'output_url' || key === 'output_data', `${what} returned an unknown field: ${key}`);
  if (output.output_url !== undefined) assert.equal(typeof output.output_url, 'string', `${what}: output_url must be a string`);
  if (output.output_data !== undefined && output.output_data !== null) {
    assert.ok(typeof output.output_data === 'object' && !Array.isArray(output.output_data), `${what}: output_data must be an object or null`);
    assert.doesNotThrow(() => JSON.stringify(output.output_data), `${what}: output_data must be JSON`);
  }
}

/** A minimal PNG encoder for the sample image (8-bit RGB, no filter): the kit needs no image library. */
function encodePng(width: number, height: number, pixels: number[][]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer): number => {
    let c = 0xffffffff;
    for (const byte of buf) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(body));
    return Buffer.concat([head, body, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0); // filter type "none" for the row
    for (let x = 0; x < width; x++) rows.push(...(pixels[y * width + x] as number[]));
  }
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.from(rows))), chunk('IEND', Buffer.alloc(0))]);
}
