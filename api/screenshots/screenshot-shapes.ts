import { z } from 'zod';
import { BROWSERS } from '../../core/capture-spec.js';
import { CAPTURE_OPTIONS } from '../options/create-params.js';
import { optionRecordShape } from '../options/option-table.js';

/**
 * The shapes of the `data` the operations answer, as the spec's "Resources and their fields" states them
 * (and operations-not-shown.md for what the spec leaves out). The route descriptors name them as their
 * response; openapi.json lists each under components/schemas by the name given in SHAPES.
 * Objects are open (`looseObject`): a field added beyond the spec does not make the document a lie.
 */

const dateTime = z.string().describe('ISO 8601 date-time');
const dateTimeOrEmpty = z.string().describe('ISO 8601 date-time, or an empty string when it has not happened');
const unixSeconds = z.number().int().describe('Unix timestamp (seconds); 0 when it has not happened');
const recordStatus = z.enum(['processing', 'finished', 'error']);

export const AppStatus = z.looseObject({
  id: z.number().int(),
  app_id: z.string(),
  type: z.string(),
  name: z.string(),
  status: z.enum(['pending', 'queued', 'processing', 'finished', 'error']),
  filename: z.string(),
  error: z.string(),
  output_url: z.string(),
  output_data: z.record(z.string(), z.unknown()).nullable(),
  updated_at: dateTime,
});

export const Tracker = z.looseObject({
  id: z.string(),
  name: z.string(),
  value: z.unknown(),
  input: z.string(),
  selector: z.string(),
  name_type: z.string(),
  value_type: z.string(),
  return: z.array(z.looseObject({ found: z.number().int(), shot: z.number().int(), value: z.string().optional(), name: z.string() })).optional(),
});

export const Screenshot = z.looseObject({
  id: z.number().int(),
  status: recordStatus,
  error: z.string().optional().describe('only when status is error'),
  final_url: z.string(),
  final_urls: z.array(z.string()).optional(),
  response_code: z.number().int().nullable().optional(),
  apps: z.array(AppStatus).optional(),
  cost: z.number().int(),
  region: z.string(),
  // The capture options as the record shows them (api/options/create-params.ts, CAPTURE_OPTIONS).
  ...optionRecordShape(CAPTURE_OPTIONS),
  created_at: dateTime,
  finished_at: dateTimeOrEmpty,
  steps: z.array(z.record(z.string(), z.unknown())).optional().describe('omitted when empty'),
  trackers: z.array(Tracker).optional(),
  links: z.array(z.string()).optional(),
  warnings: z.array(z.string()).optional().describe('beyond the spec: what the capture could not honour'),
});

export const ScreenshotInfo = Screenshot.extend({ has_html: z.boolean(), has_pdf: z.boolean(), has_video: z.boolean() });

/** A create answers an array; with SHOTFARM_CLIENT_COMPAT=screenshotcenter a one-record create answers that record. */
export const createAnswer = <T extends z.ZodType>(item: T): z.ZodType => z.union([z.array(item), item]);

export const Batch = z.looseObject({
  id: z.number().int(),
  status: recordStatus,
  error: z.string(),
  started: unixSeconds,
  finished: unixSeconds,
  count: z.number().int().min(0),
  processed: z.number().int().min(0),
  failed: z.number().int().min(0),
  zip_url: z.string(),
});
export const BatchCreated = Batch.extend({ name: z.string().nullable(), invalid_lines: z.array(z.unknown()).describe('beyond the spec: the lines of the file that were not used') });
/** Beyond the spec: one attempt of a batch (the first, then one per POST /batch/retry), counted over its own records. */
export const BatchAttempt = z.looseObject({ attempt: z.number().int().min(1), count: z.number().int().min(0), processed: z.number().int().min(0), failed: z.number().int().min(0) });
const attempts = z.array(BatchAttempt).describe("beyond the spec: each attempt's counts, the first and one per retry");
export const BatchInfo = Batch.extend({ name: z.string().nullable(), screenshots: z.array(z.number().int()), attempts });
export const BatchRetried = Batch.extend({ name: z.string().nullable(), attempts });

export const Crawl = z.looseObject({
  id: z.number().int(),
  status: z.enum(['processing', 'finished', 'cancelled', 'error']),
  error: z.string().optional(),
  domain: z.string(),
  start_url: z.string(),
  max_urls: z.number().int(),
  total_discovered: z.number().int(),
  processed: z.number().int(),
  failed: z.number().int(),
  created_at: dateTime,
  started: unixSeconds,
  finished: unixSeconds,
});
export const CrawlInfo = Crawl.extend({ screenshots: z.array(Screenshot) });

