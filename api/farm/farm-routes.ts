import { z } from 'zod';
import { notFound } from '../../core/errors.js';
import { NODE_ID_PARAMS } from '../options/endpoint-params.js';
import { ACTIVITY_WINDOW_MINUTES, browserActivity } from './browser-activity.js';
import { BrowserActivity, Node } from './farm-shapes.js';
import { defineRoute, type ApiRoute } from '../http/route.js';

const tag = 'Admin';

/**
 * GET /admin/nodes: the live nodes of the farm; POST /admin/nodes/drain and /undrain {id}: ask a node to take
 * no new job, finish those in flight and leave, or withdraw that request; GET /admin/browsers: per browser,
 * the queue and the last minutes' throughput and error rate. Admin only.
 */
export const FARM_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'get',
    path: '/admin/browsers',
    operationId: 'listBrowserActivity',
    tag,
    credentials: 'admin',
    summary: "Admin: per browser, the jobs queued, the oldest one's wait, and the last minutes' captures and error rate",
    response: { data: BrowserActivity, description: 'The window in minutes and one entry per browser' },
    handler: async (_ctx, { db, queue }) => ({ window_minutes: ACTIVITY_WINDOW_MINUTES, browsers: await browserActivity(db, queue) }),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/nodes',
    operationId: 'listNodes',
    tag,
    credentials: 'admin',
    summary: 'Admin: the live nodes of the farm',
    response: { data: z.array(Node), description: 'The nodes' },
    handler: (_ctx, { registry }) => registry.list(),
  }),
  ...(
    [
      ['drain', true],
      ['undrain', false],
    ] as const
  ).map(([name, drain]) =>
    defineRoute({
      method: 'post',
      path: `/admin/nodes/${name}`,
      operationId: drain ? 'drainNode' : 'undrainNode',
      tag,
      credentials: 'admin',
      summary: drain ? 'Admin: ask a node to take no new job, finish those in flight and leave' : 'Admin: withdraw a drain request',
      body: NODE_ID_PARAMS,
      required: ['id'],
      response: { data: Node.nullable(), description: 'The node as it is now (null once it has left)' },
      handler: async (_ctx, { registry }, p) => {
        const id = p.id as string;
        if (!(await registry.requestDrain(id, drain))) throw notFound('Node');
        return (await registry.list()).find((n) => n.id === id) ?? null;
      },
    }),
  ),
];
