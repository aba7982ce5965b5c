import { ACCOUNT_ROUTES } from './accounts/account-routes.js';
import { ADMIN_USER_ROUTES } from './admin/admin-user-routes.js';
import { ADMIN_ROUTES } from './admin/admin-routes.js';
import { APP_ROUTES } from './apps/app-routes.js';
import { AUTH_ROUTES } from './auth/auth-routes.js';
import { BATCH_ROUTES } from './batches/batch-routes.js';
import { BILLING_ROUTES } from './billing/billing-routes.js';
import { CRAWL_ROUTES } from './crawls/crawl-routes.js';
import { DEVICE_ROUTES } from './screenshots/device-routes.js';
import { HEALTH_ROUTES } from './http/health-routes.js';
import { KEY_ROUTES } from './accounts/key-routes.js';
import { MONITOR_ROUTES } from './monitors/monitor-routes.js';
import { OPENAPI_ROUTES } from './http/openapi-routes.js';
import type { ApiRoute } from './http/route.js';
import { SCREENSHOT_ROUTES } from './screenshots/screenshot-routes.js';

/**
 * Every HTTP route of the control plane: the router and openapi.json are built from this list.
 * A new route is one descriptor in its group's file; a new group is one file and one line here.
 * The order is the reference's (/docs) order.
 */
export const ROUTES: readonly ApiRoute[] = [
  ...SCREENSHOT_ROUTES,
  ...BATCH_ROUTES,
  ...CRAWL_ROUTES,
  ...MONITOR_ROUTES,
  ...DEVICE_ROUTES,
  ...ACCOUNT_ROUTES,
  ...APP_ROUTES,
  ...AUTH_ROUTES,
  ...KEY_ROUTES,
  ...BILLING_ROUTES,
  ...ADMIN_USER_ROUTES,
  ...ADMIN_ROUTES,
  ...HEALTH_ROUTES,
  ...OPENAPI_ROUTES,
];
