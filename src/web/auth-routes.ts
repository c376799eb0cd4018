/**
 * Signing in and out, accepting an invitation, the TOTP step, and the account page (password, second
 * factor) — the same for the partner dashboard and the operator console.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { type Html, html } from '../lib/html.ts';
import { PASSWORD_MIN, totpUri } from '../modules/web-users/credentials.ts';
import { createWebUserService, type SignInResult } from '../modules/web-users/service.ts';
import { closeSession } from '../modules/web-users/sessions.ts';
import { checkCsrf, csrfField } from './kit/csrf.ts';
import { authPage, sendHtml } from './kit/layout.ts';
import { notice } from './kit/parts.ts';
import { clearSessionCookie, type SurfaceOptions, setSessionCookie } from './kit/surface.ts';

/** Only a path of this surface, never another host. */
export function safeNext(raw: unknown, fallback: string): string {
  return typeof raw === 'string' && /^\/(?![/\\])[^\s]*$/.test(raw) ? raw : fallback;
}

const Form = (fields: Record<string, ReturnType<typeof Type.String>>) =>
  Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 64 })), ...fields });

export function registerAuthRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: SurfaceOptions & {
    prefix: string;
    home: string;
    accountShell: (request: FastifyRequest, title: string, body: Html) => Html;
  },
) {
  const users = createWebUserService({ ...ctx, encryptionKey: ctx.instanceKeys.encryption });
  const { prefix, surface } = options;
  const page = (title: string, body: Html) => authPage(title, options.assets, options.brand, body);

  const signInForm = (next: string, message?: string) =>
    page(
      'Sign in',
      html`${notice(message, 'error')}
<form method="post" action="${prefix}/sign-in">
<input type="hidden" name="next" value="${next}">
<div class="field"><label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required></div>
<div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<button type="submit">Sign in</button>
</form>`,
    );

  const totpForm = (csrf: string, message?: string) =>
    page(
      'Two-step verification',
      html`${notice(message, 'error')}<p>Enter the 6-digit code from your authenticator app.</p>
<form method="post" action="${prefix}/sign-in/code">${csrfField(csrf)}
<div class="field"><label for="code">Code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required></div>
<button type="submit">Verify</button>
</form>`,
    );

  function finish(reply: Parameters<typeof setSessionCookie>[0], result: SignInResult, next: string) {
    if (result.kind === 'throttled') {
      return sendHtml(
        reply,
        429,
        page(
          'Sign in',
          html`${notice('Too many failed attempts. Wait 15 minutes and try again.', 'error')}<p><a href="${prefix}/sign-in">Back</a></p>`,
        ),
      );
    }
    if (result.kind === 'refused') return null;
    setSessionCookie(reply, options, result.token);
    return reply.redirect(result.kind === 'second-factor' ? `${prefix}/sign-in/code` : next, 303);
  }

  app.get(
    `${prefix}/sign-in`,
    {
      config: { access: 'public' },
      schema: { querystring: Type.Object({ next: Type.Optional(Type.String()) }) },
    },
    async (request, reply) => {
      if (request.session && !request.session.mfaPending) return reply.redirect(options.home, 303);
      return sendHtml(
        reply,
        200,
        signInForm(safeNext((request.query as { next?: string }).next, options.home)),
      );
    },
  );

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
      const body = request.body as { email: string; password: string; next: string };
      const next = safeNext(body.next, options.home);
      const result = await users.signIn(surface, body.email, body.password, request.ip);
      return (
        finish(reply, result, next) ??
        sendHtml(reply, 401, signInForm(next, 'The e-mail or password is not right.'))
      );
    },
  );

  app.get(`${prefix}/sign-in/code`, { config: { access: 'second-factor' } }, async (request, reply) =>
    sendHtml(reply, 200, totpForm(request.session!.csrfToken)),
  );

  app.post(
    `${prefix}/sign-in/code`,
    { config: { access: 'second-factor' }, schema: { body: Form({ code: Type.String({ maxLength: 10 }) }) } },
    async (request, reply) => {
      const result = await users.completeSecondFactor(
        request.session!,
        (request.body as { code: string }).code,
        request.ip,
      );
      return (
        finish(reply, result, options.home) ??
        sendHtml(reply, 401, totpForm(request.session!.csrfToken, 'That code is not right.'))
      );
    },
  );

  app.post(`${prefix}/sign-out`, { config: { access: 'public' } }, async (request, reply) => {
    if (request.session) {
      checkCsrf(request, (request.body as { _csrf?: string } | undefined)?._csrf);
      await closeSession(ctx.db, request.session);
    }
    clearSessionCookie(reply, options);
    return reply.redirect(`${prefix}/sign-in`, 303);
  });

  const TokenParams = Type.Object({ token: Type.String({ maxLength: 64 }) });
  const invitePage = (token: string, email: string, message?: string) =>
    page(
      'Set your password',
      html`${notice(message, 'error')}<p>You were invited as <strong>${email}</strong>. Choose a password of at least ${String(PASSWORD_MIN)} characters.</p>
<form method="post" action="${prefix}/invite/${token}">
<input type="hidden" name="email" value="${email}" autocomplete="username">
<div class="field"><label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="${String(PASSWORD_MIN)}" required></div>
<button type="submit">Set password and sign in</button>
</form>`,
    );
  const deadLink = () =>
    page(
      'This link does not work',
      html`<p>The invitation was already used, has expired, or never existed. Ask an administrator for a new one.</p>`,
    );

  app.get(
    `${prefix}/invite/:token`,
    { config: { access: 'public' }, schema: { params: TokenParams } },
    async (request, reply) => {
      const { token } = request.params as { token: string };
      const user = await users.invitation(surface, token);
      return user ? sendHtml(reply, 200, invitePage(token, user.email)) : sendHtml(reply, 404, deadLink());
    },
  );

  app.post(
    `${prefix}/invite/:token`,
    {
      config: { access: 'public' },
      schema: {
        params: TokenParams,
        body: Form({ password: Type.String({ maxLength: 1024 }), email: Type.Optional(Type.String()) }),
      },
    },
    async (request, reply) => {
      const { token } = request.params as { token: string };
      const user = await users.invitation(surface, token);
      if (!user) return sendHtml(reply, 404, deadLink());
      try {
        const accepted = await users.acceptInvite(
          surface,
          token,
          (request.body as { password: string }).password,
        );
        setSessionCookie(reply, options, accepted.token);
        return reply.redirect(options.home, 303);
      } catch (error) {
        const problem = (error as { errors?: { message: string }[] }).errors?.[0]?.message;
        if (!problem) throw error;
        return sendHtml(reply, 400, invitePage(token, user.email, `The password ${problem}.`));
      }
    },
  );

  const accountBody = async (
    request: FastifyRequest,
    message?: string,
    error?: string,
    totpSecret?: string,
  ) => {
    const session = request.session!;
    const secret = totpSecret ?? users.proposeTotp();
    const qr = await QRCode.toDataURL(totpUri(secret, session.user.email), { margin: 1, width: 200 });
    return html`${notice(message)}${notice(error, 'error')}
<section class="panel" aria-labelledby="pw"><h2 id="pw">Password</h2>
<form method="post" action="${prefix}/account/password">${csrfField(session.csrfToken)}
<input type="hidden" name="email" value="${session.user.email}" autocomplete="username">
<div class="formrow">
<div class="field"><label for="currentPassword">Current password</label><input id="currentPassword" name="currentPassword" type="password" autocomplete="current-password" required></div>
<div class="field"><label for="newPassword">New password</label><input id="newPassword" name="newPassword" type="password" autocomplete="new-password" minlength="${String(PASSWORD_MIN)}" required></div>
</div>
<button type="submit">Change password</button> <span class="hint">Signs you out everywhere else.</span>
</form></section>
<section class="panel" aria-labelledby="tf"><h2 id="tf">Two-step verification</h2>
${
  session.user.totp_secret
    ? html`<p>${'Enabled: signing in asks for a code from your authenticator app.'}</p>`
    : html`<p>Scan this code with an authenticator app (or enter the key), then type the code it shows.</p>
<img class="qr" src="${qr}" alt="QR code of the authenticator key">
<p>Key: <code id="totp-secret">${secret}</code></p>
<form method="post" action="${prefix}/account/totp">${csrfField(session.csrfToken)}
<input type="hidden" name="secret" value="${secret}">
<div class="field"><label for="totp-code">Code from the app</label><input id="totp-code" name="code" inputmode="numeric" autocomplete="one-time-code" required></div>
<button type="submit">Turn on</button></form>`
}
</section>`;
  };

  const DONE: Record<string, string> = {
    password: 'Password changed.',
    totp: 'Two-step verification is on.',
  };
  app.get(`${prefix}/account`, { config: { access: 'viewer' } }, async (request, reply) => {
    const done = DONE[(request.query as { done?: string }).done ?? ''];
    return sendHtml(
      reply,
      200,
      options.accountShell(request, 'Your account', await accountBody(request, done)),
    );
  });
  const ACCOUNT_ACCESS = surface === 'console' ? 'operator' : 'viewer';

  app.post(
    `${prefix}/account/password`,
    {
      config: { access: ACCOUNT_ACCESS },
      schema: {
        body: Form({
          currentPassword: Type.String({ maxLength: 1024 }),
          newPassword: Type.String({ maxLength: 1024 }),
          email: Type.Optional(Type.String()),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body as { currentPassword: string; newPassword: string };
      try {
        const opened = await users.changePassword(
          request.session!.user,
          body.currentPassword,
          body.newPassword,
        );
        setSessionCookie(reply, options, opened.token);
        return reply.redirect(`${prefix}/account?done=password`, 303);
      } catch (error) {
        const problem = (error as { errors?: { message: string }[] }).errors?.[0]?.message;
        if (!problem) throw error;
        return sendHtml(
          reply,
          400,
          options.accountShell(
            request,
            'Your account',
            await accountBody(request, undefined, `Password not changed: ${problem}.`),
          ),
        );
      }
    },
  );

  app.post(
    `${prefix}/account/totp`,
    {
      config: { access: ACCOUNT_ACCESS },
      schema: {
        body: Form({ secret: Type.String({ maxLength: 64 }), code: Type.String({ maxLength: 10 }) }),
      },
    },
    async (request, reply) => {
      const body = request.body as { secret: string; code: string };
      try {
        await users.enableTotp(request.session!.user, body.secret, body.code);
      } catch (error) {
        const problem = (error as { errors?: { message: string }[] }).errors?.[0]?.message;
        if (!problem) throw error;
        return sendHtml(
          reply,
          400,
          options.accountShell(
            request,
            'Your account',
            await accountBody(request, undefined, `The code ${problem}; try the current one.`, body.secret),
          ),
        );
      }
      return reply.redirect(`${prefix}/account?done=totp`, 303);
    },
  );
}
