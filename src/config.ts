/**
 * Configuration read once at boot from environment variables. Nothing here carries a default secret:
 * tokens and keys are either given explicitly or generated (and shown once) on first run.
 */
import { FIAT, PAIRS, type Pair } from './core/currencies.ts';
import { parseAmount } from './core/money.ts';
import type { Environment } from './lib/environment.ts';
import { merchantProblem, SANDBOX_PIX_KEY } from './lib/pix-brcode.ts';
import { type ChainsConfig, parseChainsConfig } from './rails/chains/networks.ts';
import { type IncreaseConfig, parseUsdBankConfig, UsdBankConfigError } from './rails/increase/config.ts';
import { type PspConfig, PspConfigError, parsePspConfig } from './rails/pix/psp/config.ts';
import { loadReferenceConfig, type ReferenceConfig, ReferenceConfigError } from './rails/rates/config.ts';

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
};

/** Money out over PIX and what every transaction must at least be worth and pay. */
export type MoneyOutConfig = {
  /** Platform fee per off-ramp: basis points of the source amount plus a flat BRL amount. */
  offRampFeeBasisPoints: number;
  offRampFeeFlat: bigint;
  /** Smallest transaction, in BRL value (on-ramps and off-ramps), and smallest platform fee (BRL). */
  minimumAmount: bigint;
  minimumFee: bigint;
  /** How long an accepted payout may go unreported before the provider is asked for its status (doubling). */
  pixPayoutStatusAfterMs: number;
  /** Sandbox market rates used while the operator has set none for a pair (scale 10); absent: none. */
  sandboxRates: Partial<Record<Pair, bigint>>;
};

/** Outgoing webhooks: which URLs may receive them, how each attempt is bounded, how retries are spread. */
export type WebhookConfig = {
  /** Production refuses endpoints on private, loopback and link-local addresses unless this is true. */
  allowPrivateUrls: boolean;
  /** The same for the sandbox (local development sets it to receive webhooks on its own machine). */
  sandboxAllowPrivateUrls: boolean;
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
  /** Attempts one process runs at once for one endpoint, and for one project (all its endpoints). */
  maxInFlightPerEndpoint: number;
  maxInFlightPerProject: number;
  /** Endpoints a project may have registered in one environment. */
  maxEndpointsPerProject: number;
  /** Deliveries that ended longer ago than this are deleted with their attempts. */
  retentionMs: number;
};

export type Config = {
  productionUrl: URL;
  sandboxUrl: URL;
  operatorUrl: URL;
  dashboardUrl: URL;
  databaseUrl: string | undefined;
  /**
   * Connections one process opens to PostgreSQL for requests and workers (a quarter more for the reads
   * planned once, and one that listens for work): every process's share must fit the server's
   * `max_connections`.
   */
  databasePoolSize: number;
  /** Named prepared statements on PostgreSQL; off behind a transaction-mode pooler that drops them. */
  databasePreparedStatements: boolean;
  /** LISTEN on a session of its own so that workers wake on work; off where there is no session (a pooler). */
  databaseNotifications: boolean;
  /**
   * The longest an idle background worker sleeps between looks (doubling from its interval up to this):
   * 10 s on PostgreSQL; 30 s on the embedded database, where every look runs in this process (a few
   * milliseconds of its CPU each, against a tenth of that for PostgreSQL), and new work still wakes
   * the workers at once through in-process notifications.
   */
  workerMaxIdleMs: number;
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
  /** Failed authentications allowed per client address: `burst` at once, refilled at `perMinute`. */
  authFailures: { perMinute: number; burst: number };
  /** Shares rate limits between processes when set; otherwise each process counts in memory. */
  redisUrl: string | undefined;
  /** How long a rate limit check waits for Redis before letting the request through. */
  redisTimeoutMs: number;
  webhooks: WebhookConfig;
  /** Blockchains, stablecoin contracts, nodes and confirmations. */
  chains: ChainsConfig;
  /**
   * Where market rates come from per environment (`PONTE_RATES_*`; the sandbox reads `PONTE_SANDBOX_RATES_*`
   * and keeps its deterministic default rates while `PONTE_SANDBOX_RATES_SOURCE` is unset).
   */
  rates: Record<Environment, ReferenceConfig>;
  moneyOut: MoneyOutConfig;
  /**
   * The PSP each environment's PIX rail talks to (`PONTE_PIX_*`, `PONTE_SANDBOX_PIX_*`); undefined:
   * production has no PIX rail (503), the sandbox simulates it.
   */
  pix: { production: PspConfig | undefined; sandbox: PspConfig | undefined };
  /** The US bank of each environment (`PONTE_USD_BANK`, `PONTE_SANDBOX_USD_BANK`); undefined: none. */
  usdBank: { production: IncreaseConfig | undefined; sandbox: IncreaseConfig | undefined };
  /** Partner request log: how long entries are kept, and how often queued entries are written. */
  requestLog: { retentionMs: number; flushIntervalMs: number };
  /** The e-mail address of the Default project's first dashboard admin, invited on first run. */
  adminEmail: string;
  /**
   * Whether this process runs the background jobs (settlement, payouts, expiry, webhook delivery, chain
   * watchers, sweepers). Off: an API-only process, with separate worker processes over the same database.
   */
  workers: boolean;
  /** Sanctions screening and the Travel Rule (docs/SCREENING.md). */
  screening: ScreeningConfig;
};

