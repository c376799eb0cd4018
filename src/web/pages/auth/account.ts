/** The account page: change the password, turn on the second factor (TOTP). */
import type { FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import { Type } from 'typebox';
import { type Html, html } from '../../../lib/html.ts';
import { PASSWORD_MIN, totpUri } from '../../../modules/web-users/credentials.ts';
import type { WebUserService } from '../../../modules/web-users/service.ts';
import { csrfField } from '../../kit/csrf.ts';
import { sendHtml } from '../../kit/layout.ts';
import { notice } from '../../kit/parts.ts';
import { setSessionCookie, type WebApp } from '../../kit/surface.ts';
import { type AuthDeps, Form, firstProblem } from './options.ts';

export const schema = { querystring: Type.Object({ done: Type.Optional(Type.Unknown()) }) };

const DONE: Record<string, string> = {
  password: 'Password changed.',
  totp: 'Two-step verification is on.',
};

/** The QR code of the authenticator key on offer (a new one, or the one just refused). */
export async function load(users: WebUserService, request: FastifyRequest, totpSecret?: string) {
  const session = request.session!;
  const secret = totpSecret ?? users.proposeTotp();
  const qr = await QRCode.toDataURL(totpUri(secret, session.user.email), { margin: 1, width: 200 });
  return { session, secret, qr };
}

export function view(
  prefix: string,
  { session, secret, qr }: Awaited<ReturnType<typeof load>>,
  message?: string,
  error?: string,
): Html {
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
}

export function register(app: WebApp, { users, options }: AuthDeps) {
  const { prefix, surface } = options;
  const page = async (request: FastifyRequest, message?: string, error?: string, secret?: string) =>
    options.accountShell(
      request,
      'Your account',
      view(prefix, await load(users, request, secret), message, error),
    );

  app.get(`${prefix}/account`, { config: { access: 'viewer' }, schema }, async (request, reply) => {
    const { done } = request.query;
    return sendHtml(reply, 200, await page(request, DONE[typeof done === 'string' ? done : '']));
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
      const { body } = request;
      try {
        const opened = await users.changePassword(
          request.session!.user,
          body.currentPassword,
          body.newPassword,
        );
        setSessionCookie(reply, options, opened.token);
        return reply.redirect(`${prefix}/account?done=password`, 303);
      } catch (error) {
        const problem = firstProblem(error);
        if (!problem) throw error;
        return sendHtml(reply, 400, await page(request, undefined, `Password not changed: ${problem}.`));
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
      const { body } = request;
      try {
        await users.enableTotp(request.session!.user, body.secret, body.code);
      } catch (error) {
        const problem = firstProblem(error);
        if (!problem) throw error;
        const refused = `The code ${problem}; try the current one.`;
        return sendHtml(reply, 400, await page(request, undefined, refused, body.secret));
      }
      return reply.redirect(`${prefix}/account?done=totp`, 303);
    },
  );
}
