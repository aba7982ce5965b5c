import { DEFAULT_MAX_PAGE_HEIGHT } from '../contracts/browser-driver.js';

/**
 * Every setting of shotfarm: its environment variable, default and meaning. This table is the single
 * source for parsing (load-config.ts) and for the README's settings table (`shotfarm settings`).
 */
/**
 * The longest a capture waits after load for the page to settle (wait_until=settled, the default), in
 * seconds. A few seconds: the fixture corpus's late pages (module loaders, client-rendered tables, slow
 * web fonts, fade-ins, lazy images) settle within ~1.5 s; a page that never goes quiet (a long-poll, a
 * ticker) costs the cap on every capture, so it stays short. Parsed in load-config.ts; drivers default to it.
 */
export const SETTLE_CAP_DEFAULT_SECONDS = 3;

export interface SettingDoc { name: string; default: string; meaning: string }

export const SETTINGS: readonly SettingDoc[] = [
  { name: 'PORT', default: '8080', meaning: 'HTTP port of the API (or of an agent\'s /healthz and /metrics).' },
  { name: 'HOST', default: '0.0.0.0', meaning: 'Address the HTTP server binds to.' },
  { name: 'SHOTFARM_DATA_DIR', default: './data', meaning: 'Folder for the embedded database, stored files and generated secrets.' },
  { name: 'DATABASE_URL', default: '(absent)', meaning: 'Postgres URL. Absent: embedded PGlite in <data dir>/pglite.' },
  { name: 'NATS_URL', default: '(absent)', meaning: 'NATS server with JetStream. Absent: in-process queue (embedded mode).' },
  { name: 'SHOTFARM_NATS_PREFIX', default: 'shotfarm', meaning: 'Prefix of the JetStream streams, consumers and KV buckets, so several installations can share one NATS.' },
  { name: 'S3_ENDPOINT', default: '(absent)', meaning: 'S3/MinIO endpoint URL, e.g. http://minio:9000. Absent: files in <data dir>/objects.' },
  { name: 'S3_ACCESS_KEY', default: '(absent)', meaning: 'S3 access key (required with S3_ENDPOINT).' },
  { name: 'S3_SECRET_KEY', default: '(absent)', meaning: 'S3 secret key (required with S3_ENDPOINT).' },
  { name: 'S3_BUCKET', default: 'shotfarm', meaning: 'Bucket for screenshots and other outputs.' },
  { name: 'S3_REGION', default: 'us-east-1', meaning: 'S3 region.' },
  { name: 'SHOTFARM_BOOTSTRAP_KEY', default: '(absent)', meaning: 'API key created at start if it does not exist yet, so operators and scripts start with a known key. Absent in embedded mode: a key is generated once and kept in <data dir>/bootstrap-key.' },
  { name: 'SHOTFARM_BOOTSTRAP_CREDITS', default: '1000', meaning: 'Credits granted to the bootstrap key\'s account when it is created.' },
  { name: 'SHOTFARM_RATE_LIMIT_PER_MINUTE', default: '600', meaning: 'Requests per minute allowed per credential (API key or user); 0 disables the limit.' },
  { name: 'SHOTFARM_TRUSTED_PROXIES', default: '(empty)', meaning: 'Reverse proxies (comma list of addresses and CIDRs) whose X-Forwarded-For names the client; the client is then the right-most address in it that is not one of them. Empty: the header is ignored and the connection\'s address is the client (for the login, signup and password-reset limits).' },
  { name: 'SHOTFARM_ALLOW_PRIVATE_TARGETS', default: 'false', meaning: 'Allow captures of loopback, private, link-local and metadata addresses.' },
  { name: 'SHOTFARM_PRIVATE_TARGET_ALLOWLIST', default: '(empty)', meaning: 'Private addresses and host names captures may reach although SHOTFARM_ALLOW_PRIVATE_TARGETS is false (comma list of CIDRs, addresses and host names, e.g. 10.20.0.0/16,intranet.example).' },
  { name: 'JWT_SECRET', default: '(generated)', meaning: 'HMAC secret for dashboard JWTs (at least 32 characters). Absent: generated once and kept in <data dir>/jwt-secret.' },
  { name: 'SHOTFARM_JWT_TTL_SECONDS', default: '604800', meaning: 'How long a dashboard session token (from login or signup) is valid.' },
  { name: 'SHOTFARM_IMPERSONATION_TTL_SECONDS', default: '3600', meaning: 'How long a token from POST /admin/impersonate is valid.' },
  { name: 'SHOTFARM_VERIFY_TOKEN_TTL_SECONDS', default: '172800', meaning: 'How long the link of an email-verification message works.' },
  { name: 'SHOTFARM_RESET_TOKEN_TTL_SECONDS', default: '3600', meaning: 'How long the link of a password-reset message works.' },
  { name: 'SHOTFARM_LOGIN_MAX_FAILURES', default: '10', meaning: 'Failed logins allowed per account (from any address) and per client address (for any account) in 15 minutes; then login answers 429 until the window passes (a password reset lifts the account\'s count at once).' },
  { name: 'SHOTFARM_SIGNUP_CREDITS', default: '0', meaning: 'Credits granted (through the ledger) to an account created by POST /auth/signup.' },
  { name: 'SMTP_URL', default: '(absent)', meaning: 'SMTP server for account email (verification, password reset), e.g. smtps://user:pass@mail.example:465. Absent: messages are written to the log and kept in the outbox (GET /admin/outbox).' },
  { name: 'MAIL_FROM', default: 'shotfarm <no-reply@localhost>', meaning: 'Sender of account email.' },
  { name: 'CAPTCHA_VERIFY_URL', default: 'https://challenges.cloudflare.com/turnstile/v0/siteverify', meaning: 'Captcha verify endpoint (Cloudflare Turnstile or hCaptcha style: form secret, response, remoteip → JSON success) checking the captcha_token of signup, forgot-password and reset-password in production.' },
  { name: 'CAPTCHA_SECRET', default: '(absent)', meaning: 'Secret sent to CAPTCHA_VERIFY_URL. Required when NODE_ENV is production; captcha_token is not checked outside production.' },
  { name: 'SHOTFARM_PUBLIC_URL', default: 'http://localhost:<PORT>', meaning: 'Public base URL used in links the API hands out (zip_url, output links).' },
  { name: 'SHOTFARM_CLIENT_COMPAT', default: 'spec', meaning: 'Shape of the create answers: spec (data is an array), or screenshotcenter for the original service\'s official clients: a create that yields one screenshot answers it as an object, batch create answers the Batch object.' },
  { name: 'SHOTFARM_PRICING', default: '{"base":1,"full_page":1,"pdf":1,"video":2,"html":0,"extra_shot":1}', meaning: 'Credits per screenshot: base price plus extras for a full-page capture, a PDF, a video, HTML, and each shot after the first (JSON).' },
  { name: 'SHOTFARM_CACHE_DEFAULT_SECONDS', default: '86400', meaning: 'Cache period used when a request says cache=true.' },
  { name: 'SHOTFARM_PROXY_<CC>', default: '(absent)', meaning: 'Proxy URL for captures from country <CC> (e.g. SHOTFARM_PROXY_FR=http://proxy-fr:3128), used when no agent egresses from that country.' },
  { name: 'SHOTFARM_MAX_BACKLOG', default: '10000', meaning: 'Queued jobs per browser above which create answers 429 with retry_after (nothing created).' },
  { name: 'SHOTFARM_MAX_DELIVERIES', default: '3', meaning: 'Attempts per job (browser crash, lost agent) before it ends as error. A capture that failed after using its whole deadline is tried at most twice, whatever this says.' },
  { name: 'SHOTFARM_CRAWL_HOST_CONCURRENCY', default: '2', meaning: 'Pages of one host a crawl has in flight at once (politeness towards the crawled site).' },
  { name: 'SHOTFARM_CAPTURE_TIMEOUT_SECONDS', default: '60', meaning: 'Deadline of a capture whose request sets no max_wait: what is there when it passes is captured.' },
  { name: 'SHOTFARM_SETTLE_CAP_SECONDS', default: String(SETTLE_CAP_DEFAULT_SECONDS), meaning: 'Longest wait after load for the page to settle (no request in flight for a short quiet window, fonts loaded, no layout change across animation frames) before the capture (wait_until=settled, the default). A page still busy then is captured with a warning. Decimals allowed; 0 turns the wait off.' },
  { name: 'SHOTFARM_AGENT_BROWSERS', default: 'chrome,firefox,brave', meaning: 'Browsers an agent (and the embedded service) offers.' },
  { name: 'SHOTFARM_AGENT_SLOTS', default: '2', meaning: 'Captures an agent runs at once (one per core is the measured sweet spot).' },
  { name: 'SHOTFARM_AGENT_COUNTRIES', default: '(absent)', meaning: 'Countries an agent egresses from (comma list, e.g. fr,de); jobs for them are routed to it.' },
  { name: 'SHOTFARM_NODE_ID', default: '<host>-<pid>', meaning: 'Name of an agent in the node registry.' },
  { name: 'SHOTFARM_DRIVER', default: 'playwright', meaning: 'Browser driver of an agent: playwright, or selenium (with SELENIUM_GRID_URL).' },
  { name: 'SELENIUM_GRID_URL', default: '(absent)', meaning: 'Selenium Grid 4 URL for the selenium driver.' },
  { name: 'CHROMIUM_PATH', default: '/usr/lib/chromium/chromium', meaning: 'Chromium or Chrome binary for chrome (and brave emulation).' },
  { name: 'FIREFOX_PATH', default: '/usr/bin/firefox-esr', meaning: 'Firefox binary (driven over WebDriver BiDi).' },
  { name: 'BRAVE_PATH', default: '(absent)', meaning: 'Brave binary. Absent: brave runs Chromium with Brave\'s behaviour (shields, client hints), and says so.' },
  { name: 'FFMPEG_PATH', default: '(absent)', meaning: 'ffmpeg binary for video. Absent: ffmpeg-static when installed, else ffmpeg on PATH.' },
  { name: 'SHOTFARM_BROWSER_RECYCLE_AFTER', default: '200', meaning: 'A pooled browser is replaced after this many captures.' },
  { name: 'SHOTFARM_MAX_PAGE_HEIGHT', default: String(DEFAULT_MAX_PAGE_HEIGHT), meaning: 'Tallest full-page capture in CSS pixels (100 to 1000000); a taller page is cut there and the screenshot gets a warning naming this setting. It bounds the memory and time of one capture (`make bench-tall` measures a 100000 px page).' },
  { name: 'SHOTFARM_PNG_ENCODING', default: 'fast', meaning: 'How Chromium compresses PNG screenshots: fast (about half the encoding CPU, files 1.3–1.7× larger) or small. Same pixels either way.' },
  { name: 'SHOTFARM_CAPTURES_PER_BROWSER', default: '1', meaning: 'Captures one pooled browser serves at once, each in its own context; more slots start more browsers. 1 (a browser per slot) was 1.03–1.16× faster than contexts of one browser for full pages at 2 and 4 slots and about even for viewports (make bench), at about twice the memory.' },
  { name: 'SHOTFARM_POOL_IDLE_SECONDS', default: '300', meaning: 'An idle pooled browser above the minimum is closed after this many seconds.' },
  { name: 'SHOTFARM_HEARTBEAT_SECONDS', default: '5', meaning: 'How often an agent heartbeats; it disappears after three missed beats.' },
  { name: 'SHOTFARM_BATCH_MAX_FILE_BYTES', default: '10485760', meaning: 'Largest batch file accepted (bytes); a larger one is refused with 413 before it is read whole.' },
  { name: 'SHOTFARM_IMAGE_URL_TTL_SECONDS', default: '604800', meaning: 'How long the signed image_url of a webhook delivery in the screenshotcenter format works without an API key.' },
  { name: 'SHOTFARM_ZIP_URL_TTL_SECONDS', default: '604800', meaning: 'How long a batch\'s signed zip_url works without an API key.' },
  { name: 'SHOTFARM_SECRETS_KEY', default: '(generated)', meaning: 'Key that encrypts app secrets at rest (AES-256-GCM): 32 bytes as 64 hex characters or base64. Absent: generated once and kept in <data dir>/secrets-key. Every control plane of one installation needs the same key.' },
  { name: 'SHOTFARM_PLUGINS', default: '(empty)', meaning: 'Extra app plugins: comma list of package names or paths to modules exporting an AppPlugin (see plugins/README.md).' },
  { name: 'SHOTFARM_APP_MAX_ATTEMPTS', default: '5', meaning: 'Attempts of an app run (or event delivery) before it ends as error.' },
  { name: 'SHOTFARM_APP_RETRY_SECONDS', default: '5', meaning: 'Wait before an app run\'s first retry; doubled for each further attempt (with jitter), capped at one hour. Decimals allowed.' },
  { name: 'SHOTFARM_APP_TIMEOUT_SECONDS', default: '120', meaning: 'Time one attempt of an app run may take before it is aborted (and retried).' },
  { name: 'SHOTFARM_APP_CONCURRENCY', default: '4', meaning: 'App runs one control plane executes at once.' },
  { name: 'SHOTFARM_SLACK_API_URL', default: 'https://slack.com/api', meaning: 'Slack Web API base URL used by the slack app (point it at a gateway in air-gapped deployments).' },
  { name: 'SHOTFARM_GDRIVE_API_URL', default: 'https://www.googleapis.com/', meaning: 'Google APIs root URL used by the gdrive app.' },
  { name: 'SHOTFARM_GOOGLE_TOKEN_URL', default: 'https://oauth2.googleapis.com/token', meaning: 'Google OAuth token endpoint used by the gdrive app (refresh tokens and service accounts).' },
  { name: 'SHOTFARM_DROPBOX_API_URL', default: 'https://api.dropboxapi.com', meaning: 'Dropbox RPC API base URL used by the dropbox app (also for OAuth token refresh).' },
  { name: 'SHOTFARM_DROPBOX_CONTENT_URL', default: 'https://content.dropboxapi.com', meaning: 'Dropbox content (upload) API base URL used by the dropbox app.' },
  { name: 'SHOTFARM_GRAPH_API_URL', default: 'https://graph.microsoft.com/v1.0', meaning: 'Microsoft Graph base URL used by the onedrive app.' },
  { name: 'SHOTFARM_MICROSOFT_LOGIN_URL', default: 'https://login.microsoftonline.com', meaning: 'Microsoft identity platform URL used by the onedrive app to get tokens.' },
  { name: 'SHOTFARM_PLANS_FILE', default: '(built-in plans)', meaning: 'JSON file listing the billing plans (an array in the spec\'s Plan shape, see api/billing/README.md); checked at start. Absent: free, starter, pro and a non-public enterprise plan.' },
  { name: 'SHOTFARM_BILLING_RENEWAL_SECONDS', default: '300', meaning: 'How often the control plane renews subscriptions whose period has ended (new period, receipt, credits).' },
  { name: 'SHOTFARM_OFFLINE_PAYMENTS', default: 'operator', meaning: 'Who may pay through the built-in offline provider (periods invoiced, credits granted before payment): operator = only accounts an admin approved as invoiced customers (POST /billing/invoiced-accounts) and admins; self-service = any account, including open sign-ups.' },
  { name: 'LOG_LEVEL', default: 'info', meaning: 'Log level: fatal, error, warn, info, debug, trace or silent.' },
  { name: 'NODE_ENV', default: 'development', meaning: '`production` turns on production-only checks.' },
];
