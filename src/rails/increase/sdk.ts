/**
 * The official SDK's client for one connection. Every option is given explicitly: left out, the SDK would
 * read `INCREASE_API_KEY`, `INCREASE_BASE_URL` and `INCREASE_WEBHOOK_SECRET` from the process.
 */
import Increase from 'increase';
import type { IncreaseConfig } from './config.ts';

/** Only what the connection needs; `fetch` and retries are for tests and the simulator. */
export type IncreaseClientOptions = Pick<IncreaseConfig, 'url' | 'apiKey' | 'accountId' | 'webhookSecret'> & {
  fetch?: typeof fetch;
  maxRetries?: number;
  timeoutMs?: number;
};

export function increaseSdk(options: IncreaseClientOptions): Increase {
  return new Increase({
    apiKey: options.apiKey,
    baseURL: options.url.toString().replace(/\/$/, ''),
    webhookSecret: options.webhookSecret,
    maxRetries: options.maxRetries ?? 2,
    timeout: options.timeoutMs ?? 30_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
