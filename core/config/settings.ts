import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_PLANS } from '../billing/default-plans.js';
import { BUILT_IN_AD_FILTER_LIST, parseAdFilterLists } from './ad-filter-lists.js';
import { BROWSERS, type BrowserName } from '../capture-spec.js';
import { DEFAULT_MAX_PAGE_HEIGHT, DEFAULT_PAGE_MEMORY_LIMIT_MB, DRIVER_KINDS, PNG_ENCODINGS } from '../contracts/browser-driver.js';
import { isCidrOrHost, parseCidr } from '../net/cidr.js';
import { DEFAULT_MAX_CAPTURE_MEGAPIXELS } from '../pixel-budget.js';
import { DEFAULT_PRICING, pricingSchema, type Pricing } from '../pricing.js';
import { CLIENT_COMPAT_MODES, LOG_LEVELS, OFFLINE_PAYMENT_MODES } from './config.js';
import { NATS_PREFIX_PATTERN, NATS_PREFIX_RULE } from './nats-prefix.js';
import { readPlansFile } from './plans-file.js';
import { S3_BUCKET_NAME } from '../storage/bucket-name.js';
import { baseUrl, boolean, decimalNumber, InvalidSetting, list, matching, oneOf, text, url, wholeNumber, type Parser } from './setting-parsers.js';

/**
 * The longest a capture waits after load for the page to settle (wait_until=settled, the default), in
 * seconds. A few seconds: the fixture corpus's late pages (module loaders, client-rendered tables, slow
 * web fonts, fade-ins, lazy images) settle within ~1.5 s; a page that never goes quiet (a long-poll, a
 * ticker) costs the cap on every capture, so it stays short. Drivers built without a configuration use it.
 */
export const SETTLE_CAP_DEFAULT_SECONDS = 3;

/**
 * The users' floor on a page monitor's period: five minutes. Declared here, beside the test-only setting that
 * lowers it (SHOTFARM_TEST_MONITOR_MIN_INTERVAL_SECONDS); the monitor parameters (api/monitors/monitor-params.ts)
 * read it from here.
 */
export const MONITOR_MIN_INTERVAL_SECONDS = 300;

/**
 * How `shotfarm settings` shows a value: `value` hides it whole (keys, secrets), `url-password` hides
 * the password of a URL's user info (postgres://user:pass@host) and keeps the rest readable.
 */
export type Secrecy = 'value' | 'url-password';

/** One setting: its environment variable, how its text becomes a value, what absence means, and its documentation. */
export interface Setting<T> {
  readonly name: string;
  /** the text in force when the variable is absent or blank, parsed like a given one; null: absence has its own meaning */
  readonly default: string | null;
  /** the default as the docs and `shotfarm settings` show it */
  readonly shownDefault: string;
  readonly meaning: string;
  readonly secret?: Secrecy;
  /** the value of the trimmed text, or of absence (null); throws InvalidSetting when the text is bad */
  value(text: string | null): T;
}

interface Declared<T> {
  name: string;
  parse: Parser<T>;
  meaning: string;
  secret?: Secrecy;
}

/** A setting with a default text: absence is the same as giving the default. */
function setting<T>(d: Declared<T> & { default: string }): Setting<T> {
  return { name: d.name, default: d.default, shownDefault: d.default === '' ? '(empty)' : d.default, meaning: d.meaning, secret: d.secret, value: (t) => d.parse(t ?? d.default) };
}

/** A setting whose absence means something no text says (`absent` tells what): null, or `whenAbsent()`. */
function optional<T, A = null>(d: Declared<T> & { absent: string; whenAbsent?: () => A }): Setting<T | A> {
  return { name: d.name, default: null, shownDefault: d.absent, meaning: d.meaning, secret: d.secret, value: (t) => (t === null ? (d.whenAbsent ? d.whenAbsent() : (null as A)) : d.parse(t)) };
}

const pricing: Parser<Pricing> = (v) => {
  try {
    return pricingSchema.parse({ ...DEFAULT_PRICING, ...JSON.parse(v) });
  } catch (err) {
    throw new InvalidSetting([err instanceof z.ZodError ? err.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : 'not valid JSON']);
  }
};

/** Megapixels in the setting, device pixels in the configuration. 2500 is the largest viewport the options take (10000 × 10000 at scale 5). */
const megapixels: Parser<number> = (v) => Math.round(decimalNumber(2, 2500)(v) * 1_000_000);

