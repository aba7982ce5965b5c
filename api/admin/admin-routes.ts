import { adminOverview } from './admin-overview.js';
import { AdminOverview } from './admin-shapes.js';
import { defineRoute, type ApiRoute } from '../http/route.js';

const tag = 'Admin';

/** GET /admin/overview: totals across every account (the farm's own admin routes: api/farm/farm-routes.ts). */
export const ADMIN_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'get',
    path: '/admin/overview',
    operationId: 'getAdminOverview',
    tag,
    credentials: 'admin',
    summary: 'Admin: totals across every account, the last 24 hours, top users of the last 30 days',
    response: { data: AdminOverview, description: 'The overview' },
    handler: (_ctx, { db }) => adminOverview(db),
  }),
];
