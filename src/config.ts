/**
 * Configuration read once at boot from environment variables. Nothing here carries a default secret:
 * tokens and keys are either given explicitly or generated (and shown once) on first run.
 */
import type { Environment } from './lib/environment.ts';

export type LimitSet = { single: bigint; daily: bigint; monthly: bigint };

export type Config = {
  productionUrl: URL;
  sandboxUrl: URL;
  operatorUrl: URL;
  dashboardUrl: URL;
  databaseUrl: string | undefined;
  dataDir: string;
  operatorToken: string | undefined;
  logLevel: string;
  /** Default transaction limits (minor units, BRL cents) per customer type. */
  defaultLimits: { INDIVIDUAL: LimitSet; BUSINESS: LimitSet };
  /** How long a cached API key is trusted before it is looked up again. */
  apiKeyCacheTtlMs: number;
  /** Grace period for in-flight requests on shutdown. */
  shutdownGraceMs: number;
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

function amount(env: NodeJS.ProcessEnv, name: string, fallback: string): bigint {
  const raw = env[name] ?? fallback;
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(raw);
  if (!match) throw new ConfigError(`${name} must be an amount like 15000.00, got "${raw}"`);
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  return {
    productionUrl: url(env, 'PONTE_PRODUCTION_URL', 'http://localhost:8080'),
    sandboxUrl: url(env, 'PONTE_SANDBOX_URL', 'http://localhost:8081'),
    operatorUrl: url(env, 'PONTE_OPERATOR_URL', 'http://127.0.0.1:8090'),
    dashboardUrl: url(env, 'PONTE_DASHBOARD_URL', 'http://localhost:8082'),
    databaseUrl,
    dataDir: env.PONTE_DATA_DIR?.trim() || './data',
    operatorToken: env.PONTE_OPERATOR_TOKEN?.trim() || undefined,
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
    shutdownGraceMs: positiveInt(env, 'PONTE_SHUTDOWN_GRACE_MS', 10_000),
  };
}

export function publicUrl(config: Config, environment: Environment): URL {
  return environment === 'production' ? config.productionUrl : config.sandboxUrl;
}
