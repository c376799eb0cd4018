import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { invalidField } from '../../core/errors.ts';
import { pageRequest } from '../../core/pagination.ts';
import { bearerSecurity, IdParams, Page, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { verificationLinkMinter } from '../customers/link.ts';
import { sendFile } from './download.ts';
import {
  API_DOCUMENT_TYPES,
  type ApiDocumentType,
  CONTENT_TYPES,
  DOCUMENT_SIDES,
  type DocumentSide,
  PARTNER_DOCUMENT_TYPES,
} from './kinds.ts';
import { readUpload, registerUploads, uploadContent } from './multipart.ts';
import {
  CustomerDocumentParams,
  FileResponse,
  ListDocumentsQuery,
  multipartValidatorCompiler,
  UploadDocumentForm,
} from './schema.ts';
import { createDocumentService } from './service.ts';

/** The parts of a partner's document upload. */
const UPLOAD = { files: ['file'], fields: ['type', 'side', 'associatedPartyId'] } as const;

const isApiType = (value: string): value is ApiDocumentType =>
  (API_DOCUMENT_TYPES as readonly string[]).includes(value);
const isSide = (value: string): value is DocumentSide =>
  (DOCUMENT_SIDES as readonly string[]).includes(value);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const documentRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  const documents = createDocumentService({ ...ctx, link: verificationLinkMinter(ctx, environment) });
  await registerUploads(app);

  app.post(
    '/customers/:id/documents',
    {
      schema: {
        tags: ['documents'],
        summary: 'Upload a document for a customer: evidence for a limit request, or for its verification',
        description:
          'multipart/form-data with one `file` part (PDF, JPEG or PNG, recognised from its content, at most ' +
          '3 MB), an optional `type` field (default LIMIT_REQUEST_BANK_STATEMENT), `side` (FRONT or BACK) and ' +
          '`associatedPartyId` (a document of one of its associated parties). Larger files answer 413 ' +
          'payload_too_large; other contents 415 unsupported_media_type. Identity and company documents wait ' +
          "for the owner's next submission (POST /customers/{id}/verifications/{verificationId}/submit); the " +
          "answer's id is a limit request's supportingDocumentId.",
        security: bearerSecurity,
        consumes: ['multipart/form-data'],
        params: IdParams,
        body: UploadDocumentForm,
        response: { 201: Type.Ref('Document'), ...problems(400, 401, 404, 413, 415, 429) },
      },
      validatorCompiler: multipartValidatorCompiler,
      // an Idempotency-Key covers the files themselves, not just the form's shape
      config: { multipartContent: async (request) => uploadContent(await readUpload(request, UPLOAD)) },
    },
    async (request, reply) => {
      await documents.assertCustomer(request.tenant, request.params.id);
      const upload = await readUpload(request, UPLOAD);
      const type = upload.fields.get('type') ?? PARTNER_DOCUMENT_TYPES[0];
      if (!isApiType(type)) {
        throw invalidField(
          '/body/type',
          `must be one of ${API_DOCUMENT_TYPES.join(', ')}`,
          'The upload is invalid',
        );
      }
      const side = upload.fields.get('side');
      if (side !== undefined && !isSide(side)) {
        throw invalidField('/body/side', 'must be FRONT or BACK', 'The upload is invalid');
      }
      const associatedPartyId = upload.fields.get('associatedPartyId');
      if (associatedPartyId !== undefined && !UUID.test(associatedPartyId)) {
        throw invalidField('/body/associatedPartyId', 'must be a UUID', 'The upload is invalid');
      }
      const document = await documents.upload(request.tenant, request.params.id, {
        type,
        side: side ?? null,
        associatedPartyId: associatedPartyId?.toLowerCase() ?? null,
        file: upload.files.get('file')!,
      });
      return reply.code(201).send(document);
    },
  );

  app.get(
    '/customers/:id/documents',
    {
      schema: {
        tags: ['documents'],
        summary: "List a customer's documents, newest first",
        security: bearerSecurity,
        params: IdParams,
        querystring: ListDocumentsQuery,
        response: { 200: Page(Type.Ref('Document')), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => documents.list(request.tenant, request.params.id, pageRequest(request.query)),
  );

  app.get(
    '/customers/:id/documents/:documentId',
    {
      schema: {
        tags: ['documents'],
        summary: 'Read a document',
        security: bearerSecurity,
        params: CustomerDocumentParams,
        response: { 200: Type.Ref('Document'), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => documents.get(request.tenant, request.params.id, request.params.documentId),
  );

  app.get(
    '/customers/:id/documents/:documentId/content',
    {
      schema: {
        tags: ['documents'],
        summary: "Download a document's file",
        security: bearerSecurity,
        produces: [...CONTENT_TYPES],
        params: CustomerDocumentParams,
        response: { 200: FileResponse, ...problems(400, 401, 404, 429) },
      },
    },
    async (request, reply) =>
      sendFile(reply, await documents.content(request.tenant, request.params.id, request.params.documentId)),
  );
};
