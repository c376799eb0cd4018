/**
 * What every web surface shares: form and cookie parsing, the session read from an httpOnly cookie,
 * CSRF protection on every state-changing request (a per-session token in each form, and the request's
 * Origin checked against the surface's own), role checks declared per route and enforced here on the
 * server, and errors answered as pages.
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError, ERRORS } from '../../core/errors.ts';
import { type Html, html } from '../../lib/html.ts';
import { resolveSession, SESSION_TTL_MS, type Session } from '../../modules/web-users/sessions.ts';
import { checkCsrf, csrfRefused, formToken, sameOrigin } from './csrf.ts';
import { authPage, sendHtml } from './layout.ts';

/** A web surface's Fastify instance, typed by the TypeBox schemas of its routes. */
export type WebApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

type Surface = Session['user']['surface'];
type WebRole = Session['user']['role'];

/** Who may use a route: anyone, a session waiting for its second factor, or a signed-in role and above. */
export type Access = 'public' | 'second-factor' | WebRole;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Multipart forms carry their CSRF token among the parts; the handler checks it with `checkCsrf`. */
    multipartCsrf?: boolean;
  }
  interface FastifyRequest {
    session: Session | null;
  }
}

const RANK: Record<WebRole, number> = { viewer: 1, developer: 2, admin: 3, operator: 3 };

export type SurfaceOptions = {
  surface: Surface;
  brand: string;
  assets: string;
  /** The surface's own origin, which state-changing requests must come from. */
  origin: URL;
  signInPath: string;
};

export const cookieName = (surface: Surface, secure: boolean) =>
  `${secure ? '__Host-' : ''}ponte_${surface}_session`;

export function setSessionCookie(reply: FastifyReply, options: SurfaceOptions, token: string): void {
  const secure = options.origin.protocol === 'https:';
  reply.setCookie(cookieName(options.surface, secure), token, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply, options: SurfaceOptions): void {
  const secure = options.origin.protocol === 'https:';
  reply.clearCookie(cookieName(options.surface, secure), {
    path: '/',
    secure,
    httpOnly: true,
    sameSite: 'lax',
  });
}

const forbidden = () => new AppError('forbidden', 'Your role does not allow this action');
function errorPage(
  options: SurfaceOptions,
  status: number,
  title: string,
  detail: string,
  items: string[],
): Html {
  return authPage(
    title,
    options.assets,
    options.brand,
    html`<p role="alert">${detail}</p>
${items.length > 0 ? html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>` : html``}
<p><a href="${options.signInPath.replace(/sign-in$/, '')}">Back to the start</a> · <span class="hint">Error ${String(status)}</span></p>`,
  );
}

/** A surface's instance typed by its routes' TypeBox schemas (the same instance). */
export const webApp = (app: FastifyInstance): WebApp => app.withTypeProvider<TypeBoxTypeProvider>();

export async function registerWebSurface(
  app: WebApp,
  ctx: AppContext,
  options: SurfaceOptions,
): Promise<void> {
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  app.decorateRequest('session', null);
  const secure = options.origin.protocol === 'https:';

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    const token = request.cookies[cookieName(options.surface, secure)];
    const session = await resolveSession(ctx.db, ctx.clock, token);
    request.session = session && session.user.surface === options.surface ? session : null;
  });

  app.addHook('preHandler', async (request, reply) => {
    const access = request.routeOptions.config.access ?? 'viewer';
    const changes = request.method !== 'GET' && request.method !== 'HEAD';
    if (changes && !sameOrigin(request, options.origin)) throw csrfRefused();
    if (access === 'public') return;
    const session = request.session;
    if (!session || (access === 'second-factor') !== session.mfaPending) {
      if (changes) throw new AppError('unauthorized', 'Sign in to continue');
      return reply.redirect(`${options.signInPath}?next=${encodeURIComponent(request.url)}`, 303);
    }
    if (changes && !request.routeOptions.config.multipartCsrf) {
      checkCsrf(request, formToken(request.body));
    }
    if (access !== 'second-factor' && RANK[session.user.role] < RANK[access]) throw forbidden();
    if (options.surface === 'console' && session.user.role !== 'operator') throw forbidden();
  });

  const notFoundPage = () => errorPage(options, 404, 'Not found', 'There is nothing at this address.', []);
  app.setErrorHandler(
    (
      error: Error & { statusCode?: number; validation?: unknown; validationContext?: string },
      request,
      reply,
    ) => {
      // An address whose path parameters do not parse (an unknown environment, a mistyped id, a file the
      // browser asks for by habit) names nothing: a 404 page, not a validator's message.
      if (error.validation && error.validationContext === 'params')
        return sendHtml(reply, 404, notFoundPage());
      if (error instanceof AppError) {
        const items = (error.errors ?? []).map(
          (e) => `${e.pointer.replace(/^\/(body|query|params)\//, '')}: ${e.message}`,
        );
        return sendHtml(
          reply,
          error.status,
          errorPage(options, error.status, ERRORS[error.code].title, error.message, items),
        );
      }
      if (error.validation) {
        return sendHtml(
          reply,
          400,
          errorPage(options, 400, 'Invalid request', 'Some fields are missing or invalid.', [error.message]),
        );
      }
      const status =
        error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error({ err: error }, 'web page failed');
      return sendHtml(
        reply,
        status,
        errorPage(
          options,
          status,
          status === 500 ? 'Something went wrong' : 'Request refused',
          status === 500 ? `Please try again. Reference: ${request.id}` : error.message,
          [],
        ),
      );
    },
  );
  if (options.surface === 'dashboard') {
    app.setNotFoundHandler((_request, reply) => sendHtml(reply, 404, notFoundPage()));
  }
}