export const Device = z.looseObject({
  device_name: z.string(),
  name: z.string(),
  user_agent: z.string(),
  screen_width: z.number().int(),
  screen_height: z.number().int(),
  device_scale: z.number(),
  device_mobile: z.boolean(),
  device_touch: z.boolean(),
  device_landscape: z.boolean(),
});

export const Plan = z.looseObject({
  id: z.string(),
  name: z.string(),
  price_usd: z.number(),
  monthly_screenshots: z.number().int(),
  features: z.array(z.string()),
  public: z.boolean(),
  payment_plan_ids: z.looseObject({ monthly: z.string().optional(), yearly: z.string().optional() }).optional(),
  addons: z.array(z.looseObject({ id: z.string(), quantity: z.number() })).optional(),
});

export const AccountInfo = z.looseObject({
  balance: z.number().int(),
  company_id: z.number().int(),
  company_name: z.string(),
  plan: z.string().nullable().describe("the live plan's id, or null"),
  plan_details: Plan.nullable(),
  usage: z.looseObject({ total_screenshots: z.number().int(), screenshots_this_month: z.number().int(), processing: z.number().int() }),
});

export const AppType = z.looseObject({
  type: z.string(),
  name: z.string(),
  description: z.string(),
  uploads: z.boolean(),
  settings_schema: z.record(z.string(), z.unknown()).describe('JSON Schema of the settings'),
});
export const AppConfig = z.looseObject({
  id: z.number().int(),
  app_id: z.string(),
  type: z.string(),
  name: z.string(),
  settings: z.record(z.string(), z.unknown()).describe('secrets masked'),
  created_at: dateTime,
  updated_at: dateTime,
});

export const UserSession = z.looseObject({
  id: z.number().int(),
  email: z.string(),
  email_verified: z.boolean(),
  signup_provider: z.string(),
  name: z.string().nullable(),
  roles: z.array(z.string()),
  company: z.looseObject({ id: z.number().int(), name: z.string(), email: z.string(), balance: z.number().int() }),
});
export const Me = UserSession.extend({ impersonated_by: z.number().int().nullable() });
export const LoginResponse = z.looseObject({ token: z.string().describe('JWT: send as Authorization: Bearer'), user: UserSession });
export const SignupResponse = LoginResponse.extend({ api_key: z.looseObject({ key: z.string(), name: z.string().nullable() }) });
export const CookieSession = z.looseObject({ user: Me, csrf_token: z.string() });
export const Impersonation = z.looseObject({ token: z.string(), user: UserSession.nullable(), impersonated_by: z.number().int().nullable() });
export const Ack = z.looseObject({ ok: z.boolean() });

export const ApiKey = z.looseObject({
  id: z.number().int(),
  name: z.string().nullable(),
  prefix: z.string(),
  user_id: z.number().int().nullable(),
  created_at: dateTime,
  last_used_at: dateTime.nullable(),
  current: z.boolean().describe('the key this request used'),
});
export const NewApiKey = ApiKey.extend({ key: z.string().describe('the secret: shown in this answer only') });

export const Subscription = z.looseObject({ subscriptionId: z.string(), status: z.string(), planId: z.string() });
export const PaymentMethod = z.looseObject({
  token: z.string(),
  type: z.enum(['card', 'paypal']),
  brand: z.string().optional(),
  last4: z.string().optional(),
  expirationMonth: z.string().optional(),
  expirationYear: z.string().optional(),
  email: z.string().optional(),
  default: z.boolean(),
});
export const Receipt = z.looseObject({ id: z.string(), amount: z.string(), currency: z.string(), status: z.string(), createdAt: z.string(), updatedAt: z.string().optional() });
export const InvoicedAccount = z.looseObject({ companyId: z.number().int(), invoiced: z.boolean() });

