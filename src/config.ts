/**
 * Configuration read once at boot from environment variables. Nothing here carries a default secret:
 * tokens and keys are either given explicitly or generated (and shown once) on first run.
 */
import { parseAmount } from './core/money.ts';
import type { Environment } from './lib/environment.ts';
import { merchantProblem, SANDBOX_PIX_KEY } from './lib/pix-brcode.ts';

export type LimitSet = { single: bigint; daily: bigint; monthly: bigint };

/** Money in over PIX: where deposits go, what the platform charges, how long a charge waits. */
export type OnRampConfig = {
  /** The platform's PIX key that receives deposits. Unset: production refuses to issue charges. */
  pixKey: string | undefined;
  /** Merchant name and city shown by the payer's bank (BR Code fields 59 and 60). */
  merchantName: string;
  merchantCity: string;
  /** Fee per on-ramp in BRL: basis points of the amount (rounded half up to the cent) plus a flat fee. */
  feeBasisPoints: number;
  feeFlat: bigint;
  /** How long a charge waits for its deposit before it expires. */
  depositExpiryMs: number;
  /** HMAC-SHA256 secret of the PIX provider's deposit notifications. Unset: the endpoint answers 503. */
  pixProviderSecret: string | undefined;
};

/** Outgoing webhooks: which URLs may receive them, how each attempt is bounded, how retries are spread. */
export type WebhookConfig = {
  /** Production refuses endpoints on private, loopback and link-local addresses unless this is true. */
  allowPrivateUrls: boolean;
  /** One delivery attempt, connection to last byte. */
  timeoutMs: number;
  /** First retry delay; each further retry doubles it, with jitter, up to `retryMaxDelayMs`. */
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** How long a delivery keeps being retried before it is marked failed. */
  retryHorizonMs: number;
  /** An endpoint whose deliveries have all failed for this long is disabled. */
  disableAfterMs: number;
  /** How often an idle dispatcher looks for new events and due deliveries. */
  dispatchIntervalMs: number;
};

export type Config = {
  productionUrl: URL;
  sandboxUrl: URL;
  operatorUrl: URL;
  dashboardUrl: URL;
  databaseUrl: string | undefined;
  dataDir: string;
  operatorToken: string | undefined;
  /** Root of the server keys (link signing, secret encryption); unset, one is generated per database. */
  instanceSecret: string | undefined;
  logLevel: string;
  /** Default transaction limits (minor units, BRL cents) per customer type. */
  defaultLimits: { INDIVIDUAL: LimitSet; BUSINESS: LimitSet };
  onRamp: OnRampConfig;
  /** How long a cached API key is trusted before it is looked up again. */
  apiKeyCacheTtlMs: number;
  /** Grace period for in-flight requests on shutdown. */
  shutdownGraceMs: number;
  /** Requests per second per API key (steady rate) and how many may arrive at once (burst). */
  rateLimit: { perSecond: number; burst: number };
  /** Shares rate limits between processes when set; otherwise each process counts in memory. */
  redisUrl: string | undefined;
  /** How long a rate limit check waits for Redis before letting the request through. */
  redisTimeoutMs: number;
  webhooks: WebhookConfig;
  /** Partner request log: how long entries are kept, and how often queued entries are written. */
  requestLog: { retentionMs: number; flushIntervalMs: number };
  /** The e-mail address of the Default project's first dashboard admin, invited on first run. */
  adminEmail: string;
};

export class ConfigError extends Error {}

