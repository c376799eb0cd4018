import type { RequestOptions } from '../transport.js';
import type {
  CreatedWebhookEndpoint,
  CreateWebhookEndpointParams,
  ListWebhookDeliveriesParams,
  ListWebhookEndpointsParams,
  RetryDeliveryResult,
  RotatedWebhookSecret,
  RotateWebhookSecretParams,
  WebhookDelivery,
  WebhookEndpoint,
} from '../types.js';
import { Resource, segment } from './base.js';

export class WebhookEndpoints extends Resource {
  /** The answer carries the signing `secret`, shown this once: store it to verify deliveries. */
  create(params: CreateWebhookEndpointParams, options?: RequestOptions): Promise<CreatedWebhookEndpoint> {
    return this.postJson('/webhook-endpoints', params, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.getJson(`/webhook-endpoints/${segment(id)}`, undefined, options);
  }

  list(params?: ListWebhookEndpointsParams, options?: RequestOptions) {
    return this.listPages<WebhookEndpoint>('/webhook-endpoints', params, options);
  }

  del(id: string, options?: RequestOptions): Promise<void> {
    return this.deleteResource(`/webhook-endpoints/${segment(id)}`, options);
  }

  /**
   * Replaces the signing secret; the answer carries the new `secret`, shown this once. The old secret
   * keeps signing deliveries alongside it for `expiresIn` seconds (default one day), so deploy the new
   * one to the receiver before `previousSecretExpiresAt`; `webhooks.verify` accepts either meanwhile.
   */
  rotateSecret(
    id: string,
    params: RotateWebhookSecretParams = {},
    options?: RequestOptions,
  ): Promise<RotatedWebhookSecret> {
    return this.postJson(`/webhook-endpoints/${segment(id)}/rotate-secret`, params, options);
  }

  /** Every delivery to the endpoint, newest first, with each attempt. */
  deliveries(id: string, params?: ListWebhookDeliveriesParams, options?: RequestOptions) {
    return this.listPages<WebhookDelivery>(`/webhook-endpoints/${segment(id)}/deliveries`, params, options);
  }

  /** POST /webhook-endpoints/{id}/deliveries/{deliveryId}/retry: sends the delivery again now. */
  retryDelivery(id: string, deliveryId: string, options?: RequestOptions): Promise<RetryDeliveryResult> {
    return this.postJson(
      `/webhook-endpoints/${segment(id)}/deliveries/${segment(deliveryId)}/retry`,
      undefined,
      options,
    );
  }
}
