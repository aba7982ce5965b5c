import { expect } from 'chai';
import { call, type TestApi } from './test-api.js';
import { until } from './wait-until.js';

/** Creates a screenshot through the API (expecting 200); returns its id. */
export async function createScreenshot(api: TestApi, key: string, query: string): Promise<number> {
  const created = await call(api.url, `/screenshot/create?${query}`, { key });
  expect(created.status, JSON.stringify(created.body)).to.equal(200);
  return created.body.data[0].id as number;
}

/** A file as the service stored it. */
export async function storedObject(api: TestApi, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await api.parts.objects.get(key)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The screenshot record once it ended and every app run on it is finished or error. */
export function appsSettled(api: TestApi, key: string, id: number): Promise<any> {
  return until(`the apps of screenshot ${id}`, async () => {
    const info = (await call(api.url, `/screenshot/info?id=${id}`, { key })).body.data;
    return info.status !== 'processing' && info.apps.length > 0 && info.apps.every((a: any) => a.status === 'finished' || a.status === 'error') ? info : null;
  });
}