// Secrets are never repeated in a problem: start-up errors end in logs.
const bootstrapKey: Parser<string> = (v) => {
  // 16 characters keep a hand-chosen bootstrap key from being guessable in a few thousand tries.
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(v)) throw new InvalidSetting(['must be 16 to 128 characters of A-Z, a-z, 0-9, _ or -']);
  return v;
};
const jwtSecret: Parser<string> = (v) => {
  // HS256 wants at least 256 bits of key; 32 characters is the floor we accept.
  if (v.length < 32) throw new InvalidSetting(['must be at least 32 characters']);
  return v;
};
const secretsKey: Parser<Buffer> = (v) => {
  // AES-256 takes exactly 32 bytes: 64 hex characters, or 44 characters of base64.
  const key = /^[0-9a-fA-F]{64}$/.test(v) ? Buffer.from(v, 'hex') : Buffer.from(v, 'base64');
  if (key.length !== 32) throw new InvalidSetting(['must be 32 bytes, as 64 hex characters or base64']);
  return key;
};
/** One entry of SHOTFARM_HOSTING_BUCKETS: `bucket` or `<account id>:bucket`, the bucket named by S3's rules. */
const hostingBucketProblem = (entry: string): string | null =>
  S3_BUCKET_NAME.test(entry.replace(/^\d{1,15}:/, '')) ? null : `"${entry}" is neither a bucket name (3 to 63 of a-z, 0-9, . and -) nor <account id>:<bucket>`;
const metricsToken: Parser<string> = (v) => {
  // 16 characters of a generated token are beyond guessing over HTTP; the same floor as the bootstrap key.
  if (!/^[\x21-\x7e]{16,256}$/.test(v)) throw new InvalidSetting(['must be 16 to 256 printable characters without spaces']);
  return v;
};
const browserList = list((b) => ((BROWSERS as readonly string[]).includes(b) ? null : `"${b}" is not one of ${BROWSERS.join(', ')}`)) as Parser<BrowserName[]>;

/** The variables of the per-country proxies (SHOTFARM_PROXY_FR …), all read with SETTING.countryProxy. */
export const COUNTRY_PROXY_VARIABLE = /^SHOTFARM_PROXY_[A-Za-z]{2}$/;

/**
 * Every setting of shotfarm, declared once: the loader (load-config.ts) reads each through its
 * declaration, `shotfarm settings` prints the values in force, and the operators' table derives from it.
 * The order is the documentation's.
 */