function url(env: NodeJS.ProcessEnv, name: string, fallback: string): URL {
  const raw = env[name] ?? fallback;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('protocol');
    return parsed;
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  return Number(raw);
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function amount(env: NodeJS.ProcessEnv, name: string, fallback: string): bigint {
  const raw = env[name] ?? fallback;
  try {
    return parseAmount(raw);
  } catch {
    throw new ConfigError(`${name} must be an amount like 15000.00, got "${raw}"`);
  }
}

function atLeastOne(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = positiveInt(env, name, fallback);
  if (value < 1) throw new ConfigError(`${name} must be at least 1`);
  return value;
}

function onRampConfig(env: NodeJS.ProcessEnv): OnRampConfig {
  const pixKey = env.PONTE_PIX_KEY?.trim() || undefined;
  const merchantName = env.PONTE_PIX_MERCHANT_NAME?.trim() || 'PONTE';
  const merchantCity = env.PONTE_PIX_MERCHANT_CITY?.trim() || 'SAO PAULO';
  const problem = merchantProblem({ pixKey: pixKey ?? SANDBOX_PIX_KEY, merchantName, merchantCity });
  if (problem)
    throw new ConfigError(`PONTE_PIX_KEY, PONTE_PIX_MERCHANT_NAME, PONTE_PIX_MERCHANT_CITY: ${problem}`);
  const feeBasisPoints = positiveInt(env, 'PONTE_ONRAMP_FEE_BPS', 50);
  if (feeBasisPoints > 10_000) throw new ConfigError('PONTE_ONRAMP_FEE_BPS must be at most 10000 (100%)');
  return {
    pixKey,
    merchantName,
    merchantCity,
    feeBasisPoints,
    feeFlat: amount(env, 'PONTE_ONRAMP_FEE_FLAT', '0.00'),
    depositExpiryMs: atLeastOne(env, 'PONTE_DEPOSIT_EXPIRY_MINUTES', 30) * 60_000,
    pixProviderSecret: env.PONTE_PIX_PROVIDER_SECRET || undefined,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL must start with redis:// or rediss://');
  }
  return {
    productionUrl: url(env, 'PONTE_PRODUCTION_URL', 'http://localhost:8080'),
    sandboxUrl: url(env, 'PONTE_SANDBOX_URL', 'http://localhost:8081'),
    operatorUrl: url(env, 'PONTE_OPERATOR_URL', 'http://127.0.0.1:8090'),
    dashboardUrl: url(env, 'PONTE_DASHBOARD_URL', 'http://localhost:8082'),
    databaseUrl,
    dataDir: env.PONTE_DATA_DIR?.trim() || './data',
    operatorToken: env.PONTE_OPERATOR_TOKEN?.trim() || undefined,
    instanceSecret: env.PONTE_INSTANCE_SECRET || undefined,
    logLevel: env.PONTE_LOG_LEVEL?.trim() || 'info',
    defaultLimits: {
      INDIVIDUAL: {
        single: amount(env, 'PONTE_LIMIT_INDIVIDUAL_SINGLE', '7500.00'),
        daily: amount(env, 'PONTE_LIMIT_INDIVIDUAL_DAILY', '15000.00'),
        monthly: amount(env, 'PONTE_LIMIT_INDIVIDUAL_MONTHLY', '15000.00'),
      },
      BUSINESS: {
        single: amount(env, 'PONTE_LIMIT_BUSINESS_SINGLE', '50000.00'),
        daily: amount(env, 'PONTE_LIMIT_BUSINESS_DAILY', '100000.00'),
        monthly: amount(env, 'PONTE_LIMIT_BUSINESS_MONTHLY', '100000.00'),
      },
    },
    apiKeyCacheTtlMs: positiveInt(env, 'PONTE_API_KEY_CACHE_TTL_MS', 500),
    onRamp: onRampConfig(env),
    shutdownGraceMs: positiveInt(env, 'PONTE_SHUTDOWN_GRACE_MS', 10_000),
    rateLimit: {
      perSecond: atLeastOne(env, 'PONTE_RATE_LIMIT_PER_SECOND', 100),
      burst: atLeastOne(env, 'PONTE_RATE_LIMIT_BURST', 200),
    },
    redisUrl,
    redisTimeoutMs: atLeastOne(env, 'PONTE_REDIS_TIMEOUT_MS', 500),
    webhooks: {
      allowPrivateUrls: flag(env, 'PONTE_WEBHOOK_ALLOW_PRIVATE_URLS', false),
      timeoutMs: atLeastOne(env, 'PONTE_WEBHOOK_TIMEOUT_MS', 10_000),
      retryBaseMs: atLeastOne(env, 'PONTE_WEBHOOK_RETRY_BASE_MS', 5_000),
      retryMaxDelayMs: atLeastOne(env, 'PONTE_WEBHOOK_RETRY_MAX_DELAY_MS', 3_600_000),
      retryHorizonMs: atLeastOne(env, 'PONTE_WEBHOOK_RETRY_HORIZON_MS', 24 * 3_600_000),
      disableAfterMs: atLeastOne(env, 'PONTE_WEBHOOK_DISABLE_AFTER_MS', 3 * 24 * 3_600_000),
      dispatchIntervalMs: atLeastOne(env, 'PONTE_WEBHOOK_DISPATCH_INTERVAL_MS', 250),
    },
    requestLog: {
      retentionMs: atLeastOne(env, 'PONTE_REQUEST_LOG_RETENTION_DAYS', 30) * 24 * 3_600_000,
      flushIntervalMs: atLeastOne(env, 'PONTE_REQUEST_LOG_FLUSH_MS', 1_000),
    },
    adminEmail: env.PONTE_ADMIN_EMAIL?.trim() || 'admin@ponte.local',
  };
}

export function publicUrl(config: Config, environment: Environment): URL {
  return environment === 'production' ? config.productionUrl : config.sandboxUrl;
}