export type ScreeningConfig = {
  /** Score (0..1) from which a name is a possible match and its subject is held. */
  threshold: number;
  /** USD value (cents) from which external transfers and deposits carry Travel Rule data. */
  travelRuleThreshold: bigint;
  /** The platform's legal name as a VASP in Travel Rule (IVMS101) records. */
  vaspName: string;
};

function screeningConfig(env: NodeJS.ProcessEnv): ScreeningConfig {
  const raw = env.PONTE_SCREENING_THRESHOLD?.trim() || '0.88';
  const threshold = Number(raw);
  if (!/^(0(\.\d+)?|1(\.0+)?)$/.test(raw) || threshold <= 0) {
    throw new ConfigError(`PONTE_SCREENING_THRESHOLD must be a score above 0 and at most 1, got "${raw}"`);
  }
  return {
    threshold,
    travelRuleThreshold: amount(env, 'PONTE_TRAVEL_RULE_THRESHOLD', '1000'),
    vaspName: env.PONTE_VASP_NAME?.trim() || 'Ponte',
  };
}

export class ConfigError extends Error {}

function referenceConfigs(env: NodeJS.ProcessEnv): Record<Environment, ReferenceConfig> {
  try {
    return {
      production: loadReferenceConfig(env, 'PONTE_RATES_'),
      sandbox: loadReferenceConfig(env, 'PONTE_SANDBOX_RATES_'),
    };
  } catch (error) {
    if (error instanceof ReferenceConfigError) throw new ConfigError(error.message);
    throw error;
  }
}

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
  };
}

/** The shortest bootstrap operator token accepted: it guards every operator action. */
export const MIN_OPERATOR_TOKEN_LENGTH = 32;

function operatorToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = env.PONTE_OPERATOR_TOKEN?.trim() || undefined;
  if (token !== undefined && token.length < MIN_OPERATOR_TOKEN_LENGTH) {
    throw new ConfigError(
      `PONTE_OPERATOR_TOKEN must be at least ${MIN_OPERATOR_TOKEN_LENGTH} characters (a random string; leave it unset to have one generated)`,
    );
  }
  return token;
}

/** A rate at scale 10 ("5.25"), or undefined for "none". */
function sandboxRate(env: NodeJS.ProcessEnv, name: string, fallback: string): bigint | undefined {
  const raw = env[name]?.trim() || fallback;
  if (raw.toLowerCase() === 'none') return undefined;
  const match = /^(\d{1,8})(?:\.(\d{1,10}))?$/.exec(raw);
  if (!match || /^[0.]+$/.test(raw))
    throw new ConfigError(`${name} must be a rate above zero like 5.25, or none`);
  return BigInt(match[1]!) * 10n ** 10n + BigInt((match[2] ?? '').padEnd(10, '0'));
}

function moneyOutConfig(env: NodeJS.ProcessEnv): MoneyOutConfig {
  const offRampFeeBasisPoints = positiveInt(env, 'PONTE_OFFRAMP_FEE_BPS', 50);
  if (offRampFeeBasisPoints > 10_000)
    throw new ConfigError('PONTE_OFFRAMP_FEE_BPS must be at most 10000 (100%)');
  // PONTE_SANDBOX_RATE_BRL_USDC, _BRL_USDT (default 0.18), _USDC_BRL, _USDT_BRL (default 5.50),
  // _USD_USDC, _USD_USDT, _USDC_USD, _USDT_USD (default 1.00: the stablecoins at par with the dollar)
  const sandboxRates: MoneyOutConfig['sandboxRates'] = {};
  for (const pair of PAIRS) {
    const fallback = pair.includes(`${FIAT}`) ? (pair.startsWith(`${FIAT}/`) ? '0.18' : '5.50') : '1.00';
    const rate = sandboxRate(env, `PONTE_SANDBOX_RATE_${pair.replace('/', '_')}`, fallback);
    if (rate !== undefined) sandboxRates[pair] = rate;
  }
  return {
    offRampFeeBasisPoints,
    offRampFeeFlat: amount(env, 'PONTE_OFFRAMP_FEE_FLAT', '0.00'),
    minimumAmount: amount(env, 'PONTE_TRANSACTION_MIN_AMOUNT', '1.00'),
    minimumFee: amount(env, 'PONTE_TRANSACTION_MIN_FEE', '0.01'),
    pixPayoutStatusAfterMs: atLeastOne(env, 'PONTE_PIX_PAYOUT_STATUS_AFTER_MS', 600_000),
    sandboxRates,
  };
}

