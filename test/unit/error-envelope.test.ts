import { expect } from 'chai';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { errorEnvelope } from '../../api/http/error-envelope.js';
import { requestId } from '../../api/http/request-id.js';
import type { AppState } from '../../api/http/state.js';
import { ApiError } from '../../core/errors.js';
import { createLogger } from '../../core/logger.js';

/** A tiny app whose one route throws what the test gives it. */
async function answerTo(thrown: unknown): Promise<{ status: number; body: any }> {
  const app = new Koa<AppState>();
  app.use(requestId);
  app.use(errorEnvelope(createLogger('silent')));
  app.use(() => {
    throw thrown;
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { status: res.status, body: await res.json() };
  } finally {
    server.close();
  }
}

describe('error envelope (unit)', () => {
  it('an unexpected error is a generic 500: no message, no stack, a request id', async () => {
    const res = await answerTo(new TypeError('secret internal detail at /srv/app.js:10'));
    expect(res.status).to.equal(500);
    expect(res.body).to.deep.include({ success: false, error: 'Internal server error', code: 'INTERNAL_ERROR' });
    expect(JSON.stringify(res.body)).to.not.include('secret');
    expect(res.body.details.request_id).to.be.a('string');
  });

  it('an unexposed 503 keeps its status with a generic message', async () => {
    const res = await answerTo(new ApiError(503, 'X', 'queue host 10.0.0.5 down', {}, false));
    expect(res.status).to.equal(503);
    expect(res.body).to.deep.include({ error: 'Service temporarily unavailable', code: 'SERVICE_UNAVAILABLE' });
  });

  it('database connection failures are 503, not 500', async () => {
    const res = await answerTo(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    expect(res.status).to.equal(503);
    expect(res.body.code).to.equal('SERVICE_UNAVAILABLE');
    expect(res.body.error).to.not.include('5432');
  });
});
