import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedEgress } from '../../api/apps/guarded-agents.js';
import { PrivateAllowlist } from '../../core/net/private-allowlist.js';
import { AppRunError } from '../../plugins/contract.js';
import { sendRequest } from '../../plugins/http/send-request.js';

describe("apps' outgoing connections honour the private-address policy (unit, real sockets)", () => {
  let server: http.Server;
  let port = 0;
  let hits = 0;
  before(async () => {
    server = http.createServer((_req, res) => {
      hits++;
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (
    host: string,
    egress = guardedEgress({ allowPrivateTargets: false, allowlist: new PrivateAllowlist([]) }, async (name) => (name === 'hooks.example.test' ? ['127.0.0.1'] : ['203.0.113.9'])),
  ) => sendRequest(new URL(`http://${host}:${port}/in`), { method: 'POST', headers: {}, body: '{}', egress, signal: AbortSignal.timeout(5000) });

  it('refuses a loopback address, and a public-looking name that resolves to one, without connecting; the refusal is final', async () => {
    for (const host of ['127.0.0.1', 'hooks.example.test', '[::ffff:127.0.0.1]']) {
      const before = hits;
      const err = await post(host).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, host).to.be.instanceOf(AppRunError);
      expect((err as AppRunError).retryable).to.equal(false);
      expect((err as Error).message).to.include('loopback address');
      expect(hits).to.equal(before);
    }
  });

  it('lets the allowlist and SHOTFARM_ALLOW_PRIVATE_TARGETS through', async () => {
    const allowlisted = guardedEgress({ allowPrivateTargets: false, allowlist: new PrivateAllowlist(['hooks.example.test']) }, async () => ['127.0.0.1']);
    expect((await post('hooks.example.test', allowlisted)).status).to.equal(204);
    expect((await post('127.0.0.1', guardedEgress({ allowPrivateTargets: true, allowlist: new PrivateAllowlist([]) }))).status).to.equal(204);
  });
});