function pixConfig(env: NodeJS.ProcessEnv): Config['pix'] {
  try {
    return {
      production: parsePspConfig(env, 'PONTE_PIX_'),
      sandbox: parsePspConfig(env, 'PONTE_SANDBOX_PIX_'),
    };
  } catch (error) {
    if (error instanceof PspConfigError) throw new ConfigError(error.message);
    throw error;
  }
}

function usdBankConfig(env: NodeJS.ProcessEnv): Config['usdBank'] {
  try {
    return {
      production: parseUsdBankConfig(env, 'PONTE_'),
      sandbox: parseUsdBankConfig(env, 'PONTE_SANDBOX_'),
    };
  } catch (error) {
    if (error instanceof UsdBankConfigError) throw new ConfigError(error.message);
    throw error;
  }
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
    databasePoolSize: atLeastOne(env, 'PONTE_DATABASE_POOL_SIZE', 20),
    databasePreparedStatements: flag(env, 'PONTE_DATABASE_PREPARED_STATEMENTS', true),
    databaseNotifications: flag(
      env,
      'PONTE_DATABASE_NOTIFICATIONS',
      flag(env, 'PONTE_DATABASE_PREPARED_STATEMENTS', true),
    ),
    workerMaxIdleMs: atLeastOne(env, 'PONTE_WORKER_MAX_IDLE_MS', databaseUrl ? 10_000 : 30_000),
    dataDir: env.PONTE_DATA_DIR?.trim() || './data',
    operatorToken: operatorToken(env),
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
    authFailures: {
      perMinute: atLeastOne(env, 'PONTE_AUTH_FAILURES_PER_MINUTE', 30),
      burst: atLeastOne(env, 'PONTE_AUTH_FAILURE_BURST', 60),
    },
    redisUrl,
    redisTimeoutMs: atLeastOne(env, 'PONTE_REDIS_TIMEOUT_MS', 500),
    webhooks: {
      allowPrivateUrls: flag(env, 'PONTE_WEBHOOK_ALLOW_PRIVATE_URLS', false),
      sandboxAllowPrivateUrls: flag(env, 'PONTE_SANDBOX_WEBHOOK_ALLOW_PRIVATE_URLS', false),
      timeoutMs: atLeastOne(env, 'PONTE_WEBHOOK_TIMEOUT_MS', 10_000),
      retryBaseMs: atLeastOne(env, 'PONTE_WEBHOOK_RETRY_BASE_MS', 5_000),
      retryMaxDelayMs: atLeastOne(env, 'PONTE_WEBHOOK_RETRY_MAX_DELAY_MS', 3_600_000),
      retryHorizonMs: atLeastOne(env, 'PONTE_WEBHOOK_RETRY_HORIZON_MS', 24 * 3_600_000),
      disableAfterMs: atLeastOne(env, 'PONTE_WEBHOOK_DISABLE_AFTER_MS', 3 * 24 * 3_600_000),
      dispatchIntervalMs: atLeastOne(env, 'PONTE_WEBHOOK_DISPATCH_INTERVAL_MS', 250),
      maxInFlightPerEndpoint: atLeastOne(env, 'PONTE_WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT', 10),
      maxInFlightPerProject: atLeastOne(env, 'PONTE_WEBHOOK_MAX_IN_FLIGHT_PER_PROJECT', 20),
      maxEndpointsPerProject: atLeastOne(env, 'PONTE_WEBHOOK_MAX_ENDPOINTS', 20),
      retentionMs: atLeastOne(env, 'PONTE_WEBHOOK_RETENTION_DAYS', 30) * 24 * 3_600_000,
    },
    rates: referenceConfigs(env),
    chains: parseChainsConfig(
      env,
      (name, fallback) => positiveInt(env, name, fallback),
      (message) => {
        throw new ConfigError(message);
      },
    ),
    moneyOut: moneyOutConfig(env),
    pix: pixConfig(env),
    usdBank: usdBankConfig(env),
    requestLog: {
      retentionMs: atLeastOne(env, 'PONTE_REQUEST_LOG_RETENTION_DAYS', 30) * 24 * 3_600_000,
      flushIntervalMs: atLeastOne(env, 'PONTE_REQUEST_LOG_FLUSH_MS', 1_000),
    },
    adminEmail: env.PONTE_ADMIN_EMAIL?.trim() || 'admin@ponte.local',
    workers: flag(env, 'PONTE_WORKERS', true),
    screening: screeningConfig(env),
  };
}

export function publicUrl(config: Config, environment: Environment): URL {
  return environment === 'production' ? config.productionUrl : config.sandboxUrl;
}
