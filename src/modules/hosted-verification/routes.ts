/**
 * The hosted verification page on the public listener of the customer's environment: `GET /verify/{token}`
 * shows the verification's state, `POST /verify/{token}` (multipart form) takes an identity document and a
 * selfie, or a company's documents on a BUSINESS customer's own page. The signed token is the only credential; a forged, expired or foreign one answers a 404 page.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError, invalidField } from '../../core/errors.ts';
import { markAuthFailure } from '../../http/auth-throttle.ts';
import type { Environment } from '../../lib/environment.ts';
import { answerErrorsAsPages, sendPage } from '../../lib/hosted-page.ts';
import {
  COMPANY_DOCUMENT_TYPES,
  type CompanyDocumentType,
  IDENTITY_DOCUMENT_TYPES,
  type IdentityDocumentType,
} from '../documents/kinds.ts';
import { readUpload, registerUploads } from '../documents/multipart.ts';
import { multipartValidatorCompiler } from '../documents/schema.ts';
import { errorPage, type FormProblem, invalidLinkPage, verificationPage } from './page.ts';
import type { PageVerificationRow } from './repo.ts';
import { createHostedVerificationService, isCompanyVerification } from './service.ts';

const TokenParams = Type.Object({ token: Type.String() });

const isIdentityType = (value: string): value is IdentityDocumentType =>
  (IDENTITY_DOCUMENT_TYPES as readonly string[]).includes(value);
const isCompanyType = (value: string): value is CompanyDocumentType =>
  (COMPANY_DOCUMENT_TYPES as readonly string[]).includes(value);

export const hostedVerificationRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  const hosted = createHostedVerificationService(ctx, environment);
  await registerUploads(app);

  // Anything that goes wrong on these routes is answered as a page, never as JSON.
  answerErrorsAsPages(app, errorPage);

  const action = (token: string) => `/verify/${encodeURIComponent(token)}`;
  const page = async (verification: PageVerificationRow, token: string, problem?: FormProblem) =>
    verificationPage(verification, action(token), problem, await hosted.partiesOf(verification));

  async function submitPerson(request: FastifyRequest, verification: PageVerificationRow) {
    const upload = await readUpload(request, { files: ['document', 'selfie'], fields: ['documentType'] });
    const documentType = upload.fields.get('documentType') ?? '';
    if (!isIdentityType(documentType)) {
      throw invalidField('/body/documentType', "must be a passport, identity card or driver's license");
    }
    await hosted.submit(verification, {
      documentType,
      document: upload.files.get('document')!,
      selfie: upload.files.get('selfie')!,
    });
  }

  async function submitCompany(request: FastifyRequest, verification: PageVerificationRow) {
    const upload = await readUpload(request, {
      files: ['companyDocument'],
      optionalFiles: ['proofOfAddress', 'financialStatement'],
      fields: ['companyDocumentType'],
    });
    const companyDocumentType = upload.fields.get('companyDocumentType') ?? '';
    if (!isCompanyType(companyDocumentType)) {
      throw invalidField(
        '/body/companyDocumentType',
        'must be the articles of incorporation or the shareholder registry',
      );
    }
    await hosted.submitCompany(verification, {
      companyDocumentType,
      companyDocument: upload.files.get('companyDocument')!,
      proofOfAddress: upload.files.get('proofOfAddress'),
      financialStatement: upload.files.get('financialStatement'),
    });
  }

  app.get(
    '/verify/:token',
    { schema: { hide: true, params: TokenParams }, config: { auth: 'none' } },
    async (request, reply) => {
      const verification = await hosted.resolve(request.params.token);
      if (!verification) {
        markAuthFailure(request);
        return sendPage(reply, 404, invalidLinkPage());
      }
      return sendPage(reply, 200, await page(verification, request.params.token));
    },
  );

  app.post(
    '/verify/:token',
    {
      schema: { hide: true, params: TokenParams },
      config: { auth: 'none' },
      validatorCompiler: multipartValidatorCompiler,
    },
    async (request, reply) => {
      const { token } = request.params;
      const verification = await hosted.resolve(token);
      if (!verification) {
        markAuthFailure(request);
        return sendPage(reply, 404, invalidLinkPage());
      }
      // Nothing to read when the verification takes no documents (under review, or decided).
      if (!hosted.acceptsDocuments(verification)) {
        return sendPage(reply, 409, await page(verification, token));
      }
      try {
        if (isCompanyVerification(verification)) await submitCompany(request, verification);
        else await submitPerson(request, verification);
        // Post/redirect/get: a reload shows the new state instead of sending the files again.
        return reply.code(303).header('location', action(token)).header('cache-control', 'no-store').send();
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const current = (await hosted.resolve(token)) ?? verification;
        // The verification moved on meanwhile (a second click of the button, another tab): the page
        // shows where it stands, with nothing to correct.
        if (error.code === 'invalid_state_transition') {
          return sendPage(reply, 409, await page(current, token));
        }
        const problem = { detail: error.message, errors: error.errors ?? [] };
        return sendPage(reply, error.status, await page(current, token, problem));
      }
    },
  );
};
