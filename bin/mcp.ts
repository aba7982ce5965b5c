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
export async function mcp(cfg: Config, target: HttpTarget, version: string): Promise<boolean> {
  const calls = new HttpCalls(target);
  // A key the service refuses ends the command before any tool is offered: the agent's configuration shows
  // the error at once instead of every call failing. A service not reachable yet is no reason to refuse.
  const refused = await calls.keyRefused();
  if (refused) {
    process.stderr.write(`shotfarm mcp: the API at ${target.api} refuses the key: ${refused} (--key, or SHOTFARM_BOOTSTRAP_KEY)\n`);
    return false;
  }
  const server = createMcpServer(calls, {
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
  return true;
}
