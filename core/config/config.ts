import type { BrowserName } from '../capture-spec.js';
import type { DriverKind, PngEncoding } from '../contracts/browser-driver.js';
import type { Pricing } from '../pricing.js';
import type { Plan } from '../billing/plan.js';
import type { AdFilterLists } from './ad-filter-lists.js';

/** The validated configuration of one process. Built by loadConfig(); nothing else reads process.env. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  natsUrl: string | null;
  natsPrefix: string;
  s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string } | null;
  /** batch hosting=s3 into the service's own S3 (SHOTFARM_HOSTING_*, SHOTFARM_PUBLIC_S3_URL) */
  hosting: HostingConfig;
  /** the bearer token /metrics asks for (null: open) */
  metricsToken: string | null;
  bootstrapKey: string | null;
  bootstrapCredits: number;
  rateLimitPerMinute: number;
  /** addresses and CIDRs of the reverse proxies whose X-Forwarded-For names the client (none: the peer is the client) */
  trustedProxies: string[];
  allowPrivateTargets: boolean;
  /** CIDRs (an address is a /32 or /128) and host names the egress guard lets through anyway, lower case */
  privateTargetAllowlist: string[];
  /** null until resolved by resolveJwtSecret (a generated secret lives in the data dir) */
  jwtSecret: string | null;
  publicUrl: string;
  /** false when SHOTFARM_PUBLIC_URL was not set: the URL the server really listens on is used */
  publicUrlConfigured: boolean;
  pricing: Pricing;
  /** how create answers: the spec's arrays, or one object as the original service's clients read it */
  clientCompat: ClientCompat;
  /** how long a webhook's signed image_url works */
  imageUrlTtlSeconds: number;
  cacheDefaultSeconds: number;
  /** the longest source_html / source_markdown in a query string and in a body, in UTF-8 bytes */
  sources: { queryMaxBytes: number; bodyMaxBytes: number };
  batch: { maxFileBytes: number; zipUrlTtlSeconds: number };
  /** the MCP tools: the longest side of an image they answer (SHOTFARM_MCP_MAX_IMAGE_PX) */
  mcp: { maxImagePx: number };
  logLevel: string;
  production: boolean;
  farm: FarmConfig;
  agent: AgentConfig;
  apps: AppsConfig;
  billing: BillingConfig;
  monitors: MonitorConfig;
  auth: AuthConfig;
  mail: MailConfig;
}

export const CLIENT_COMPAT_MODES = ['spec', 'screenshotcenter'] as const;
export type ClientCompat = (typeof CLIENT_COMPAT_MODES)[number];
export const OFFLINE_PAYMENT_MODES = ['operator', 'self-service'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** How the control plane schedules work. */
export interface FarmConfig {
  /** country code → proxy URL */
  proxies: Record<string, string>;
  maxBacklog: number;
  maxDeliveries: number;
  captureTimeoutSeconds: number;
  /** the pixel budget of one capture, device pixels (width × height × device scale²): create refuses a viewport above it, an agent cuts a full page there */
  maxCapturePixels: number;
  /** pages of one host a crawl has in flight at once */
  crawlHostConcurrency: number;
  heartbeatSeconds: number;
}

/** What an agent (or the embedded service's agent) runs. */
export interface AgentConfig {
  browsers: BrowserName[];
  slots: number;
  countries: string[];
  nodeId: string;
  driver: DriverKind;
  /** the null driver (benchmarks and tests only): how long each capture takes, and the image file it answers with (null: built-in) */
  nullDriver: { delayMs: number; imagePath: string | null };
  seleniumGridUrl: string | null;
  chromiumPath: string;
  firefoxPath: string;
  bravePath: string | null;
  ffmpegPath: string | null;
  /** the filter lists of hide_ads and brave's shields emulation (SHOTFARM_AD_FILTER_LISTS) */
  adFilterLists: AdFilterLists;
  recycleAfterJobs: number;
  capturesPerBrowser: number;
  poolIdleSeconds: number;
  /** browsers of each offered browser kept started while idle (0: launched by the first capture) */
  poolWarmBrowsers: number;
  pngEncoding: PngEncoding;
  /** longest settle wait after load, in seconds (0: none) */
  settleCapSeconds: number;
  /** the tallest full-page capture in CSS pixels; a taller page is cut there with a warning */
  maxPageHeight: number;
  /** a browser process above this many resident MB during a capture is ended, and the capture with it */
  pageMemoryLimitMb: number;
  /** SHOTFARM_PREPARE_CONTEXTS: the next capture's context made ahead (Playwright, Chromium) */
  prepareContexts: boolean;
}

/** Which buckets of the service's S3 batches may host files in, how, and where readers find them. */
export interface HostingConfig {
  /** buckets offered to every account, in the operator's order (the first is the default) */
  buckets: string[];
  /** account id → the only buckets that account may use (those with entries of their own) */
  accountBuckets: Record<number, string[]>;
  publicRead: boolean;
  /** the public base URL of the service's S3, without a trailing slash; null: output_url stays empty */
  publicUrl: string | null;
}

/** How the control plane runs apps (integrations) after screenshots. */
export interface AppsConfig {
  /** 32-byte key for app secrets at rest; null until resolved by resolveSecretsKey (generated in the data dir) */
  secretsKey: Buffer | null;
  /** package names or module paths of extra plugins */
  plugins: string[];
  maxAttempts: number;
  retrySeconds: number;
  timeoutSeconds: number;
  concurrency: number;
  endpoints: AppEndpoints;
}

/** Plans and subscription renewal. */
export interface BillingConfig {
  /** every plan, public or not, from SHOTFARM_PLANS_FILE or the built-in list */
  plans: Plan[];
  /** how often due subscriptions are renewed */
  renewalSeconds: number;
  /** who may pay through the built-in offline (invoice) provider: accounts an admin approved, or anyone */
  offlinePayments: (typeof OFFLINE_PAYMENT_MODES)[number];
}

/** Page monitors: how often replicas look for due runs, the shortest interval a monitor may have, and an account's limits. */
export interface MonitorConfig {
  pollMs: number;
  minIntervalSeconds: number;
  /** monitors an account may have */
  perAccount: number;
  /** scheduled runs an hour an account's active monitors may ask for together */
  runsPerHour: number;
}

/** Dashboard users: sessions, one-time tokens, brute-force limit and captcha. */
export interface AuthConfig {
  jwtTtlSeconds: number;
  impersonationTtlSeconds: number;
  verifyTokenTtlSeconds: number;
  resetTokenTtlSeconds: number;
  /** how long a key's previous signing secret keeps signing render links after a rotation */
  signingSecretGraceSeconds: number;
  /** failed logins per account (any address) and per client address (any account) in the limiter's window */
  loginMaxFailures: number;
  /** accounts POST /auth/signup may open per client address in 24 hours; 0: no limit */
  signupsPerAddressPerDay: number;
  /** granted when the email of an account opened by signup is verified, to one account per inbox */
  signupCredits: number;
  /** checked only in production; the secret is then required */
  captcha: { verifyUrl: string; secret: string | null };
}

/** Account email: SMTP when configured, otherwise the log and the outbox table. */
export interface MailConfig {
  smtpUrl: string | null;
  from: string;
}

/** Base URLs of the services the SDK-based apps call (no trailing slash), so tests and gateways can stand in. */
export interface AppEndpoints {
  slackApiUrl: string;
  googleDriveApiUrl: string;
  googleTokenUrl: string;
  dropboxApiUrl: string;
  dropboxContentUrl: string;
  microsoftGraphUrl: string;
  microsoftLoginUrl: string;
}
