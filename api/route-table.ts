import type { z } from 'zod';
import { AccountInfo, ApiKey, DashboardOverview, NewApiKey, RotatedSigningSecret, SignedRenderLink } from './accounts/account-shapes.js';
import { ACCOUNT_ROUTES, DASHBOARD_ROUTES } from './accounts/account-routes.js';
import { KEY_ROUTES } from './accounts/key-routes.js';
import { SIGNED_LINK_ROUTES } from './auth/signed-link-routes.js';
import { AdminOverview, AdminUser, CreditChange, OutboxMessage } from './admin/admin-shapes.js';
import { ADMIN_USER_ROUTES } from './admin/admin-user-routes.js';
import { ADMIN_ROUTES } from './admin/admin-routes.js';
import { AppConfig, AppType } from './apps/app-shapes.js';
import { APP_ROUTES } from './apps/app-routes.js';
import { CookieSession, Impersonation, LoginResponse, Me, SignupResponse, UserSession } from './auth/auth-shapes.js';
import { AUTH_ROUTES } from './auth/auth-routes.js';
import { Batch, BatchAttempt, BatchCreated, BatchInfo, BatchRetried } from './batches/batch-shapes.js';
import { BATCH_ROUTES } from './batches/batch-routes.js';
import { InvoicedAccount, PaymentMethod, Plan, Receipt, Subscription } from './billing/billing-shapes.js';
import { BILLING_ROUTES } from './billing/billing-routes.js';
import { Crawl, CrawlInfo } from './crawls/crawl-shapes.js';
import { CRAWL_ROUTES } from './crawls/crawl-routes.js';
import { BrowserActivity, Node } from './farm/farm-shapes.js';
import { FARM_ROUTES } from './farm/farm-routes.js';
import { Ack } from './http/common-shapes.js';
import { HEALTH_ROUTES } from './http/health-routes.js';
import { OPENAPI_ROUTES } from './http/openapi-routes.js';
import type { ApiRoute } from './http/route.js';
import { MCP_ROUTES } from './mcp/mcp-routes.js';
import { Monitor, MonitorRun } from './monitors/monitor-shapes.js';
import { MONITOR_ROUTES } from './monitors/monitor-routes.js';
import { DEVICE_ROUTES } from './screenshots/device-routes.js';
import { AppStatus, Device, Screenshot, ScreenshotInfo, Tracker } from './screenshots/screenshot-shapes.js';
import { SCREENSHOT_ROUTES } from './screenshots/screenshot-routes.js';
import { RENDER_ROUTES } from './render/render-routes.js';

/**
 * Every HTTP route of the control plane, feature by feature: the router and openapi.json are built from this
 * list. A new route is one descriptor in its feature's `<feature>-routes.ts`; a new feature is one folder and
 * one line here. The order is the reference's (/docs) order.
 */
export const ROUTES: readonly ApiRoute[] = [
  ...SCREENSHOT_ROUTES,
  ...RENDER_ROUTES,
  ...BATCH_ROUTES,
  ...CRAWL_ROUTES,
  ...MONITOR_ROUTES,
  ...DEVICE_ROUTES,
  ...MCP_ROUTES,
  ...ACCOUNT_ROUTES,
  ...APP_ROUTES,
  ...AUTH_ROUTES,
  ...KEY_ROUTES,
  ...SIGNED_LINK_ROUTES,
  ...BILLING_ROUTES,
  ...DASHBOARD_ROUTES,
  ...ADMIN_USER_ROUTES,
  ...ADMIN_ROUTES,
  ...FARM_ROUTES,
  ...HEALTH_ROUTES,
  ...OPENAPI_ROUTES,
];

/**
 * The named response shapes (each in its feature's `<feature>-shapes.ts`), as openapi.json's components/schemas
 * lists them: the key is the name, the order the document's.
 */
export const SHAPES: Record<string, z.ZodType> = {
  Screenshot,
  ScreenshotInfo,
  AppStatus,
  Tracker,
  Batch,
  BatchCreated,
  BatchInfo,
  BatchAttempt,
  BatchRetried,
  Crawl,
  CrawlInfo,
  Device,
  Plan,
  AccountInfo,
  AppType,
  AppConfig,
  UserSession,
  Me,
  LoginResponse,
  SignupResponse,
  CookieSession,
  Impersonation,
  Ack,
  ApiKey,
  NewApiKey,
  RotatedSigningSecret,
  SignedRenderLink,
  Subscription,
  PaymentMethod,
  Receipt,
  InvoicedAccount,
  DashboardOverview,
  AdminOverview,
  AdminUser,
  CreditChange,
  OutboxMessage,
  Node,
  BrowserActivity,
  Monitor,
  MonitorRun,
};
