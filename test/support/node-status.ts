import type { NodeStatus } from '../../core/contracts/node-registry.js';

/** A live node as an agent heartbeats it: one idle chrome slot, not draining, unless `fields` says otherwise. */
export function chromeNode(fields: Partial<NodeStatus> & { id: string }): NodeStatus {
  return {
    host: 'test',
    browsers: [{ name: 'chrome', version: '1', driver: 'playwright' }],
    countries: [],
    slots: 1,
    inFlight: 0,
    jobsDone: 0,
    failures: 0,
    startedAt: new Date().toISOString(),
    draining: false,
    ...fields,
  };
}