const counts = { processing: z.number().int(), finished: z.number().int(), error: z.number().int() };
export const DashboardOverview = z.looseObject({
  account: z.looseObject({ company_id: z.number().int(), company_name: z.string(), balance: z.number().int() }),
  billing: z.looseObject({ plan: Plan, usage: z.looseObject({ screenshots_this_month: z.number().int(), monthly_limit: z.number().int(), remaining: z.number().int() }) }).nullable(),
  usage: z.looseObject({ total_screenshots: z.number().int(), screenshots_this_month: z.number().int(), ...counts }),
  batches: z.looseObject({ total: z.number().int(), ...counts }),
  recent_screenshots: z.array(z.looseObject({ id: z.number().int(), url: z.string(), status: z.string(), cost: z.number().int(), error: z.string(), created_at: z.string(), finished_at: z.string() })),
});
export const AdminOverview = z.looseObject({
  totals: z.looseObject({ users: z.number().int(), companies: z.number().int(), screenshots: z.number().int(), batches: z.number().int(), active_clients: z.number().int() }),
  screenshots: z.looseObject({ last_24h: z.number().int(), failed_24h: z.number().int() }),
  top_users: z.array(z.looseObject({ user_id: z.number().int(), email: z.string(), company_name: z.string(), screenshots: z.number().int() })),
});
export const AdminUser = UserSession.extend({ created_at: dateTime });
export const CreditChange = z.looseObject({ company_id: z.number().int(), delta: z.number().int(), balance: z.number().int(), reason: z.string() });
export const OutboxMessage = z.looseObject({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  purpose: z.string(),
  status: z.enum(['logged', 'pending', 'sent', 'failed']),
  error: z.string().nullable(),
  created_at: dateTime,
  sent_at: dateTime.nullable(),
});
export const Node = z.looseObject({
  id: z.string(),
  host: z.string(),
  browsers: z.array(z.looseObject({ name: z.enum(BROWSERS), version: z.string(), driver: z.enum(['playwright', 'selenium']) })),
  countries: z.array(z.string()).describe('countries the node egresses from; empty: any'),
  slots: z.number().int(),
  inFlight: z.number().int(),
  jobsDone: z.number().int(),
  failures: z.number().int(),
  startedAt: z.string(),
  draining: z.boolean(),
  rssBytes: z.number().int().nullable().optional().describe("resident memory of the node's process tree (agent and browsers), bytes; null where unreadable"),
});

/** A page monitor (issue 20, beyond the spec): api/monitors/monitor-record.ts. */
export const Monitor = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  status: z.enum(['active', 'paused']),
  interval: z.number().int().describe('seconds between runs (when cron is empty)'),
  cron: z.string().describe('cron expression in UTC, or empty'),
  threshold: z.number().describe('percent of changed pixels above which a run is a change'),
  ignore: z
    .array(z.union([z.string(), z.looseObject({ x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int() })]))
    .describe('CSS selectors and boxes left out of the comparison'),
  options: z.record(z.string(), z.unknown()).describe('the screenshot options of every run'),
  apps: z.array(z.number().int()).describe('app configurations run on a change'),
  next_run_at: dateTimeOrEmpty,
  last_run_at: dateTimeOrEmpty,
  created_at: dateTime,
  updated_at: dateTime,
});
export const MonitorRun = z.looseObject({
  id: z.number().int(),
  monitor_id: z.number().int(),
  trigger: z.enum(['schedule', 'manual']),
  scheduled_for: dateTime,
  created_at: dateTime,
  status: z.enum(['processing', 'comparing', 'finished', 'error']),
  error: z.string(),
  screenshot_id: z.number().int().nullable(),
  previous_screenshot_id: z.number().int().nullable().describe('the shot it was compared with; null for the first'),
  change_ratio: z.number().nullable().describe('changed pixels / compared pixels, 0 to 1; null until compared'),
  changed: z.boolean().describe('change_ratio above the threshold'),
  image_url: z.string().describe("signed link to the run's image, or empty"),
  diff_url: z.string().describe('signed link to the diff image, or empty'),
  text_changes: z
    .looseObject({ added: z.array(z.string()), removed: z.array(z.string()), added_count: z.number().int(), removed_count: z.number().int() })
    .nullable()
    .describe('html=true only'),
});

/** GET /admin/browsers (api/farm/browser-activity.ts): per browser, the queue and the recent captures. */
export const BrowserActivity = z.looseObject({
  window_minutes: z.number().int().describe('the window captures, per_minute and error_rate are measured over'),
  browsers: z.array(
    z.looseObject({
      browser: z.enum(BROWSERS),
      queued: z.number().int(),
      oldest_wait_seconds: z.number(),
      captures: z.number().int(),
      errors: z.number().int(),
      per_minute: z.number(),
      error_rate: z.number(),
    }),
  ),
});

/** The named shapes, as components/schemas lists them (the name is the key). */
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
