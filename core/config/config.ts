import type { Pricing } from '../pricing.js';

/** The validated configuration of one process. Built by loadConfig(); nothing else reads process.env. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  natsUrl: string | null;
  s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string } | null;
  bootstrapKey: string | null;
  bootstrapCredits: number;
  rateLimitPerMinute: number;
  allowPrivateTargets: boolean;
  /** null until resolved by resolveJwtSecret (a generated secret lives in the data dir) */
  jwtSecret: string | null;
  publicUrl: string;
  pricing: Pricing;
  cacheDefaultSeconds: number;
  logLevel: string;
  production: boolean;
}
