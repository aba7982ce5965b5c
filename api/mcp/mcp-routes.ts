import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { callerOf } from '../http/state.js';
import { defineRoute, type ApiRoute } from '../http/route.js';
import { createMcpServer } from './mcp-tools.js';
import { ServiceCalls } from './service-calls.js';

const tag = 'MCP';
const description =
  "shotfarm's tools for AI agents over MCP's Streamable HTTP transport (beyond-v1.md part 7; docs/ai-agents.md): screenshot, read_page, batch_screenshots, get_screenshot, monitor_page, list_devices, acting as the credential's account (its credits, limits and records). Stateless: each POST carries one JSON-RPC message and is answered as JSON or as an event stream (progress notifications, then the result); no session id is issued.";

/** What the endpoint answers: a JSON-RPC 2.0 message (MCP's own protocol, not the API's envelope). */
const JsonRpcMessage = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  result: z.looseObject({}).optional(),
  error: z.looseObject({ code: z.number().int(), message: z.string() }).optional(),
});

/** The server's version as initialize answers it: the control plane's package version is not worth a read per request. */
const VERSION = '1';

/** POST /mcp (the MCP endpoint) and GET /mcp (405: no server-initiated stream on a stateless server). */
export const MCP_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'post',
    path: '/mcp',
    operationId: 'mcp',
    tag,
    credentials: 'account',
    summary: 'MCP endpoint (Streamable HTTP): JSON-RPC requests of an MCP client',
    description,
    // The body is a JSON-RPC message, read by the MCP SDK's transport.
    validatedBy: 'handler',
    response: { json: JsonRpcMessage, description: 'The JSON-RPC answer (application/json), or, while a tool runs, a text/event-stream of its progress notifications and then its answer' },
    handler: async (ctx, deps) => {
      // One server and transport per request: nothing is kept between requests, so any replica answers any
      // request and a client that goes away leaves nothing behind. The tools act as the request's caller.
      const server = createMcpServer(new ServiceCalls(deps, callerOf(ctx)), {
        maxImagePx: deps.config.mcp.maxImagePx,
        version: VERSION,
        onInternalError: (err) => deps.log.error({ err, requestId: ctx.state.requestId }, 'MCP tool failed'),
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      ctx.res.once('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      // The transport writes the answer itself (JSON, or an event stream while a tool runs).
      ctx.respond = false;
      await transport.handleRequest(ctx.req, ctx.res, (ctx.request as { body?: unknown }).body);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/mcp',
    operationId: 'mcpStream',
    tag,
    credentials: 'account',
    summary: 'MCP server-initiated stream: not offered (405)',
    description: 'A stateless MCP server has no messages of its own to send outside a request, so it offers no stream here (Streamable HTTP lets a server answer 405).',
    response: { json: JsonRpcMessage, description: 'Never 200: 405 with Allow: POST and a JSON-RPC error' },
    handler: (ctx) => {
      ctx.status = 405;
      ctx.set('Allow', 'POST');
      ctx.body = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST JSON-RPC messages' }, id: null };
    },
  }),
];
