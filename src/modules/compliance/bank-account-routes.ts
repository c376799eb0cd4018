/** Screening of bank-account holders, and downloads of stored documents. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { pageRequest } from '../../core/pagination.ts';
import { IdParams, Page, problems } from '../../http/schemas.ts';
import { createHolderReviewService } from '../bank-accounts/holder-review.ts';
import { sendFile } from '../documents/download.ts';
import { CONTENT_TYPES } from '../documents/kinds.ts';
import { FileResponse } from '../documents/schema.ts';
import { createOperatorDocumentService } from '../documents/service.ts';
import { operatorSecurity } from '../operators/schema.ts';
import {
  HolderQueueQuery,
  HolderReviewBody,
  OperatorBankAccountSchema,
  OperatorDocumentSchema,
} from './schema.ts';

export const operatorBankAccountRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const holders = createHolderReviewService(ctx);
  const documents = createOperatorDocumentService(ctx);

  app.get(
    '/operator/bank-accounts',
    {
      schema: {
        tags: ['operator'],
        summary:
          'Holder screening queue: accounts by holder status (default UNDER_VERIFICATION), oldest first',
        security: operatorSecurity,
        querystring: HolderQueueQuery,
        response: { 200: Page(OperatorBankAccountSchema), ...problems(400, 401) },
      },
    },
    async (request) => {
      const { holderStatus = 'UNDER_VERIFICATION', relationship, projectId, environment } = request.query;
      return holders.queue(
        { status: holderStatus, relationship, projectId, environment },
        pageRequest(request.query),
      );
    },
  );

  app.get(
    '/operator/bank-accounts/:id',
    {
      schema: {
        tags: ['operator'],
        summary: 'A bank account',
        security: operatorSecurity,
        params: IdParams,
        response: { 200: OperatorBankAccountSchema, ...problems(400, 401, 404) },
      },
    },
    async (request) => holders.get(request.params.id),
  );

  app.post(
    '/operator/bank-accounts/:id/holder-review',
    {
      schema: {
        tags: ['operator'],
        summary: "Screen a bank account's holder UNDER_VERIFICATION: APPROVED or FINAL_REJECTION",
        description:
          'FINAL_REJECTION needs a reviewComment. A holder already screened: 409 invalid_state_transition.',
        security: operatorSecurity,
        params: IdParams,
        body: HolderReviewBody,
        response: { 200: OperatorBankAccountSchema, ...problems(400, 401, 404, 409) },
      },
    },
    async (request) => holders.review(request.operator, request.params.id, request.body),
  );

  app.get(
    '/operator/documents/:id',
    {
      schema: {
        tags: ['operator'],
        summary: 'A stored document: what it is, whose, and where it came from',
        security: operatorSecurity,
        params: IdParams,
        response: { 200: OperatorDocumentSchema, ...problems(400, 401, 404) },
      },
    },
    async (request) => documents.get(request.params.id),
  );

  app.get(
    '/operator/documents/:id/content',
    {
      schema: {
        tags: ['operator'],
        summary: "Download a document's file, with its recognised content type",
        security: operatorSecurity,
        produces: [...CONTENT_TYPES],
        params: IdParams,
        response: { 200: FileResponse, ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => sendFile(reply, await documents.content(request.params.id)),
  );
};
