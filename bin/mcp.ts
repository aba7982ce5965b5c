import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { HttpCalls, type HttpTarget } from '../api/mcp/http-calls.js';
import { createMcpServer } from '../api/mcp/mcp-tools.js';
import type { Config } from '../core/config/config.js';
import { stopOnSignal } from './stop-on-signal.js';

/**
 * `shotfarm mcp`: shotfarm's MCP tools over stdio, for a desktop agent that starts it (Claude Desktop,
 * Cursor). It talks to a running service over the HTTP API with the given key, like `shotfarm batch`, so
 * it loads neither Koa nor a database. stdout carries the protocol only: everything else goes to stderr.
 */
export async function mcp(cfg: Config, target: HttpTarget, version: string): Promise<void> {
  const server = createMcpServer(new HttpCalls(target), {
    maxImagePx: cfg.mcp.maxImagePx,
    version,
    onInternalError: (err) => process.stderr.write(`shotfarm mcp: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`),
  });
  const transport = new StdioServerTransport();
  // The agent ends the server by closing its stdin (MCP's stdio shutdown) or by a signal.
  const stop = stopOnSignal([() => server.close()]);
  process.stdin.once('end', () => void stop('end of stdin'));
  await server.connect(transport);
  process.stderr.write(`shotfarm mcp: serving MCP on stdio for ${target.api}\n`);
}
