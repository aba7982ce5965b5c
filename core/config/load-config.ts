import type { Config, HostingConfig } from './config.js';
import { InvalidSetting } from './setting-parsers.js';
import { COUNTRY_PROXY_VARIABLE, MONITOR_MIN_INTERVAL_SECONDS, SETTING, type Setting } from './settings.js';

/** Raised when a setting is invalid; its message names every bad setting so start-up can print it. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** The trimmed text of a variable, or null when it is absent or blank (blank counts as not set). */
export function settingText(env: Env, name: string): string | null {
  const v = env[name];
  return v === undefined || v.trim() === '' ? null : v.trim();
}

/**
 * Reads and validates the configuration from an environment (process.env in entry points). Every value,
 * default and check comes from its declaration in settings.ts; what is here is only how the values
 * combine into the Config and the checks that span several settings.
 */
export function loadConfig(env: Env): Config {
  const problems: string[] = [];
  /** The value of one setting; a bad text is named in the problems and the default stands in meanwhile. */
  const read = <T>(s: Setting<T>, name = s.name): T => {
    try {
      return s.value(settingText(env, name));
    } catch (err) {
      if (!(err instanceof InvalidSetting)) throw err;
      problems.push(...err.problems.map((p) => `${name}: ${p}`));
      return s.value(null);
    }
  };
  const S = SETTING;

  const port = read(S.port);
  let s3: Config['s3'] = null;
  const s3Endpoint = read(S.s3Endpoint);
  if (s3Endpoint) {
    const accessKey = read(S.s3AccessKey);
    const secretKey = read(S.s3SecretKey);
    if (!accessKey) problems.push('S3_ACCESS_KEY: required when S3_ENDPOINT is set');
    if (!secretKey) problems.push('S3_SECRET_KEY: required when S3_ENDPOINT is set');
    s3 = { endpoint: s3Endpoint, accessKey: accessKey ?? '', secretKey: secretKey ?? '', bucket: read(S.s3Bucket), region: read(S.s3Region) };
  }
  const proxies: Record<string, string> = {};
  for (const name of Object.keys(env)
    .filter((k) => COUNTRY_PROXY_VARIABLE.test(k))
    .sort()) {
    const proxy = read(S.countryProxy, name);
    if (proxy) proxies[name.slice(-2).toLowerCase()] = proxy;
  }
  const driver = read(S.driver);
  const seleniumGridUrl = read(S.seleniumGridUrl);
  if (driver === 'selenium' && !seleniumGridUrl) problems.push('SELENIUM_GRID_URL: required when SHOTFARM_DRIVER is selenium');
  // The null driver captures nothing (a stored image after a delay): it must never run by a typo or a
  // copied environment, so it takes a second, explicit setting.
  const allowNullDriver = read(S.allowNullDriver);
  if (driver === 'null' && !allowNullDriver) {
    problems.push('SHOTFARM_DRIVER: null is the benchmark-and-test-only driver that captures nothing (it answers every capture with a stored image); set SHOTFARM_ALLOW_NULL_DRIVER=true to run it');
  }
  const production = read(S.nodeEnv) === 'production';
  const captchaSecret = read(S.captchaSecret);
  // The spec requires captcha_token in production: starting without a way to check it would let bots in.
  if (production && captchaSecret === null) problems.push('CAPTCHA_SECRET: required when NODE_ENV is production (signup and password reset check captcha_token)');
  const monitorMinIntervalSeconds = read(S.monitorMinIntervalSeconds);
  if (production && monitorMinIntervalSeconds < MONITOR_MIN_INTERVAL_SECONDS) problems.push(`${S.monitorMinIntervalSeconds.name}: test only, not accepted when NODE_ENV is production`);
  const publicUrl = read(S.publicUrl);

  const config: Config = {
    port,
    host: read(S.host),
    dataDir: read(S.dataDir),
    databaseUrl: read(S.databaseUrl),
    natsUrl: read(S.natsUrl),
    natsPrefix: read(S.natsPrefix),
    s3,
    hosting: hostingConfig(read(S.hostingBuckets), read(S.hostingPublicRead), read(S.publicS3Url)),
    metricsToken: read(S.metricsToken),
    bootstrapKey: read(S.bootstrapKey),
    bootstrapCredits: read(S.bootstrapCredits),
    rateLimitPerMinute: read(S.rateLimitPerMinute),
    trustedProxies: read(S.trustedProxies),
    allowPrivateTargets: read(S.allowPrivateTargets),
    privateTargetAllowlist: read(S.privateTargetAllowlist),
    jwtSecret: read(S.jwtSecret),
    // Absent: the port the server listens on (the control plane replaces it once bound, for PORT=0).
    publicUrl: publicUrl ?? `http://localhost:${port}`,
    publicUrlConfigured: publicUrl !== null,
    pricing: read(S.pricing),
    clientCompat: read(S.clientCompat),
    imageUrlTtlSeconds: read(S.imageUrlTtlSeconds),
    cacheDefaultSeconds: read(S.cacheDefaultSeconds),
    sources: { queryMaxBytes: read(S.sourceQueryMaxBytes), bodyMaxBytes: read(S.sourceBodyMaxBytes) },
    batch: { maxFileBytes: read(S.batchMaxFileBytes), zipUrlTtlSeconds: read(S.zipUrlTtlSeconds) },
    mcp: { maxImagePx: read(S.mcpMaxImagePx) },
    logLevel: read(S.logLevel),
    production,
    farm: {
      proxies,
      maxBacklog: read(S.maxBacklog),
      maxDeliveries: read(S.maxDeliveries),
      captureTimeoutSeconds: read(S.captureTimeoutSeconds),
      maxCapturePixels: read(S.maxCapturePixels),
      crawlHostConcurrency: read(S.crawlHostConcurrency),
      heartbeatSeconds: read(S.heartbeatSeconds),
    },
    agent: {
      browsers: read(S.agentBrowsers),
      slots: read(S.agentSlots),
      countries: read(S.agentCountries),
      nodeId: read(S.nodeId),
      driver,
      nullDriver: { delayMs: read(S.nullDriverDelayMs), imagePath: read(S.nullDriverImage) },
      seleniumGridUrl,
      chromiumPath: read(S.chromiumPath),
      firefoxPath: read(S.firefoxPath),
      bravePath: read(S.bravePath),
      ffmpegPath: read(S.ffmpegPath),
      adFilterLists: read(S.adFilterLists),
      recycleAfterJobs: read(S.recycleAfterJobs),
      capturesPerBrowser: read(S.capturesPerBrowser),
      poolIdleSeconds: read(S.poolIdleSeconds),
      poolWarmBrowsers: read(S.poolWarmBrowsers),
      pngEncoding: read(S.pngEncoding),
      settleCapSeconds: read(S.settleCapSeconds),
      maxPageHeight: read(S.maxPageHeight),
      pageMemoryLimitMb: read(S.pageMemoryLimitMb),
      prepareContexts: read(S.prepareContexts),
    },
    apps: {
      secretsKey: read(S.secretsKey),
      plugins: read(S.plugins),
      maxAttempts: read(S.appMaxAttempts),
      retrySeconds: read(S.appRetrySeconds),
      timeoutSeconds: read(S.appTimeoutSeconds),
      concurrency: read(S.appConcurrency),
      endpoints: {
        slackApiUrl: read(S.slackApiUrl),
        googleDriveApiUrl: read(S.googleDriveApiUrl),
        googleTokenUrl: read(S.googleTokenUrl),
        dropboxApiUrl: read(S.dropboxApiUrl),
        dropboxContentUrl: read(S.dropboxContentUrl),
        microsoftGraphUrl: read(S.microsoftGraphUrl),
        microsoftLoginUrl: read(S.microsoftLoginUrl),
      },
    },
    billing: {
      plans: read(S.plans),
      renewalSeconds: read(S.billingRenewalSeconds),
      offlinePayments: read(S.offlinePayments),
    },
    monitors: { pollMs: read(S.monitorPollMs), minIntervalSeconds: monitorMinIntervalSeconds, perAccount: read(S.monitorsPerAccount), runsPerHour: read(S.monitorRunsPerHour) },
    auth: {
      jwtTtlSeconds: read(S.jwtTtlSeconds),
      impersonationTtlSeconds: read(S.impersonationTtlSeconds),
      verifyTokenTtlSeconds: read(S.verifyTokenTtlSeconds),
      resetTokenTtlSeconds: read(S.resetTokenTtlSeconds),
      signingSecretGraceSeconds: read(S.signingSecretGraceSeconds),
      loginMaxFailures: read(S.loginMaxFailures),
      signupsPerAddressPerDay: read(S.signupsPerAddressPerDay),
      signupCredits: read(S.signupCredits),
      captcha: { verifyUrl: read(S.captchaVerifyUrl), secret: captchaSecret },
    },
    mail: { smtpUrl: read(S.smtpUrl), from: read(S.mailFrom) },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** SHOTFARM_HOSTING_BUCKETS' entries (`bucket`, `<account id>:bucket`) split into the shared list and each account's own. */
function hostingConfig(entries: string[], publicRead: boolean, publicUrl: string | null): HostingConfig {
  const buckets: string[] = [];
  const accountBuckets: Record<number, string[]> = {};
  for (const entry of entries) {
    const [, account, bucket] = /^(?:(\d+):)?(.*)$/.exec(entry) as RegExpExecArray;
    if (account === undefined) buckets.push(bucket as string);
    else (accountBuckets[Number(account)] ??= []).push(bucket as string);
  }
  return { buckets, accountBuckets, publicRead, publicUrl };
}
