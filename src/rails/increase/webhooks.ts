/**
 * Increase signs each webhook with the event subscription's shared secret, the Standard Webhooks way
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers; https://increase.com/documentation/webhooks).
 * The check is the official SDK's (`client.events.unwrap`), never a second implementation here. A verified
 * webhook is still only a hint: the object it names is read back from Increase before anything moves.
 */
import type Increase from 'increase';

export class InvalidIncreaseWebhook extends Error {}

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

export type IncreaseWebhookEvent = Increase.UnwrapWebhookEvent;

function singleHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const single: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) single[name.toLowerCase()] = first;
  }
  return single;
}

export function unwrapIncreaseWebhook(
  sdk: Increase,
  body: string,
  headers: Record<string, string | string[] | undefined>,
): IncreaseWebhookEvent {
  const single = singleHeaders(headers);
  // the SDK skips its check when handed no headers at all: refuse before that can happen
  const missing = SIGNATURE_HEADERS.filter((name) => !single[name]);
  if (missing.length > 0) throw new InvalidIncreaseWebhook(`missing ${missing.join(', ')}`);
  try {
    return sdk.events.unwrap(body, { headers: single });
  } catch (error) {
    throw new InvalidIncreaseWebhook(error instanceof Error ? error.message : 'invalid signature');
  }
}
