/**
 * What `/readyz` says of the PIX webhook of each environment with a PSP: `registered`, or
 * `not_registered` (payouts wait for it). The operator listener adds the PSP's last refusal and when it
 * was tried; the public listeners say only whether it is registered.
 */
import type { Environment } from '../lib/environment.ts';
import type { PixRails } from '../rails/pix/registry.ts';

export function pixWebhookDetail(
  pix: PixRails,
  environments: Environment[],
  withReasons: boolean,
): Record<string, unknown> | null {
  const webhooks: Record<string, unknown> = {};
  for (const environment of environments) {
    const state = pix.webhookRegistration(environment);
    if (!state) continue;
    const status = state.registered ? 'registered' : 'not_registered';
    webhooks[environment] = withReasons
      ? {
          status,
          lastError: state.lastError,
          lastAttemptAt: state.lastAttemptAt?.toISOString() ?? null,
          attempts: state.attempts,
        }
      : status;
  }
  return Object.keys(webhooks).length > 0 ? { pixWebhook: webhooks } : null;
}
