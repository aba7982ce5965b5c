import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import sharp from 'sharp';
import { MONITOR_OWN_PARAMS } from '../monitors/monitor-params.js';
import { argumentsToFields, optionProperties, paramProperties, toolInput, urlSchema, type JsonSchema } from './mcp-tool-inputs.js';
import { McpCallError, type ApiRecord, type ShotfarmCalls } from './shotfarm-calls.js';

/**
 * shotfarm's MCP tools (beyond-v1.md part 7), written once over ShotfarmCalls: `shotfarm mcp` (stdio) runs
 * them against the HTTP API, /api/v1/mcp against the control plane's services. The low-level SDK Server is
 * used, not McpServer, because McpServer takes zod shapes and validates with them: here the input schemas
 * are derived as JSON Schema from the option table, and the arguments are read by the API's own readers
 * (one validation path, the API's field messages).
 */

export interface McpToolsOptions {
  /** the longest side of an image answered (SHOTFARM_MCP_MAX_IMAGE_PX) */
  maxImagePx: number;
  /** the server's version, as MCP's initialize answers it */
  version: string;
  /** an error that is not a refusal of the API (a bug, storage down): logged by the caller, said to the agent in general terms */
  onInternalError?: (err: unknown) => void;
}

/**
 * How long a tool waits for its capture: the longest job deadline a create accepts (max_wait ≤ 300 s) plus a
 * minute of queueing. After it the tool answers the record as it is (still processing), never hangs.
 */
export const CAPTURE_WAIT_MS = 360_000;
/** How long batch_screenshots follows its batch: after it, the answer is the batch so far and its id. */
export const BATCH_WAIT_MS = 30 * 60_000;
/** How often batch_screenshots reads its batch's progress (as `shotfarm batch create --wait` does). */
const BATCH_POLL_MS = 1000;
/** The longest wait one read of a record holds (GET /screenshot/info's `wait` is at most 60 s). */
const INFO_WAIT_MS = 60_000;

const COST = "It costs what GET /screenshot/create costs with the same options (the account's credits; a failed capture costs 0); docs/ai-agents.md lists the prices.";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
interface Tool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  run(args: Record<string, unknown>, extra: Extra): Promise<CallToolResult>;
}

const text = (value: string): CallToolResult['content'][number] => ({ type: 'text', text: value });
const json = (value: unknown): CallToolResult['content'][number] => text(JSON.stringify(value, null, 1));
const toolError = (sentence: string, record?: ApiRecord): CallToolResult => ({ isError: true, content: [text(sentence), ...(record ? [json(record)] : [])] });

/** The record once it left `processing`, or as it is when the wait or the request ends. */
async function settled(calls: ShotfarmCalls, id: number, signal: AbortSignal, waitMs = CAPTURE_WAIT_MS): Promise<ApiRecord> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const left = deadline - Date.now();
    const record = await calls.screenshot(id, Math.max(0, Math.min(INFO_WAIT_MS, left)), signal);
    if (record.status !== 'processing' || left <= 0 || signal.aborted) return record;
  }
}

/** The image scaled to at most `maxPx` on its long side (never enlarged), in its own format when MCP clients show it. */
async function scaledImage(bytes: Buffer, maxPx: number): Promise<{ data: string; mimeType: string; width: number; height: number }> {
  const image = sharp(bytes, { limitInputPixels: false });
  const format = (await image.metadata()).format;
  const out = await image
    .resize({ width: maxPx, height: maxPx, fit: 'inside', withoutEnlargement: true })
    .toFormat(format === 'jpeg' || format === 'webp' ? format : 'png')
    .toBuffer({ resolveWithObject: true });
  return { data: out.data.toString('base64'), mimeType: `image/${out.info.format}`, width: out.info.width, height: out.info.height };
}

/** What an agent needs of a record besides its image: where it is, what it cost, what went wrong. */
const recordSummary = (r: ApiRecord, link: string): Record<string, unknown> => ({
  id: r.id,
  status: r.status,
  image_url: link,
  url: r.url,
  final_url: r.final_url,
  response_code: r.response_code,
  cost: r.cost,
  browser: r.browser,
  size: r.size,
  warnings: r.warnings,
  blank: r.blank,
});

