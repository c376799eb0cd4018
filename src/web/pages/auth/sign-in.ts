/**
 * Signing in (password, then the TOTP step when the user has one) and out, the same for the partner
 * dashboard and the operator console.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { type Html, html } from '../../../lib/html.ts';
import type { SignInResult } from '../../../modules/web-users/service.ts';
import { closeSession } from '../../../modules/web-users/sessions.ts';
import { checkCsrf, csrfField, formToken } from '../../kit/csrf.ts';
import { sendHtml } from '../../kit/layout.ts';
import { notice } from '../../kit/parts.ts';
import { clearSessionCookie, setSessionCookie, type WebApp } from '../../kit/surface.ts';
import { type AuthDeps, type AuthOptions, Form, smallPage } from './options.ts';

/** Only a path of this surface, never another host. */
export function safeNext(raw: unknown, fallback: string): string {
  return typeof raw === 'string' && /^\/(?![/\\])[^\s]*$/.test(raw) ? raw : fallback;
}

export const schema = { querystring: Type.Object({ next: Type.Optional(Type.String()) }) };

export function view(options: AuthOptions, next: string, message?: string): Html {
  return smallPage(
    options,
    'Sign in',
    html`${notice(message, 'error')}
<form method="post" action="${options.prefix}/sign-in">
<input type="hidden" name="next" value="${next}">
<div class="field"><label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required></div>
<div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<button type="submit">Sign in</button>
</form>`,
  );
}

/** The TOTP step's form. */
export function codeView(options: AuthOptions, csrf: string, message?: string): Html {
  return smallPage(
    options,
    'Two-step verification',
    html`${notice(message, 'error')}<p>Enter the 6-digit code from your authenticator app.</p>
<form method="post" action="${options.prefix}/sign-in/code">${csrfField(csrf)}
<div class="field"><label for="code">Code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required></div>
<button type="submit">Verify</button>
</form>`,
  );
}

/** Where a sign-in step leads: a throttle page, the next step, or null when refused. */
function finish(reply: FastifyReply, options: AuthOptions, result: SignInResult, next: string) {
  if (result.kind === 'throttled') {
    return sendHtml(
      reply,
      429,
      smallPage(
        options,
        'Sign in',
        html`${notice('Too many failed attempts. Wait 15 minutes and try again.', 'error')}<p><a href="${options.prefix}/sign-in">Back</a></p>`,
      ),
    );
  }
  if (result.kind === 'refused') return null;
  setSessionCookie(reply, options, result.token);
  return reply.redirect(result.kind === 'second-factor' ? `${options.prefix}/sign-in/code` : next, 303);
}

export function register(app: WebApp, { ctx, users, options }: AuthDeps) {
  const { prefix, surface } = options;

  app.get(`${prefix}/sign-in`, { config: { access: 'public' }, schema }, async (request, reply) => {
    if (request.session && !request.session.mfaPending) return reply.redirect(options.home, 303);
    return sendHtml(reply, 200, view(options, safeNext(request.query.next, options.home)));
  });

  app.post(
    `${prefix}/sign-in`,
    {
      config: { access: 'public' },
      schema: {
        body: Form({
          email: Type.String({ maxLength: 254 }),
          password: Type.String({ maxLength: 1024 }),
          next: Type.String({ maxLength: 2048 }),
        }),
      },
    },
    async (request, reply) => {
      const { body } = request;
      const next = safeNext(body.next, options.home);
      const result = await users.signIn(surface, body.email, body.password, request.ip);
      return (
        finish(reply, options, result, next) ??
        sendHtml(reply, 401, view(options, next, 'The e-mail or password is not right.'))
      );
    },
  );

  app.get(`${prefix}/sign-in/code`, { config: { access: 'second-factor' } }, async (request, reply) =>
    sendHtml(reply, 200, codeView(options, request.session!.csrfToken)),
  );

  app.post(
    `${prefix}/sign-in/code`,
    { config: { access: 'second-factor' }, schema: { body: Form({ code: Type.String({ maxLength: 10 }) }) } },
    async (request, reply) => {
      const result = await users.completeSecondFactor(request.session!, request.body.code, request.ip);
      return (
        finish(reply, options, result, options.home) ??
        sendHtml(reply, 401, codeView(options, request.session!.csrfToken, 'That code is not right.'))
      );
    },
  );

  app.post(`${prefix}/sign-out`, { config: { access: 'public' } }, async (request, reply) => {
    if (request.session) {
      checkCsrf(request, formToken(request.body));
      await closeSession(ctx.db, request.session);
    }
    clearSessionCookie(reply, options);
    return reply.redirect(`${prefix}/sign-in`, 303);
  });
}
