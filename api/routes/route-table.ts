import { ACCOUNT_ROUTES } from './account.js';
import { ADMIN_USER_ROUTES } from './admin-users.js';
import { ADMIN_ROUTES } from './admin.js';
import { APP_ROUTES } from './apps.js';
import { AUTH_ROUTES } from './auth.js';
import { BATCH_ROUTES } from './batches.js';
import { BILLING_ROUTES } from './billing.js';
import { CRAWL_ROUTES } from './crawls.js';
import { DEVICE_ROUTES } from './devices.js';
import { HEALTH_ROUTES } from './health.js';
import { KEY_ROUTES } from './keys.js';
import { MONITOR_ROUTES } from './monitors.js';
import { OPENAPI_ROUTES } from './openapi.js';
import type { ApiRoute } from './route.js';
import { SCREENSHOT_ROUTES } from './screenshots.js';

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