const failed = (r: ApiRecord): CallToolResult | null => (r.status === 'error' ? toolError(`The capture of ${String(r.url)} failed: ${r.error ?? 'no reason given'}`, r) : null);
const stillProcessing = (r: ApiRecord): CallToolResult => ({
  content: [text(`Screenshot ${r.id} is still being captured; call get_screenshot with id ${r.id} later.`), json(r)],
});

function tools(calls: ShotfarmCalls, o: McpToolsOptions): Tool[] {
  const image = async (r: ApiRecord): Promise<CallToolResult> => {
    const img = await scaledImage(await calls.image(r.id), o.maxImagePx);
    return { content: [{ type: 'image', data: img.data, mimeType: img.mimeType }, json({ ...recordSummary(r, calls.imageLink(r.id)), answered_width: img.width, answered_height: img.height })] };
  };
  const fieldsOf = (args: Record<string, unknown>, schema: JsonSchema): ReturnType<typeof argumentsToFields>['fields'] => {
    const { fields, unknown } = argumentsToFields(args, schema);
    if (unknown.length > 0) throw new McpCallError(`Unknown argument(s): ${unknown.join(', ')}; the tool's input schema lists what it takes`, 400);
    return fields;
  };

  const screenshotInput = toolInput({ url: urlSchema('the page to capture (http or https)') }, ['url'], optionProperties());
  const readInput = toolInput({ url: urlSchema('the page to read (http or https)') }, ['url'], optionProperties(['markdown', 'metadata', 'size', 'shots', 'shot_interval']));
  const batchInput = toolInput(
    { urls: { type: 'array', items: urlSchema('a page (http or https)'), minItems: 1, description: 'the pages to capture, one screenshot each' } },
    ['urls'],
    optionProperties(['country', 'shots', 'shot_interval']),
  );
  const getInput = toolInput(
    {
      id: { type: 'integer', minimum: 1, description: 'the screenshot id (from screenshot, batch_screenshots or the API)' },
      wait: { type: 'integer', minimum: 0, maximum: 60, default: 0, description: 'seconds to wait for a screenshot still being captured' },
    },
    ['id'],
  );
  const monitorInput = toolInput(paramProperties(MONITOR_OWN_PARAMS), ['url'], optionProperties());

  return [
    {
      name: 'screenshot',
      description: `Capture a web page in a real browser (chrome, firefox or brave) and answer the image, scaled to at most ${o.maxImagePx} px on its long side, with the screenshot's id and a link to the full-size image. Use size=page for the whole page, device_name (list_devices) or screen_width/screen_height for the viewport, wait_for/click/hide_selector to prepare the page. Waits until the capture ends (up to ${CAPTURE_WAIT_MS / 60_000} minutes). ${COST}`,
      inputSchema: screenshotInput,
      run: async (args, extra) => {
        const fields = fieldsOf(args, screenshotInput);
        const created = await calls.createScreenshots(fields);
        const results: CallToolResult[] = [];
        for (const r0 of created) {
          const r = await settled(calls, r0.id, extra.signal);
          results.push(failed(r) ?? (r.status === 'processing' ? stillProcessing(r) : await image(r)));
        }
        return { isError: results.some((r) => r.isError) || undefined, content: results.flatMap((r) => r.content) };
      },
    },
    {
      name: 'read_page',
      description: `Read a web page as an agent would want it: render it in a real browser (scripts run, the page settles), then answer its readable content as Markdown (headings, tables, code blocks and links kept; navigation, footers and ads dropped; markdown_mode=full for the whole body) and its metadata (title, description, language, canonical URL, OpenGraph and Twitter cards, icons, word count). No image is answered. ${COST} (with the markdown and metadata prices)`,
      inputSchema: readInput,
      run: async (args, extra) => {
        const fields = fieldsOf(args, readInput);
        fields.markdown = ['1'];
        fields.metadata = ['1'];
        const [r0] = await calls.createScreenshots(fields);
        const r = await settled(calls, (r0 as ApiRecord).id, extra.signal);
        const refused = failed(r);
        if (refused) return refused;
        if (r.status === 'processing') return stillProcessing(r);
        return { content: [text(await calls.markdown(r.id)), json({ id: r.id, url: r.url, final_url: r.final_url, response_code: r.response_code, cost: r.cost, metadata: r.metadata })] };
      },
    },
    {
      name: 'batch_screenshots',
      description: `Capture many pages (one screenshot per URL, the same options for all) as a batch, report progress while it runs (MCP progress notifications), and answer the batch with its counts and zip_url: a signed link to a ZIP of every image. Follows the batch up to ${BATCH_WAIT_MS / 60_000} minutes, then answers it as it is. Each URL costs what a screenshot with these options costs; failed captures cost 0.`,
      inputSchema: batchInput,
      run: async (args, extra) => {
        const { urls, ...rest } = args;
        const fields = fieldsOf(rest, batchInput);
        let batch = await calls.createBatch(Array.isArray(urls) ? urls.map(String) : [], fields);
        const token = extra._meta?.progressToken;
        const deadline = Date.now() + BATCH_WAIT_MS;
        for (;;) {
          const count = Number(batch.count ?? 0);
          const processed = Number(batch.processed ?? 0);
          if (token !== undefined)
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, progress: processed, total: count, message: `${processed} of ${count} captured, ${Number(batch.failed ?? 0)} failed` },
            });
          if (batch.status !== 'processing' || Date.now() >= deadline || extra.signal.aborted) break;
          await new Promise((resolve) => setTimeout(resolve, BATCH_POLL_MS));
          batch = await calls.batch(batch.id);
        }
        if (batch.status === 'error') return toolError(`Batch ${batch.id} ended in error: ${batch.error || 'no reason given'}`, batch);
        return { content: [text(batch.status === 'processing' ? `Batch ${batch.id} is still running; its zip_url holds what has finished so far.` : `Batch ${batch.id} is done.`), json(batch)] };
      },
    },
    {
      name: 'get_screenshot',
      description:
        "A screenshot of this account by id: its record (status, options, cost, warnings, metadata) and, when it is finished, its image scaled as screenshot's. A screenshot that failed answers a tool error with the reason. Free.",
      inputSchema: getInput,
      run: async (args, extra) => {
        fieldsOf(args, getInput);
        const id = Number(args.id);
        const wait = args.wait === undefined ? 0 : Number(args.wait);
        if (!Number.isInteger(id) || id < 1) throw new McpCallError('Invalid parameters', 400, { id: ['must be a whole number of at least 1'] });
        if (!Number.isInteger(wait) || wait < 0 || wait > 60) throw new McpCallError('Invalid parameters', 400, { wait: ['must be a whole number from 0 to 60'] });
        const r = await settled(calls, id, extra.signal, wait * 1000);
        const refused = failed(r);
        if (refused) return refused;
        if (r.status !== 'finished') return { content: [json(r)] };
        const answer = await image(r);
        return { content: [...answer.content, json(r)] };
      },
    },
    {
      name: 'monitor_page',
      description:
        "Watch a page: capture it every `interval` seconds (at least 300) or on a `cron` schedule, and compare each capture with the previous one; a run whose share of changed pixels passes `threshold` percent counts as a change (the account's apps and webhooks hear of it). Answers the new monitor. Each run costs what a screenshot with these options costs.",
      inputSchema: monitorInput,
      run: async (args) => ({ content: [json(await calls.createMonitor(fieldsOf(args, monitorInput)))] }),
    },
    {
      name: 'list_devices',
      description: 'The device profiles a capture can emulate (phones, tablets, desktops): pass a device_name to screenshot, read_page or batch_screenshots. Free.',
      inputSchema: toolInput({}, []),
      run: async () => ({
        content: [
          json((await calls.devices()).map((d) => ({ device_name: d.device_name, name: d.name, screen_width: d.screen_width, screen_height: d.screen_height, device_mobile: d.device_mobile }))),
        ],
      }),
    },
  ];
}

/** An MCP server with shotfarm's tools over these calls (one per connection or request). */
export function createMcpServer(calls: ShotfarmCalls, o: McpToolsOptions): Server {
  const server = new Server({ name: 'shotfarm', version: o.version }, { capabilities: { tools: {} } });
  const list = tools(calls, o);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: list.map(({ name, description, inputSchema }) => ({ name, description, inputSchema: inputSchema as { type: 'object' } })) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = list.find((t) => t.name === request.params.name);
    if (!tool) return toolError(`Unknown tool ${request.params.name}; the tools are ${list.map((t) => t.name).join(', ')}`);
    try {
      return await tool.run(request.params.arguments ?? {}, extra);
    } catch (err) {
      if (err instanceof McpCallError) return toolError(err.describe());
      o.onInternalError?.(err);
      return toolError('shotfarm could not complete this call because of an internal error; try again later');
    }
  });
  return server;
}
