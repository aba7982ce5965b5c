import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { isCidrOrHost, parseCidr } from '../net/cidr.js';
import { BROWSERS, type BrowserName } from '../capture-spec.js';
import { DEFAULT_MAX_PAGE_HEIGHT, PNG_ENCODINGS, type DriverKind, type PngEncoding } from '../contracts/browser-driver.js';
import { DEFAULT_PRICING, pricingSchema } from '../pricing.js';
import { DEFAULT_PLANS } from '../billing/default-plans.js';
import { readPlansFile } from './plans-file.js';
import { CLIENT_COMPAT_MODES, type ClientCompat, type Config } from './config.js';
import { SETTLE_CAP_DEFAULT_SECONDS } from './settings.js';

/** Raised when a setting is invalid; its message names every bad setting so start-up can print it. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const BOOLEAN_WORDS: Record<string, boolean> = { '1': true, true: true, yes: true, on: true, '0': false, false: false, no: false, off: false };
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and validates the configuration from an environment (process.env in entry points). */
export function loadConfig(env: Env): Config {
  const problems: string[] = [];
  const text = (name: string): string | null => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? null : v.trim();
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const v = text(name);
    if (v === null) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      problems.push(`${name}: must be a whole number from ${min} to ${max} (got "${v}")`);
      return fallback;
    }
    return Number(v);
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const v = text(name);
    if (v === null) return fallback;
    const b = BOOLEAN_WORDS[v.toLowerCase()];
    if (b === undefined) {
      problems.push(`${name}: must be true or false (got "${v}")`);
      return fallback;
    }
    return b;
  };
  const url = (name: string, protocols: string[]): string | null => {
    const v = text(name);
    if (v === null) return null;
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol)) throw new Error('protocol');
      return v;
    } catch {
      problems.push(`${name}: must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')} (got "${v}")`);
      return null;
    }
  };

  const port = int('PORT', 8080, 0, 65535);
  const host = text('HOST') ?? '0.0.0.0';
  const dataDir = path.resolve(text('SHOTFARM_DATA_DIR') ?? './data');
  const databaseUrl = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const natsUrl = url('NATS_URL', ['nats:', 'tls:', 'ws:', 'wss:']);
  const natsPrefix = text('SHOTFARM_NATS_PREFIX') ?? 'shotfarm';
  if (!/^[A-Za-z][A-Za-z0-9_]{0,31}$/.test(natsPrefix)) problems.push(`SHOTFARM_NATS_PREFIX: must be a letter then up to 31 letters, digits or _ (got "${natsPrefix}")`);

  let s3: Config['s3'] = null;
  const s3Endpoint = url('S3_ENDPOINT', ['http:', 'https:']);
  if (s3Endpoint) {
    const accessKey = text('S3_ACCESS_KEY');
    const secretKey = text('S3_SECRET_KEY');
    if (!accessKey) problems.push('S3_ACCESS_KEY: required when S3_ENDPOINT is set');
    if (!secretKey) problems.push('S3_SECRET_KEY: required when S3_ENDPOINT is set');
    s3 = { endpoint: s3Endpoint, accessKey: accessKey ?? '', secretKey: secretKey ?? '', bucket: text('S3_BUCKET') ?? 'shotfarm', region: text('S3_REGION') ?? 'us-east-1' };
  }

  const bootstrapKey = text('SHOTFARM_BOOTSTRAP_KEY');
  // 16 characters keep a hand-chosen bootstrap key from being guessable in a few thousand tries.
  if (bootstrapKey !== null && !/^[A-Za-z0-9_-]{16,128}$/.test(bootstrapKey)) {
    problems.push('SHOTFARM_BOOTSTRAP_KEY: must be 16 to 128 characters of A-Z, a-z, 0-9, _ or -');
  }

  const jwtSecret = text('JWT_SECRET');
  // HS256 wants at least 256 bits of key; 32 characters is the floor we accept.
  if (jwtSecret !== null && jwtSecret.length < 32) problems.push('JWT_SECRET: must be at least 32 characters');

  let pricing = DEFAULT_PRICING;
  const pricingText = text('SHOTFARM_PRICING');
  if (pricingText !== null) {
    try {
      pricing = pricingSchema.parse({ ...DEFAULT_PRICING, ...JSON.parse(pricingText) });
    } catch (err) {
      const why = err instanceof z.ZodError ? err.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : 'not valid JSON';
      problems.push(`SHOTFARM_PRICING: ${why}`);
    }
  }

  const logLevel = (text('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);

  const publicUrl = url('SHOTFARM_PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;

  const proxies: Record<string, string> = {};
  for (const name of Object.keys(env).filter((k) => /^SHOTFARM_PROXY_[A-Za-z]{2}$/.test(k)).sort()) {
    const proxy = url(name, ['http:', 'https:', 'socks5:']);
    if (proxy) proxies[name.slice(-2).toLowerCase()] = proxy;
  }
  const list = (name: string, fallback: string[]): string[] => {
    const v = text(name);
    return v === null ? fallback : v.split(',').map((x) => x.trim().toLowerCase()).filter(Boolean);
  };
  const browsers = list('SHOTFARM_AGENT_BROWSERS', [...BROWSERS]);
  for (const b of browsers) if (!(BROWSERS as readonly string[]).includes(b)) problems.push(`SHOTFARM_AGENT_BROWSERS: "${b}" is not one of ${BROWSERS.join(', ')}`);
  const countries = list('SHOTFARM_AGENT_COUNTRIES', []);
  for (const c of countries) if (!/^[a-z]{2}$/.test(c)) problems.push(`SHOTFARM_AGENT_COUNTRIES: "${c}" is not a two-letter country code`);
  const driver = (text('SHOTFARM_DRIVER') ?? 'playwright').toLowerCase();
  if (driver !== 'playwright' && driver !== 'selenium' && driver !== 'null') problems.push(`SHOTFARM_DRIVER: must be playwright or selenium (got "${driver}")`);
  // The null driver captures nothing (a stored image after a delay): it must never run by a typo or a
  // copied environment, so it takes a second, explicit setting.
  if (driver === 'null' && !bool('SHOTFARM_ALLOW_NULL_DRIVER', false)) {
    problems.push('SHOTFARM_DRIVER: null is the benchmark-and-test-only driver that captures nothing (it answers every capture with a stored image); set SHOTFARM_ALLOW_NULL_DRIVER=true to run it');
  }
  const seleniumGridUrl = url('SELENIUM_GRID_URL', ['http:', 'https:']);
  const privateTargetAllowlist = list('SHOTFARM_PRIVATE_TARGET_ALLOWLIST', []);
  for (const entry of privateTargetAllowlist) {
    if (!isCidrOrHost(entry)) problems.push(`SHOTFARM_PRIVATE_TARGET_ALLOWLIST: "${entry}" is neither a CIDR (10.0.0.0/8, fd00::/8), an address nor a host name`);
  }
  const trustedProxies = list('SHOTFARM_TRUSTED_PROXIES', []);
  for (const entry of trustedProxies) {
    if (parseCidr(entry) === null) problems.push(`SHOTFARM_TRUSTED_PROXIES: "${entry}" is neither an address nor a CIDR (10.0.0.0/8, fd00::/8)`);
  }
  const pngEncoding = (text('SHOTFARM_PNG_ENCODING') ?? 'fast').toLowerCase();
  if (!(PNG_ENCODINGS as readonly string[]).includes(pngEncoding)) problems.push(`SHOTFARM_PNG_ENCODING: must be ${PNG_ENCODINGS.join(' or ')} (got "${pngEncoding}")`);
  if (driver === 'selenium' && !seleniumGridUrl) problems.push('SELENIUM_GRID_URL: required when SHOTFARM_DRIVER is selenium');

  const decimal = (name: string, fallback: number, min: number, max: number): number => {
    const v = text(name);
    if (v === null) return fallback;
    if (!/^\d+(\.\d+)?$/.test(v) || Number(v) < min || Number(v) > max) {
      problems.push(`${name}: must be a number from ${min} to ${max} (got "${v}")`);
      return fallback;
    }
    return Number(v);
  };
  const secretsKeyText = text('SHOTFARM_SECRETS_KEY');
  let secretsKey: Buffer | null = null;
  if (secretsKeyText !== null) {
    // AES-256 takes exactly 32 bytes: 64 hex characters, or 44 characters of base64.
    secretsKey = /^[0-9a-fA-F]{64}$/.test(secretsKeyText) ? Buffer.from(secretsKeyText, 'hex') : Buffer.from(secretsKeyText, 'base64');
    if (secretsKey.length !== 32) problems.push('SHOTFARM_SECRETS_KEY: must be 32 bytes, as 64 hex characters or base64');
  }
  const plansFile = text('SHOTFARM_PLANS_FILE');
  const plans = plansFile === null ? [...DEFAULT_PLANS] : readPlansFile(path.resolve(plansFile), problems);
  const offlinePayments = (text('SHOTFARM_OFFLINE_PAYMENTS') ?? 'operator').toLowerCase();
  if (offlinePayments !== 'operator' && offlinePayments !== 'self-service') problems.push(`SHOTFARM_OFFLINE_PAYMENTS: must be operator or self-service (got "${offlinePayments}")`);
  const production = (text('NODE_ENV') ?? 'development') === 'production';
  const captchaSecret = text('CAPTCHA_SECRET');
  // The spec requires captcha_token in production: starting without a way to check it would let bots in.
  if (production && captchaSecret === null) problems.push('CAPTCHA_SECRET: required when NODE_ENV is production (signup and password reset check captcha_token)');
  const clientCompat = (text('SHOTFARM_CLIENT_COMPAT') ?? 'spec').toLowerCase();
  if (!(CLIENT_COMPAT_MODES as readonly string[]).includes(clientCompat)) problems.push(`SHOTFARM_CLIENT_COMPAT: must be ${CLIENT_COMPAT_MODES.join(' or ')} (got "${clientCompat}")`);
  const endpoint = (name: string, fallback: string): string => (url(name, ['http:', 'https:']) ?? fallback).replace(/\/+$/, '');

  const config: Config = {
    port,
    host,
    dataDir,
    databaseUrl,
    natsUrl,
    natsPrefix,
    s3,
    bootstrapKey,
    bootstrapCredits: int('SHOTFARM_BOOTSTRAP_CREDITS', 1000, 0, 1_000_000_000),
    rateLimitPerMinute: int('SHOTFARM_RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000),
    trustedProxies,
    allowPrivateTargets: bool('SHOTFARM_ALLOW_PRIVATE_TARGETS', false),
    privateTargetAllowlist,
    jwtSecret,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    publicUrlConfigured: text('SHOTFARM_PUBLIC_URL') !== null,
    pricing,
    clientCompat: clientCompat as ClientCompat,
    imageUrlTtlSeconds: int('SHOTFARM_IMAGE_URL_TTL_SECONDS', 7 * 24 * 3600, 60, 365 * 24 * 3600),
    // 30 days is the longest cache period the API accepts, so the default cannot exceed it.
    cacheDefaultSeconds: int('SHOTFARM_CACHE_DEFAULT_SECONDS', 86400, 0, 2_592_000),
    batch: {
      // 10 MiB holds 10,000 URLs of a kilobyte each, the most one batch takes.
      maxFileBytes: int('SHOTFARM_BATCH_MAX_FILE_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
      zipUrlTtlSeconds: int('SHOTFARM_ZIP_URL_TTL_SECONDS', 7 * 24 * 3600, 60, 365 * 24 * 3600),
    },
    logLevel,
    production,
    farm: {
      proxies,
      maxBacklog: int('SHOTFARM_MAX_BACKLOG', 10_000, 1, 10_000_000),
      maxDeliveries: int('SHOTFARM_MAX_DELIVERIES', 3, 1, 20),
      captureTimeoutSeconds: int('SHOTFARM_CAPTURE_TIMEOUT_SECONDS', 60, 5, 600),
      // 64, like agent slots: a crawl never needs more pages of one host at once than one agent could run.
      crawlHostConcurrency: int('SHOTFARM_CRAWL_HOST_CONCURRENCY', 2, 1, 64),
      heartbeatSeconds: int('SHOTFARM_HEARTBEAT_SECONDS', 5, 1, 60),
    },
    agent: {
      browsers: browsers as BrowserName[],
      slots: int('SHOTFARM_AGENT_SLOTS', 2, 1, 1024),
      countries,
      nodeId: text('SHOTFARM_NODE_ID') ?? `${os.hostname()}-${process.pid}`,
      driver: driver as DriverKind,
      nullDriver: { delayMs: int('SHOTFARM_NULL_DRIVER_DELAY_MS', 100, 0, 600_000), imagePath: text('SHOTFARM_NULL_DRIVER_IMAGE') },
      seleniumGridUrl,
      chromiumPath: text('CHROMIUM_PATH') ?? '/usr/lib/chromium/chromium',
      firefoxPath: text('FIREFOX_PATH') ?? '/usr/bin/firefox-esr',
      bravePath: text('BRAVE_PATH'),
      ffmpegPath: text('FFMPEG_PATH'),
      recycleAfterJobs: int('SHOTFARM_BROWSER_RECYCLE_AFTER', 200, 1, 100_000),
      capturesPerBrowser: int('SHOTFARM_CAPTURES_PER_BROWSER', 1, 1, 64),
      poolIdleSeconds: int('SHOTFARM_POOL_IDLE_SECONDS', 300, 1, 86_400),
      pngEncoding: pngEncoding as PngEncoding,
      settleCapSeconds: decimal('SHOTFARM_SETTLE_CAP_SECONDS', SETTLE_CAP_DEFAULT_SECONDS, 0, 30),
      maxPageHeight: int('SHOTFARM_MAX_PAGE_HEIGHT', DEFAULT_MAX_PAGE_HEIGHT, 100, 1_000_000),
    },
    apps: {
      secretsKey,
      // Paths keep their case; package names are case-sensitive too.
      plugins: (text('SHOTFARM_PLUGINS') ?? '').split(',').map((x) => x.trim()).filter(Boolean),
      maxAttempts: int('SHOTFARM_APP_MAX_ATTEMPTS', 5, 1, 50),
      retrySeconds: decimal('SHOTFARM_APP_RETRY_SECONDS', 5, 0.01, 3600),
      timeoutSeconds: int('SHOTFARM_APP_TIMEOUT_SECONDS', 120, 1, 3600),
      concurrency: int('SHOTFARM_APP_CONCURRENCY', 4, 1, 64),
      endpoints: {
        // Base URLs are kept without a trailing slash; each app joins its paths to them.
        slackApiUrl: endpoint('SHOTFARM_SLACK_API_URL', 'https://slack.com/api'),
        googleDriveApiUrl: endpoint('SHOTFARM_GDRIVE_API_URL', 'https://www.googleapis.com'),
        googleTokenUrl: endpoint('SHOTFARM_GOOGLE_TOKEN_URL', 'https://oauth2.googleapis.com/token'),
        dropboxApiUrl: endpoint('SHOTFARM_DROPBOX_API_URL', 'https://api.dropboxapi.com'),
        dropboxContentUrl: endpoint('SHOTFARM_DROPBOX_CONTENT_URL', 'https://content.dropboxapi.com'),
        microsoftGraphUrl: endpoint('SHOTFARM_GRAPH_API_URL', 'https://graph.microsoft.com/v1.0'),
        microsoftLoginUrl: endpoint('SHOTFARM_MICROSOFT_LOGIN_URL', 'https://login.microsoftonline.com'),
      },
    },
    billing: {
      plans,
      // A period end is honoured within this interval; a day is the longest wait that still renews on time.
      renewalSeconds: int('SHOTFARM_BILLING_RENEWAL_SECONDS', 300, 1, 86_400),
      offlinePayments: offlinePayments as 'operator' | 'self-service',
    },
    auth: {
      // A floor of one second lets tests watch tokens expire; 30 days bounds what a stolen session is worth.
      jwtTtlSeconds: int('SHOTFARM_JWT_TTL_SECONDS', 7 * 24 * 3600, 1, 30 * 24 * 3600),
      impersonationTtlSeconds: int('SHOTFARM_IMPERSONATION_TTL_SECONDS', 3600, 1, 24 * 3600),
      verifyTokenTtlSeconds: int('SHOTFARM_VERIFY_TOKEN_TTL_SECONDS', 48 * 3600, 1, 30 * 24 * 3600),
      resetTokenTtlSeconds: int('SHOTFARM_RESET_TOKEN_TTL_SECONDS', 3600, 1, 7 * 24 * 3600),
      loginMaxFailures: int('SHOTFARM_LOGIN_MAX_FAILURES', 10, 1, 1000),
      signupCredits: int('SHOTFARM_SIGNUP_CREDITS', 0, 0, 1_000_000_000),
      captcha: { verifyUrl: url('CAPTCHA_VERIFY_URL', ['http:', 'https:']) ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify', secret: captchaSecret },
    },
    mail: {
      smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
      from: text('MAIL_FROM') ?? 'shotfarm <no-reply@localhost>',
    },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
