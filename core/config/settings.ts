/**
 * Every setting of shotfarm: its environment variable, default and meaning. This table is the single
 * source for parsing (load-config.ts) and for the README's settings table (`shotfarm settings`).
 */
export interface SettingDoc { name: string; default: string; meaning: string }

export const SETTINGS: readonly SettingDoc[] = [
  { name: 'PORT', default: '8080', meaning: 'HTTP port of the API (or of an agent\'s /healthz and /metrics).' },
  { name: 'HOST', default: '0.0.0.0', meaning: 'Address the HTTP server binds to.' },
  { name: 'SHOTFARM_DATA_DIR', default: './data', meaning: 'Folder for the embedded database, stored files and generated secrets.' },
  { name: 'DATABASE_URL', default: '(absent)', meaning: 'Postgres URL. Absent: embedded PGlite in <data dir>/pglite.' },
  { name: 'NATS_URL', default: '(absent)', meaning: 'NATS server with JetStream. Absent: in-process queue (embedded mode).' },
  { name: 'S3_ENDPOINT', default: '(absent)', meaning: 'S3/MinIO endpoint URL, e.g. http://minio:9000. Absent: files in <data dir>/objects.' },
  { name: 'S3_ACCESS_KEY', default: '(absent)', meaning: 'S3 access key (required with S3_ENDPOINT).' },
  { name: 'S3_SECRET_KEY', default: '(absent)', meaning: 'S3 secret key (required with S3_ENDPOINT).' },
  { name: 'S3_BUCKET', default: 'shotfarm', meaning: 'Bucket for screenshots and other outputs.' },
  { name: 'S3_REGION', default: 'us-east-1', meaning: 'S3 region.' },
  { name: 'SHOTFARM_BOOTSTRAP_KEY', default: '(absent)', meaning: 'API key created at start if it does not exist yet, so operators and scripts start with a known key. Absent in embedded mode: a key is generated once and kept in <data dir>/bootstrap-key.' },
  { name: 'SHOTFARM_BOOTSTRAP_CREDITS', default: '1000', meaning: 'Credits granted to the bootstrap key\'s account when it is created.' },
  { name: 'SHOTFARM_RATE_LIMIT_PER_MINUTE', default: '600', meaning: 'Requests per minute allowed per credential (API key or user); 0 disables the limit.' },
  { name: 'SHOTFARM_ALLOW_PRIVATE_TARGETS', default: 'false', meaning: 'Allow captures of loopback, private, link-local and metadata addresses.' },
  { name: 'JWT_SECRET', default: '(generated)', meaning: 'HMAC secret for dashboard JWTs (at least 32 characters). Absent: generated once and kept in <data dir>/jwt-secret.' },
  { name: 'SHOTFARM_PUBLIC_URL', default: 'http://localhost:<PORT>', meaning: 'Public base URL used in links the API hands out (zip_url, output links).' },
  { name: 'SHOTFARM_PRICING', default: '{"base":1,"full_page":1,"pdf":1,"video":2,"html":0,"extra_shot":1}', meaning: 'Credits per screenshot: base price plus extras for a full-page capture, a PDF, a video, HTML, and each shot after the first (JSON).' },
  { name: 'SHOTFARM_CACHE_DEFAULT_SECONDS', default: '86400', meaning: 'Cache period used when a request says cache=true.' },
  { name: 'LOG_LEVEL', default: 'info', meaning: 'Log level: fatal, error, warn, info, debug, trace or silent.' },
  { name: 'NODE_ENV', default: 'development', meaning: '`production` turns on production-only checks.' },
];
