/** Review queues and decisions for verifications and limit requests. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { pageRequest } from '../../core/pagination.ts';
import { IdParams, Page, problems } from '../../http/schemas.ts';
import { createLimitReviewService } from '../limit-requests/review-service.ts';
import { operatorSecurity } from '../operators/schema.ts';
import { createVerificationReviewService } from '../verification-review/review.ts';
import {
  LimitRequestQueueQuery,
  LimitRequestReviewBody,
  OperatorLimitRequestDetailSchema,
  OperatorLimitRequestSchema,
  OperatorVerificationDetailSchema,
  OperatorVerificationSchema,
  VerificationQueueQuery,
  VerificationReviewBody,
} from './schema.ts';

export const operatorReviewRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const verifications = createVerificationReviewService(ctx);
  const limitRequests = createLimitReviewService(ctx);

  app.get(
    '/operator/verifications',
    {
      schema: {
        tags: ['operator'],
        summary: 'Verification review queue: by status (default UNDER_VERIFICATION), longest waiting first',
        security: operatorSecurity,
        querystring: VerificationQueueQuery,
        response: { 200: Page(OperatorVerificationSchema), ...problems(400, 401) },
      },
    },
    async (request) => {
      const { status = 'UNDER_VERIFICATION', projectId, environment } = request.query;
      return verifications.queue({ status, projectId, environment }, pageRequest(request.query));
    },
  );

  app.get(
    '/operator/verifications/:id',
    {
      schema: {
        tags: ['operator'],
        summary: 'A verification with its customer and the documents submitted on the hosted page',
        security: operatorSecurity,
        params: IdParams,
        response: { 200: OperatorVerificationDetailSchema, ...problems(400, 401, 404) },
      },
    },
    async (request) => verifications.get(request.params.id),
  );

  app.post(
    '/operator/verifications/:id/review',
    {
      schema: {
        tags: ['operator'],
        summary: 'Decide a verification UNDER_VERIFICATION',
        description:
          'APPROVED, TEMPORARY_REJECTION (the end customer may resubmit) or FINAL_REJECTION; rejections need a ' +
          'statusReason with at least one reject label. From any other status: 409 invalid_state_transition.',
        security: operatorSecurity,
        params: IdParams,
        body: VerificationReviewBody,
        response: { 200: Type.Ref('Verification'), ...problems(400, 401, 404, 409) },
      },
    },
    async (request) => verifications.review(request.operator, request.params.id, request.body),
  );

  app.get(
    '/operator/limit-requests',
    {
      schema: {
        tags: ['operator'],
        summary: 'Limit request review queue: by status (default IN_REVIEW), oldest first',
        security: operatorSecurity,
        querystring: LimitRequestQueueQuery,
        response: { 200: Page(OperatorLimitRequestSchema), ...problems(400, 401) },
      },
    },
    async (request) => {
      const { status = 'IN_REVIEW', projectId, environment } = request.query;
      return limitRequests.queue({ status, projectId, environment }, pageRequest(request.query));
    },
  );

  app.get(
    '/operator/limit-requests/:id',
    {
      schema: {
        tags: ['operator'],
        summary: "A limit request with the customer's limits in force and the supporting document",
        security: operatorSecurity,
        params: IdParams,
        response: { 200: OperatorLimitRequestDetailSchema, ...problems(400, 401, 404) },
      },
    },
    async (request) => limitRequests.get(request.params.id),
  );

  app.post(
    '/operator/limit-requests/:id/review',
    {
      schema: {
        tags: ['operator'],
        summary: 'Review a limit request IN_REVIEW',
        description:
          'APPROVE grants the requested amounts; PARTIALLY_APPROVE grants `approved` (for the requested limits ' +
          'only, none above the requested amount, at least one below) and needs a reviewComment; REJECT grants ' +
          'nothing and needs a reviewComment. A request no longer IN_REVIEW: 409 invalid_state_transition.',
        security: operatorSecurity,
        params: IdParams,
        body: LimitRequestReviewBody,
        response: { 200: Type.Ref('LimitRequest'), ...problems(400, 401, 404, 409) },
      },
    },
    async (request) => limitRequests.review(request.operator, request.params.id, request.body),
  );
};