export const SETTING = {
  port: setting({ name: 'PORT', default: '8080', parse: wholeNumber(0, 65535), meaning: "HTTP port of the API (or of an agent's /healthz and /metrics)." }),
  host: setting({ name: 'HOST', default: '0.0.0.0', parse: text, meaning: 'Address the HTTP server binds to.' }),
  metricsToken: optional({
    name: 'SHOTFARM_METRICS_TOKEN',
    absent: '(absent)',
    parse: metricsToken,
    secret: 'value',
    meaning:
      'Bearer token GET /metrics asks for (of the API and of every agent): scrapers send `Authorization: Bearer <token>`, anything else gets 401. Absent: /metrics answers everyone who reaches the port.',
  }),
  dataDir: setting({ name: 'SHOTFARM_DATA_DIR', default: './data', parse: (v) => path.resolve(v), meaning: 'Folder for the embedded database, stored files and generated secrets.' }),
  databaseUrl: optional({
    name: 'DATABASE_URL',
    absent: '(absent)',
    parse: url(['postgres:', 'postgresql:']),
    secret: 'url-password',
    meaning: 'Postgres URL. Absent: embedded PGlite in <data dir>/pglite.',
  }),
  natsUrl: optional({
    name: 'NATS_URL',
    absent: '(absent)',
    parse: url(['nats:', 'tls:', 'ws:', 'wss:']),
    secret: 'url-password',
    meaning: 'NATS server with JetStream. Absent: in-process queue (embedded mode).',
  }),
  natsPrefix: setting({
    name: 'SHOTFARM_NATS_PREFIX',
    default: 'shotfarm',
    parse: matching(NATS_PREFIX_PATTERN, NATS_PREFIX_RULE),
    meaning: 'Prefix of the JetStream streams, consumers and KV buckets, so several installations can share one NATS.',
  }),
  s3Endpoint: optional({
    name: 'S3_ENDPOINT',
    absent: '(absent)',
    parse: url(['http:', 'https:']),
    secret: 'url-password',
    meaning: 'S3/MinIO endpoint URL, e.g. http://minio:9000. Absent: files in <data dir>/objects.',
  }),
  s3AccessKey: optional({ name: 'S3_ACCESS_KEY', absent: '(absent)', parse: text, secret: 'value', meaning: 'S3 access key (required with S3_ENDPOINT).' }),
  s3SecretKey: optional({ name: 'S3_SECRET_KEY', absent: '(absent)', parse: text, secret: 'value', meaning: 'S3 secret key (required with S3_ENDPOINT).' }),
  s3Bucket: setting({ name: 'S3_BUCKET', default: 'shotfarm', parse: text, meaning: 'Bucket for screenshots and other outputs.' }),
  s3Region: setting({ name: 'S3_REGION', default: 'us-east-1', parse: text, meaning: 'S3 region.' }),
  publicS3Url: optional({
    name: 'SHOTFARM_PUBLIC_S3_URL',
    absent: '(absent)',
    parse: baseUrl,
    meaning:
      "Public base URL of the service's S3 as readers outside reach it (a CDN or the server's public name): output_url of a batch's hosting=s3 upload is <this>/<bucket>/<key>. Absent: that output_url is empty (S3_ENDPOINT is an internal address and is never shown).",
  }),
  hostingBuckets: setting({
    name: 'SHOTFARM_HOSTING_BUCKETS',
    default: '',
    parse: list(hostingBucketProblem),
    meaning:
      "Buckets of the service's S3 a batch's hosting=s3 may upload into with the service's credentials (comma list; the first an account may use is its default). `bucket` is offered to every account; `<account id>:bucket` only to that account, and an account with entries of its own gets only those. Empty: hosting=s3 uploads only through the account's own s3 app configuration (hosting_bucket names its bucket).",
  }),
  hostingPublicRead: setting({
    name: 'SHOTFARM_HOSTING_PUBLIC_READ',
    default: 'false',
    parse: boolean,
    meaning:
      "Upload a batch's hosting=s3 files into the service's buckets public-read unless the batch sets hosting_private=true. false: always private (owner full control), and hosting_private=false is refused.",
  }),
  bootstrapKey: optional({
    name: 'SHOTFARM_BOOTSTRAP_KEY',
    absent: '(absent)',
    parse: bootstrapKey,
    secret: 'value',
    meaning:
      'API key created at start if it does not exist yet, so operators and scripts start with a known key. Absent in embedded mode: a key is generated once and kept in <data dir>/bootstrap-key.',
  }),
  bootstrapCredits: setting({
    name: 'SHOTFARM_BOOTSTRAP_CREDITS',
    default: '1000',
    parse: wholeNumber(0, 1_000_000_000),
    meaning: "Credits granted to the bootstrap key's account when it is created.",
  }),
  rateLimitPerMinute: setting({
    name: 'SHOTFARM_RATE_LIMIT_PER_MINUTE',
    default: '600',
    parse: wholeNumber(0, 1_000_000),
    meaning: 'Requests per minute allowed per credential (API key or user); 0 disables the limit.',
  }),
  trustedProxies: setting({
    name: 'SHOTFARM_TRUSTED_PROXIES',
    default: '',
    parse: list((e) => (parseCidr(e) === null ? `"${e}" is neither an address nor a CIDR (10.0.0.0/8, fd00::/8)` : null)),
    meaning:
      "Reverse proxies (comma list of addresses and CIDRs) whose X-Forwarded-For names the client; the client is then the right-most address in it that is not one of them. Empty: the header is ignored and the connection's address is the client (for the login, signup and password-reset limits).",
  }),
  allowPrivateTargets: setting({ name: 'SHOTFARM_ALLOW_PRIVATE_TARGETS', default: 'false', parse: boolean, meaning: 'Allow captures of loopback, private, link-local and metadata addresses.' }),
  privateTargetAllowlist: setting({
    name: 'SHOTFARM_PRIVATE_TARGET_ALLOWLIST',
    default: '',
    parse: list((e) => (isCidrOrHost(e) ? null : `"${e}" is neither a CIDR (10.0.0.0/8, fd00::/8), an address nor a host name`)),
    meaning:
      'Private addresses and host names captures may reach although SHOTFARM_ALLOW_PRIVATE_TARGETS is false (comma list of CIDRs, addresses and host names, e.g. 10.20.0.0/16,intranet.example).',
  }),
  jwtSecret: optional({
    name: 'JWT_SECRET',
    absent: '(generated)',
    parse: jwtSecret,
    secret: 'value',
    meaning: 'HMAC secret for dashboard JWTs (at least 32 characters). Absent: generated once and kept in <data dir>/jwt-secret.',
  }),
  // A floor of one second lets tests watch tokens expire; 30 days bounds what a stolen session is worth.
  jwtTtlSeconds: setting({
    name: 'SHOTFARM_JWT_TTL_SECONDS',
    default: String(7 * 24 * 3600),
    parse: wholeNumber(1, 30 * 24 * 3600),
    meaning: 'How long a dashboard session token (from login or signup) is valid.',
  }),
  impersonationTtlSeconds: setting({
    name: 'SHOTFARM_IMPERSONATION_TTL_SECONDS',
    default: '3600',
    parse: wholeNumber(1, 24 * 3600),
    meaning: 'How long a token from POST /admin/impersonate is valid.',
  }),
  verifyTokenTtlSeconds: setting({
    name: 'SHOTFARM_VERIFY_TOKEN_TTL_SECONDS',
    default: String(48 * 3600),
    parse: wholeNumber(1, 30 * 24 * 3600),
    meaning: 'How long the link of an email-verification message works.',
  }),
  resetTokenTtlSeconds: setting({ name: 'SHOTFARM_RESET_TOKEN_TTL_SECONDS', default: '3600', parse: wholeNumber(1, 7 * 24 * 3600), meaning: 'How long the link of a password-reset message works.' }),
  // Long enough for links already out (e-mails, pages, CDN caches) to be replaced after a rotation; a floor of
  // one second lets tests watch the previous secret stop working.
  signingSecretGraceSeconds: setting({
    name: 'SHOTFARM_SIGNING_SECRET_GRACE_SECONDS',
    default: '86400',
    parse: wholeNumber(1, 30 * 24 * 3600),
    meaning: "How long an API key's previous signing secret keeps signing render links after POST /key/rotate-signing-secret.",
  }),
  loginMaxFailures: setting({
    name: 'SHOTFARM_LOGIN_MAX_FAILURES',
    default: '10',
    parse: wholeNumber(1, 1000),
    meaning:
      'Failed logins that lock an account (tried from any address) for the rest of 15 minutes from the first (a password reset lifts the lock at once). A client address may fail five times as many (for any accounts) before each failure makes it wait before its next try: 2 s, doubling up to a minute.',
  }),
  // 10: a household or a small office signs up in a day; a script with a catch-all domain gets 10 accounts, not thousands.
  signupsPerAddressPerDay: setting({
    name: 'SHOTFARM_SIGNUPS_PER_ADDRESS_PER_DAY',
    default: '10',
    parse: wholeNumber(0, 1_000_000),
    meaning: 'Accounts POST /auth/signup may open per client address (an IPv6 client by its /64; see SHOTFARM_TRUSTED_PROXIES) in 24 hours from the first; then signup answers 429. 0: no limit.',
  }),
  signupCredits: setting({
    name: 'SHOTFARM_SIGNUP_CREDITS',
    default: '0',
    parse: wholeNumber(0, 1_000_000_000),
    meaning:
      'Credits granted (through the ledger) to an account opened by POST /auth/signup once its email is verified, to the first such account of an email inbox only (case, +tags and Gmail dots do not make another inbox).',
  }),
  smtpUrl: optional({
    name: 'SMTP_URL',
    absent: '(absent)',
    parse: url(['smtp:', 'smtps:']),
    secret: 'url-password',
    meaning:
      'SMTP server for account email (verification, password reset), e.g. smtps://user:pass@mail.example:465. Absent: messages are written to the log and kept in the outbox (GET /admin/outbox).',
  }),
  mailFrom: setting({ name: 'MAIL_FROM', default: 'shotfarm <no-reply@localhost>', parse: text, meaning: 'Sender of account email.' }),
  captchaVerifyUrl: setting({
    name: 'CAPTCHA_VERIFY_URL',
    default: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    parse: url(['http:', 'https:']),
    meaning:
      'Captcha verify endpoint (Cloudflare Turnstile or hCaptcha style: form secret, response, remoteip → JSON success) checking the captcha_token of signup, forgot-password and reset-password in production.',
  }),
  captchaSecret: optional({
    name: 'CAPTCHA_SECRET',
    absent: '(absent)',
    parse: text,
    secret: 'value',
    meaning: 'Secret sent to CAPTCHA_VERIFY_URL. Required when NODE_ENV is production; captcha_token is not checked outside production.',
  }),
  publicUrl: optional({ name: 'SHOTFARM_PUBLIC_URL', absent: 'http://localhost:<PORT>', parse: baseUrl, meaning: 'Public base URL used in links the API hands out (zip_url, output links).' }),
  clientCompat: setting({
    name: 'SHOTFARM_CLIENT_COMPAT',
    default: 'spec',
    parse: oneOf(CLIENT_COMPAT_MODES),
    meaning:
      "Shape of the create answers: spec (data is an array), or screenshotcenter for the original service's official clients: a create that yields one screenshot answers it as an object, batch create answers the Batch object.",
  }),
  pricing: setting({
    name: 'SHOTFARM_PRICING',
    default: JSON.stringify(DEFAULT_PRICING),
    parse: pricing,
    meaning: 'Credits per screenshot: base price plus extras for a full-page capture, a PDF, a video, HTML, Markdown, metadata, and each shot after the first (JSON).',
  }),
  // 30 days is the longest cache period the API accepts, so the default cannot exceed it.
  // Sources (beyond-v1.md part 3): the longest source_html / source_markdown, in UTF-8 bytes of the text. A query
  // string is bounded by the request head (512 KiB, api/http/http-server.ts): 128 KiB percent-encoded at worst
  // (3 bytes a byte) still fits. A body's 5 MiB is a large invoice or report with inline images; the text
  // also travels inside the job message (NATS max_payload must hold it, docs/operators.md).
  sourceQueryMaxBytes: setting({
    name: 'SHOTFARM_SOURCE_QUERY_MAX_BYTES',
    default: String(64 * 1024),
    parse: wholeNumber(1024, 128 * 1024),
    meaning:
      'Longest source_html or source_markdown given in a query string, in bytes of UTF-8 (1024 to 131072); a longer one is refused with 413 naming this setting. Send long sources in a POST body.',
  }),
  sourceBodyMaxBytes: setting({
    name: 'SHOTFARM_SOURCE_BODY_MAX_BYTES',
    default: String(5 * 1024 * 1024),
    parse: wholeNumber(1024, 64 * 1024 * 1024),
    meaning:
      "Longest source_html or source_markdown given in a POST body (JSON or form), in bytes of UTF-8 (1024 to 67108864); a longer one is refused with 413 naming this setting. In distributed mode the job message carries the source: keep it below the NATS server's max_payload.",
  }),
  cacheDefaultSeconds: setting({ name: 'SHOTFARM_CACHE_DEFAULT_SECONDS', default: '86400', parse: wholeNumber(0, 2_592_000), meaning: 'Cache period used when a request says cache=true.' }),
  countryProxy: optional({
    name: 'SHOTFARM_PROXY_<CC>',
    absent: '(absent)',
    parse: url(['http:', 'https:', 'socks5:']),
    secret: 'url-password',
    meaning: 'Proxy URL for captures from country <CC> (e.g. SHOTFARM_PROXY_FR=http://proxy-fr:3128), used when no agent egresses from that country.',
  }),
  maxBacklog: setting({
    name: 'SHOTFARM_MAX_BACKLOG',
    default: '10000',
    parse: wholeNumber(1, 10_000_000),
    meaning: 'Queued jobs per browser above which create answers 429 with retry_after (nothing created).',
  }),
  maxDeliveries: setting({
    name: 'SHOTFARM_MAX_DELIVERIES',
    default: '3',
    parse: wholeNumber(1, 20),
    meaning: 'Attempts per job (browser crash, lost agent) before it ends as error. A capture that failed after using its whole deadline is tried at most twice, whatever this says.',
  }),
  // 64, like agent slots: a crawl never needs more pages of one host at once than one agent could run.
  crawlHostConcurrency: setting({
    name: 'SHOTFARM_CRAWL_HOST_CONCURRENCY',
    default: '2',
    parse: wholeNumber(1, 64),
    meaning: 'Pages of one host a crawl has in flight at once (politeness towards the crawled site).',
  }),
  captureTimeoutSeconds: setting({
    name: 'SHOTFARM_CAPTURE_TIMEOUT_SECONDS',
    default: '60',
    parse: wholeNumber(5, 600),
    meaning: 'Deadline of a capture whose request sets no max_wait: what is there when it passes is captured.',
  }),
  settleCapSeconds: setting({
    name: 'SHOTFARM_SETTLE_CAP_SECONDS',
    default: String(SETTLE_CAP_DEFAULT_SECONDS),
    parse: decimalNumber(0, 30),
    meaning:
      'Longest wait after load for the page to settle (no request in flight for a short quiet window, fonts loaded, no layout change across animation frames) before the capture (wait_until=settled, the default). A page still busy then is captured with a warning. Decimals allowed; 0 turns the wait off.',
  }),
  agentBrowsers: setting({ name: 'SHOTFARM_AGENT_BROWSERS', default: BROWSERS.join(','), parse: browserList, meaning: 'Browsers an agent (and the embedded service) offers.' }),
  agentSlots: setting({
    name: 'SHOTFARM_AGENT_SLOTS',
    default: '2',
    parse: wholeNumber(1, 1024),
    meaning: 'Captures an agent runs at once (one per core is the measured sweet spot). Up to 1024, so one null-driver agent can stand for many browsers in `make bench-farm`.',
  }),
  agentCountries: setting({
    name: 'SHOTFARM_AGENT_COUNTRIES',
    default: '',
    parse: list((c) => (/^[a-z]{2}$/.test(c) ? null : `"${c}" is not a two-letter country code`)),
    meaning: 'Countries an agent egresses from (comma list, e.g. fr,de); jobs for them are routed to it.',
  }),
  nodeId: optional({ name: 'SHOTFARM_NODE_ID', absent: '<host>-<pid>', whenAbsent: () => `${os.hostname()}-${process.pid}`, parse: text, meaning: 'Name of an agent in the node registry.' }),
  driver: setting({
    name: 'SHOTFARM_DRIVER',
    default: 'playwright',
    parse: oneOf(DRIVER_KINDS),
    meaning:
      'Browser driver of an agent: playwright, or selenium (with SELENIUM_GRID_URL). null is for benchmarks and tests only: it starts no browser and answers every capture with a stored image (refused unless SHOTFARM_ALLOW_NULL_DRIVER is true).',
  }),
  allowNullDriver: setting({ name: 'SHOTFARM_ALLOW_NULL_DRIVER', default: 'false', parse: boolean, meaning: 'Must be true for SHOTFARM_DRIVER=null to start; never set it in production.' }),
  nullDriverDelayMs: setting({
    name: 'SHOTFARM_NULL_DRIVER_DELAY_MS',
    default: '100',
    parse: wholeNumber(0, 600_000),
    meaning: 'Null driver only: milliseconds each capture takes before it answers.',
  }),
  nullDriverImage: optional({ name: 'SHOTFARM_NULL_DRIVER_IMAGE', absent: '(built-in 4×3 PNG)', parse: text, meaning: 'Null driver only: PNG file every capture answers with.' }),
  seleniumGridUrl: optional({ name: 'SELENIUM_GRID_URL', absent: '(absent)', parse: url(['http:', 'https:']), secret: 'url-password', meaning: 'Selenium Grid 4 URL for the selenium driver.' }),
  chromiumPath: setting({ name: 'CHROMIUM_PATH', default: '/usr/lib/chromium/chromium', parse: text, meaning: 'Chromium or Chrome binary for chrome (and brave emulation).' }),
  firefoxPath: setting({ name: 'FIREFOX_PATH', default: '/usr/bin/firefox-esr', parse: text, meaning: 'Firefox binary (driven over WebDriver BiDi).' }),
  bravePath: optional({ name: 'BRAVE_PATH', absent: '(absent)', parse: text, meaning: "Brave binary. Absent: brave runs Chromium with Brave's behaviour (shields, client hints), and says so." }),
  ffmpegPath: optional({ name: 'FFMPEG_PATH', absent: '(absent)', parse: text, meaning: 'ffmpeg binary for video. Absent: ffmpeg-static when installed, else ffmpeg on PATH.' }),
  adFilterLists: setting({
    name: 'SHOTFARM_AD_FILTER_LISTS',
    default: BUILT_IN_AD_FILTER_LIST,
    parse: parseAdFilterLists,
    meaning:
      "Filter lists in Adblock Plus syntax that hide_ads (and brave's shields emulation) block with: a comma list of file paths and `builtin`, AdGuard's Base filter (from the @adguard/dnr-rulesets package) with the compact list shipped in drivers/brave/filters (e.g. builtin,/etc/shotfarm/easylist.txt,/etc/shotfarm/easyprivacy.txt). Each file is checked at start; an unreadable one stops the process. Lists are read and parsed once per agent process.",
  }),
  recycleAfterJobs: setting({ name: 'SHOTFARM_BROWSER_RECYCLE_AFTER', default: '200', parse: wholeNumber(1, 100_000), meaning: 'A pooled browser is replaced after this many captures.' }),
  maxPageHeight: setting({
    name: 'SHOTFARM_MAX_PAGE_HEIGHT',
    default: String(DEFAULT_MAX_PAGE_HEIGHT),
    parse: wholeNumber(100, 1_000_000),
    meaning:
      'Tallest full-page capture in CSS pixels (100 to 1000000); a taller page is cut there and the screenshot gets a warning naming this setting. It bounds the memory and time of one capture (`make bench-tall` measures a 100000 px page).',
  }),
  maxCapturePixels: setting({
    name: 'SHOTFARM_MAX_CAPTURE_MEGAPIXELS',
    default: String(DEFAULT_MAX_CAPTURE_MEGAPIXELS),
    parse: megapixels,
    meaning:
      'Pixel budget of one capture in megapixels (2 to 2500, decimals allowed): width × height × device_scale² together. A create whose viewport alone is above it is refused (400 naming the fields); a full page above it is cut there, with a warning naming this setting. The default is 1280 × 100000 px at scale 1; see "Pixel budget and page memory" for what a capture at the budget costs.',
  }),
  pageMemoryLimitMb: setting({
    name: 'SHOTFARM_PAGE_MEMORY_LIMIT_MB',
    default: String(DEFAULT_PAGE_MEMORY_LIMIT_MB),
    parse: wholeNumber(256, 1_048_576),
    meaning:
      "Memory ceiling of one browser process (a page's renderer), resident MB: a process above it during a capture is ended and the capture ends `error` (error_cause too_much_memory), not retried. Playwright browsers only: a Selenium Grid's browsers are out of the agent's sight.",
  }),
  prepareContexts: setting({
    name: 'SHOTFARM_PREPARE_CONTEXTS',
    default: 'true',
    parse: boolean,
    meaning:
      "Make the next capture's fresh browser context and page while the browser is idle after a capture, so it is ready when the next one comes (one per slot at most; used only by a capture with the same context options, once, then closed; behind the egress guard it reaches nothing until its capture is bound to it). Chrome and brave through Playwright; Firefox and the Selenium driver make each context when its capture starts.",
  }),
  pngEncoding: setting({
    name: 'SHOTFARM_PNG_ENCODING',
    default: 'fast',
    parse: oneOf(PNG_ENCODINGS),
    meaning: 'How Chromium compresses PNG screenshots: fast (about half the encoding CPU, files 1.3–1.7× larger) or small. Same pixels either way.',
  }),
  capturesPerBrowser: setting({
    name: 'SHOTFARM_CAPTURES_PER_BROWSER',
    default: '1',
    parse: wholeNumber(1, 64),
    meaning:
      'Captures one pooled browser serves at once, each in its own context; more slots start more browsers. 1 (a browser per slot) was 1.03–1.16× faster than contexts of one browser for full pages at 2 and 4 slots and about even for viewports (make bench), at about twice the memory.',
  }),
  poolIdleSeconds: setting({
    name: 'SHOTFARM_POOL_IDLE_SECONDS',
    default: '30',
    parse: wholeNumber(1, 86_400),
    meaning:
      'A pooled browser above the warm minimum (SHOTFARM_POOL_WARM_BROWSERS) is closed after this many seconds without a capture (checked four times per timeout, at most every 30 s), so an idle node gives its memory back within about a minute (make bench-idle).',
  }),
  // 0 by measurement (make bench-idle, docs/performance.md "Idle memory"): a warm Chromium kept an idle serve
  // at 1.1–1.4 GB of tree RSS against 0.50–0.54 GB with none (2.5 GB with one of each default browser), and
  // without it the first capture after idle took one launch longer (+0.57 s against a 0.59 s launch, loaded machine).
  poolWarmBrowsers: setting({
    name: 'SHOTFARM_POOL_WARM_BROWSERS',
    default: '0',
    parse: wholeNumber(0, 64),
    meaning:
      'Browsers of each offered browser an agent keeps started while idle; the others close after SHOTFARM_POOL_IDLE_SECONDS. 0: an idle node holds no browser and the first capture after a pause launches one (~0.3–0.4 s for Chromium); 1 keeps that launch off the first capture at about 0.6 GB of RSS per offered Chromium (make bench-idle).',
  }),
  heartbeatSeconds: setting({ name: 'SHOTFARM_HEARTBEAT_SECONDS', default: '5', parse: wholeNumber(1, 60), meaning: 'How often an agent heartbeats; it disappears after three missed beats.' }),
  // 10 MiB holds 10,000 URLs of a kilobyte each, the most one batch takes.
  batchMaxFileBytes: setting({
    name: 'SHOTFARM_BATCH_MAX_FILE_BYTES',
    default: String(10 * 1024 * 1024),
    parse: wholeNumber(1024, 1024 * 1024 * 1024),
    meaning: 'Largest batch file accepted (bytes); a larger one is refused with 413 before it is read whole.',
  }),
  imageUrlTtlSeconds: setting({
    name: 'SHOTFARM_IMAGE_URL_TTL_SECONDS',
    default: String(7 * 24 * 3600),
    parse: wholeNumber(60, 365 * 24 * 3600),
    meaning: 'How long the signed image_url of a webhook delivery in the screenshotcenter format works without an API key.',
  }),
  zipUrlTtlSeconds: setting({
    name: 'SHOTFARM_ZIP_URL_TTL_SECONDS',
    default: String(7 * 24 * 3600),
    parse: wholeNumber(60, 365 * 24 * 3600),
    meaning: "How long a batch's signed zip_url works without an API key.",
  }),
  // 1568 px: the long side past which Claude's vision input is scaled down anyway (Anthropic's image guide), so
  // a larger image costs the agent tokens and transfer for nothing it can see.
  mcpMaxImagePx: setting({
    name: 'SHOTFARM_MCP_MAX_IMAGE_PX',
    default: '1568',
    parse: wholeNumber(64, 10_000),
    meaning: 'Longest side, in pixels, of the image the MCP tools (`shotfarm mcp`, /api/v1/mcp) hand an agent; a larger capture is scaled down to it (the stored image keeps its size).',
  }),
  secretsKey: optional({
    name: 'SHOTFARM_SECRETS_KEY',
    absent: '(generated)',
    parse: secretsKey,
    secret: 'value',
    meaning:
      'Key that encrypts app secrets at rest (AES-256-GCM): 32 bytes as 64 hex characters or base64. Absent: generated once and kept in <data dir>/secrets-key. Every control plane of one installation needs the same key.',
  }),
  // Paths keep their case; package names are case-sensitive too.
  plugins: setting({
    name: 'SHOTFARM_PLUGINS',
    default: '',
    parse: list(undefined, false),
    meaning: 'Extra app plugins: comma list of package names or paths to modules exporting an AppPlugin (see plugins/README.md).',
  }),
  appMaxAttempts: setting({ name: 'SHOTFARM_APP_MAX_ATTEMPTS', default: '5', parse: wholeNumber(1, 50), meaning: 'Attempts of an app run (or event delivery) before it ends as error.' }),
  appRetrySeconds: setting({
    name: 'SHOTFARM_APP_RETRY_SECONDS',
    default: '5',
    parse: decimalNumber(0.01, 3600),
    meaning: "Wait before an app run's first retry; doubled for each further attempt (with jitter), capped at one hour. Decimals allowed.",
  }),
  appTimeoutSeconds: setting({
    name: 'SHOTFARM_APP_TIMEOUT_SECONDS',
    default: '120',
    parse: wholeNumber(1, 3600),
    meaning: 'Time one attempt of an app run may take before it is aborted (and retried).',
  }),
  appConcurrency: setting({ name: 'SHOTFARM_APP_CONCURRENCY', default: '4', parse: wholeNumber(1, 64), meaning: 'App runs one control plane executes at once.' }),
  slackApiUrl: setting({
    name: 'SHOTFARM_SLACK_API_URL',
    default: 'https://slack.com/api',
    parse: baseUrl,
    meaning: 'Slack Web API base URL used by the slack app (point it at a gateway in air-gapped deployments).',
  }),
  googleDriveApiUrl: setting({ name: 'SHOTFARM_GDRIVE_API_URL', default: 'https://www.googleapis.com', parse: baseUrl, meaning: 'Google APIs root URL used by the gdrive app.' }),
  googleTokenUrl: setting({
    name: 'SHOTFARM_GOOGLE_TOKEN_URL',
    default: 'https://oauth2.googleapis.com/token',
    parse: baseUrl,
    meaning: 'Google OAuth token endpoint used by the gdrive app (refresh tokens and service accounts).',
  }),
  dropboxApiUrl: setting({
    name: 'SHOTFARM_DROPBOX_API_URL',
    default: 'https://api.dropboxapi.com',
    parse: baseUrl,
    meaning: 'Dropbox RPC API base URL used by the dropbox app (also for OAuth token refresh).',
  }),
  dropboxContentUrl: setting({
    name: 'SHOTFARM_DROPBOX_CONTENT_URL',
    default: 'https://content.dropboxapi.com',
    parse: baseUrl,
    meaning: 'Dropbox content (upload) API base URL used by the dropbox app.',
  }),
  microsoftGraphUrl: setting({ name: 'SHOTFARM_GRAPH_API_URL', default: 'https://graph.microsoft.com/v1.0', parse: baseUrl, meaning: 'Microsoft Graph base URL used by the onedrive app.' }),
  microsoftLoginUrl: setting({
    name: 'SHOTFARM_MICROSOFT_LOGIN_URL',
    default: 'https://login.microsoftonline.com',
    parse: baseUrl,
    meaning: 'Microsoft identity platform URL used by the onedrive app to get tokens.',
  }),
  plans: optional({
    name: 'SHOTFARM_PLANS_FILE',
    absent: '(built-in plans)',
    whenAbsent: () => [...DEFAULT_PLANS],
    parse: (v) => readPlansFile(path.resolve(v)),
    meaning: "JSON file listing the billing plans (an array in the spec's Plan shape, see api/billing/README.md); checked at start. Absent: free, starter, pro and a non-public enterprise plan.",
  }),
  // A period end is honoured within this interval; a day is the longest wait that still renews on time.
  billingRenewalSeconds: setting({
    name: 'SHOTFARM_BILLING_RENEWAL_SECONDS',
    default: '300',
    parse: wholeNumber(1, 86_400),
    meaning: 'How often the control plane renews subscriptions whose period has ended (new period, receipt, credits).',
  }),
  offlinePayments: setting({
    name: 'SHOTFARM_OFFLINE_PAYMENTS',
    default: 'operator',
    parse: oneOf(OFFLINE_PAYMENT_MODES),
    meaning:
      'Who may pay through the built-in offline provider (periods invoiced, credits granted before payment): operator = only accounts an admin approved as invoiced customers (POST /billing/invoiced-accounts) and admins; self-service = any account, including open sign-ups.',
  }),
  // A run starts at most one poll late; the 100 ms floor is for tests, an hour the longest wait that still means "scheduled".
  monitorPollMs: setting({
    name: 'SHOTFARM_MONITOR_POLL_MS',
    default: '5000',
    parse: wholeNumber(100, 3_600_000),
    meaning:
      'How often each API replica looks for page monitors that are due (milliseconds). A run starts at most this long after its time; replicas claim each run in the database, so any number may poll.',
  }),
  // Shorter monitor intervals exist for tests only (load-config.ts refuses them in production): users get five minutes.
  monitorMinIntervalSeconds: setting({
    name: 'SHOTFARM_TEST_MONITOR_MIN_INTERVAL_SECONDS',
    default: String(MONITOR_MIN_INTERVAL_SECONDS),
    parse: wholeNumber(1, MONITOR_MIN_INTERVAL_SECONDS),
    meaning: `Test only: the shortest monitor interval accepted (users get ${MONITOR_MIN_INTERVAL_SECONDS / 60} minutes). Below ${MONITOR_MIN_INTERVAL_SECONDS} is refused when NODE_ENV is production.`,
  }),
  // A hostile account could schedule captures without end (issue 25): 50 monitors cover a site's key pages.
  monitorsPerAccount: setting({
    name: 'SHOTFARM_MONITORS_PER_ACCOUNT',
    default: '50',
    parse: wholeNumber(1, 100_000),
    meaning: 'Page monitors an account may have (paused ones count); one more is refused with 403.',
  }),
  // 120 an hour: ten monitors at the 5-minute floor, or all 50 at every 25 minutes.
  monitorRunsPerHour: setting({
    name: 'SHOTFARM_MONITOR_RUNS_PER_HOUR',
    default: '120',
    parse: wholeNumber(1, 1_000_000),
    meaning:
      "Scheduled runs an hour an account's active monitors may ask for together (an interval of 300 s asks for 12; a cron expression as many as its shortest gap allows). A create, update or resume asking for more is refused with 400 naming interval or cron.",
  }),
  logLevel: setting({ name: 'LOG_LEVEL', default: 'info', parse: oneOf(LOG_LEVELS), meaning: 'Log level: fatal, error, warn, info, debug, trace or silent.' }),
  nodeEnv: setting({ name: 'NODE_ENV', default: 'development', parse: text, meaning: '`production` turns on production-only checks.' }),
} as const;

/** Every declaration, in the documentation's order. */
export const SETTINGS: readonly Setting<unknown>[] = Object.values(SETTING);
