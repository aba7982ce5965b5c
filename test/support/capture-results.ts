import type { CaptureResult } from '../../core/contracts/job-queue.js';

/**
 * A capture result as an agent publishes it, for suites that feed the recorder without an agent: a finished
 * capture of http://example.test/ with no files, unless `fields` says otherwise (files, an error, a status).
 */
export function agentResult(id: number, fields: Partial<CaptureResult> = {}): CaptureResult {
  return {
    id,
    status: 'finished',
    error: '',
    files: [],
    finalUrl: 'http://example.test/',
    finalUrls: ['http://example.test/'],
    responseCode: 200,
    links: [],
    trackers: [],
    userAgent: 'test',
    browserInfo: 'test',
    warnings: [],
    timings: {},
    node: { id: 'test-node', host: 'localhost' },
    routing: 'any',
    ...fields,
  };
}
