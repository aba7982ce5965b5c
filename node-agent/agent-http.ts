import http from 'node:http';
import type { FarmMetrics } from '../core/metrics/farm-metrics.js';
import { METRICS_CHALLENGE, METRICS_REFUSAL, metricsAllowed } from '../core/metrics/metrics-token.js';
import type { NodeAgent } from './node-agent.js';

/** An agent's own small HTTP server: /healthz (its status) and /metrics (Prometheus; behind `metricsToken` when set). */
export function startAgentHttp(agent: NodeAgent, metrics: FarmMetrics, port: number, host: string, metricsToken: string | null): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    void (async () => {
      if (req.url === '/healthz') {
        const status = agent.status();
        res.writeHead(status.draining ? 503 : 200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ status: status.draining ? 'draining' : 'ok', node: status }));
      } else if (req.url === '/metrics' && !metricsAllowed(req.headers.authorization, metricsToken)) {
        // The API's envelope for a missing credential (the agent has no request id to give).
        res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': METRICS_CHALLENGE });
        res.end(JSON.stringify({ success: false, error: METRICS_REFUSAL, code: 'INVALID_API_KEY', details: {} }));
      } else if (req.url === '/metrics') {
        const { contentType, body } = await metrics.text();
        res.writeHead(200, { 'Content-Type': contentType });
        res.end(body);
      } else {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ success: false, error: 'Not found', code: 'NOT_FOUND', details: {} }));
      }
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
