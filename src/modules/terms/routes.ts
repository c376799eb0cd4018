/**
 * `POST /customers/{id}/tos` (API key) mints a terms link; `GET /tos/{token}` shows the terms and
 * `POST /tos/{token}` accepts them (the token is the only credential; single use, 24 hours). The page is
 * a person's: every answer on these two routes is a page, errors included.
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { markAuthFailure } from '../../http/auth-throttle.ts';
import { bearerSecurity, DateTime, IdParams, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { answerErrorsAsPages, sendPage } from '../../lib/hosted-page.ts';
import { verificationLinkMinter } from '../customers/link.ts';
import { invalidTermsLinkPage, termsErrorPage, termsPage } from './page.ts';
import { createTermsService } from './service.ts';

type Options = { ctx: AppContext; environment: Environment };

const TermsLinkBody = Type.Object(
  {
    redirectUrl: Type.Optional(
      Type.String({
        maxLength: 2000,
        description: 'Where the page sends the customer after acceptance (http or https)',
      }),
    ),
  },
  { additionalProperties: false },
);

const TermsLinkSchema = Type.Object({
  url: Type.String({ format: 'uri', description: 'The hosted acceptance page: single use' }),
  expiresAt: DateTime('24 hours after creation'),
});

export const termsLinkRoutes: FastifyPluginAsyncTypebox<Options> = async (app, { ctx, environment }) => {
  const terms = createTermsService({ ...ctx, link: verificationLinkMinter(ctx, environment) }, environment);
  app.post(
    '/customers/:id/tos',
    {
      schema: {
        tags: ['customers'],
        summary: 'Create a link where the customer accepts the terms of service',
        description:
          "A hosted page on the environment's public address, valid 24 hours and usable once. Acceptance sets " +
          "the customer's tosAcceptedAt, satisfies its TERMS_OF_SERVICE requirement and sends customer.updated.",
        security: bearerSecurity,
        params: IdParams,
        body: Type.Optional(TermsLinkBody),
        response: { 201: TermsLinkSchema, ...problems(400, 401, 404, 415, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await terms.createLink(request.tenant, request.params.id, request.body ?? {})),
  );
};

const TokenParams = Type.Object({ token: Type.String() });

export const termsPageRoutes: FastifyPluginAsyncTypebox<Options> = async (app, { ctx, environment }) => {
  const terms = createTermsService({ ...ctx, link: verificationLinkMinter(ctx, environment) }, environment);
  const action = (token: string) => `/tos/${encodeURIComponent(token)}`;
  // The page's button posts an HTML form (application/x-www-form-urlencoded, with no fields). The parser
  // is registered in this plugin's scope only: the JSON API beside it still refuses form bodies with 415.
  await app.register(formbody, { bodyLimit: 1024 });
  answerErrorsAsPages(app, termsErrorPage);

  app.get(
    '/tos/:token',
    { schema: { hide: true, params: TokenParams }, config: { auth: 'none' } },
    async (request, reply) => {
      const found = await terms.resolve(request.params.token);
      if (!found) {
        markAuthFailure(request);
        return sendPage(reply, 404, invalidTermsLinkPage());
      }
      const page = termsPage({
        state: found.state,
        customerName: found.link.customer_name,
        partner: found.link.project_name,
        action: action(request.params.token),
        sandbox: environment === 'sandbox',
        usedAt: found.link.used_at,
      });
      return sendPage(reply, found.state === 'OPEN' ? 200 : 410, page);
    },
  );

  app.post(
    '/tos/:token',
    { schema: { hide: true, params: TokenParams }, config: { auth: 'none' } },
    async (request, reply) => {
      const found = await terms.resolve(request.params.token);
      if (!found) {
        markAuthFailure(request);
        return sendPage(reply, 404, invalidTermsLinkPage());
      }
      const accepted = found.state === 'OPEN' && (await terms.accept(found.link));
      if (accepted && found.link.redirect_url) {
        return reply
          .code(303)
          .header('location', found.link.redirect_url)
          .header('cache-control', 'no-store')
          .send();
      }
      // Not accepted now: used (a second click, a reload, another tab) or expired, read again as it is.
      const current = accepted ? found : ((await terms.resolve(request.params.token)) ?? found);
      const page = termsPage({
        state: accepted ? 'ACCEPTED' : current.state === 'OPEN' ? 'USED' : current.state,
        customerName: found.link.customer_name,
        partner: found.link.project_name,
        action: action(request.params.token),
        sandbox: environment === 'sandbox',
        usedAt: current.link.used_at,
      });
      return sendPage(reply, accepted ? 200 : 410, page);
    },
  );
};
