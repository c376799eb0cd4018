import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { pageRequest } from '../../core/pagination.ts';
import { bearerSecurity, Page, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import {
  CreatedEndpointSchema,
  CreateEndpointBody,
  DeliveryParams,
  EndpointParams,
  ListDeliveriesQuery,
  ListEndpointsQuery,
  RotatedSecretSchema,
  RotateSecretBody,
} from './schema.ts';
import { createWebhookService } from './service.ts';

const tags = ['webhooks'];

export const webhookRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext; environment: Environment }> = async (
  app,
  { ctx },
) => {
  const webhooks = createWebhookService(ctx);

  app.post(
    '/webhook-endpoints',
    {
      schema: {
        tags,
        summary: 'Register a webhook endpoint (its signing secret is shown only in this answer)',
        description:
          'Events are POSTed as {eventId, eventType, createdAt, data}, signed per Standard Webhooks ' +
          '(webhook-id = eventId, webhook-timestamp, webhook-signature), retried with exponential back-off ' +
          'for at least 24 hours, and delivered in order per resource.',
        security: bearerSecurity,
        body: CreateEndpointBody,
        response: { 201: CreatedEndpointSchema, ...problems(400, 401, 409, 415, 422, 429, 503) },
      },
    },
    async (request, reply) =>
      // the answer carries the signing secret: no cache may keep it, and a replay only briefly
      reply
        .code(201)
        .header('cache-control', 'no-store')
        .send(await webhooks.create(request.tenant, request.body)),
  );

  app.get(
    '/webhook-endpoints',
    {
      schema: {
        tags,
        summary: 'List webhook endpoints, newest first',
        security: bearerSecurity,
        querystring: ListEndpointsQuery,
        response: { 200: Page(Type.Ref('WebhookEndpoint')), ...problems(400, 401, 429) },
      },
    },
    async (request) => webhooks.list(request.tenant, pageRequest(request.query)),
  );

  app.get(
    '/webhook-endpoints/:id',
    {
      schema: {
        tags,
        summary: 'Read a webhook endpoint',
        security: bearerSecurity,
        params: EndpointParams,
        response: { 200: Type.Ref('WebhookEndpoint'), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => webhooks.get(request.tenant, request.params.id),
  );

  app.delete(
    '/webhook-endpoints/:id',
    {
      schema: {
        tags,
        summary: 'Delete a webhook endpoint; deliveries still waiting for it end as FAILED',
        security: bearerSecurity,
        params: EndpointParams,
        response: { 204: Type.Null(), ...problems(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      await webhooks.remove(request.tenant, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhook-endpoints/:id/rotate-secret',
    {
      schema: {
        tags,
        summary: 'Rotate the signing secret (the new one is shown only in this answer)',
        description:
          'Gives the endpoint a new signing secret. The secret it replaces keeps signing for `expiresIn` ' +
          'seconds (default one day, at most seven): meanwhile every delivery carries two signatures in ' +
          'webhook-signature, one per secret, so receivers verify with either while the new one is deployed. ' +
          'Afterwards only the new secret signs. Rotating again during an overlap retires the older secret at once.',
        security: bearerSecurity,
        params: EndpointParams,
        body: RotateSecretBody,
        response: { 200: RotatedSecretSchema, ...problems(400, 401, 404, 415, 429) },
      },
      // the body is optional: none at all means the default overlap
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    async (request, reply) =>
      // the answer carries the new signing secret: no cache may keep it, and a replay only briefly
      reply
        .code(200)
        .header('cache-control', 'no-store')
        .send(await webhooks.rotateSecret(request.tenant, request.params.id, request.body.expiresIn)),
  );

  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      schema: {
        tags,
        summary: "List an endpoint's deliveries with every attempt, newest first",
        security: bearerSecurity,
        params: EndpointParams,
        querystring: ListDeliveriesQuery,
        response: { 200: Page(Type.Ref('WebhookDelivery')), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) =>
      webhooks.listDeliveries(
        request.tenant,
        request.params.id,
        pageRequest(request.query),
        request.query.status,
      ),
  );

  app.post(
    '/webhook-endpoints/:id/deliveries/:deliveryId/retry',
    {
      schema: {
        tags,
        summary: 'Attempt a pending or failed delivery again now',
        security: bearerSecurity,
        params: DeliveryParams,
        response: { 202: Type.Ref('WebhookDelivery'), ...problems(400, 401, 404, 409, 429) },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await webhooks.retry(request.tenant, request.params.id, request.params.deliveryId)),
  );
};
