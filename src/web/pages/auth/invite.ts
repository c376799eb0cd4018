/** Accepting an invitation: the invited person sets a password and is signed in. */
import { Type } from 'typebox';
import { AppError } from '../../../core/errors.ts';
import { type Html, html } from '../../../lib/html.ts';
import { PASSWORD_MIN } from '../../../modules/web-users/credentials.ts';
import { sendHtml } from '../../kit/layout.ts';
import { notice } from '../../kit/parts.ts';
import { setSessionCookie, type WebApp } from '../../kit/surface.ts';
import { type AuthDeps, type AuthOptions, Form, firstProblem, smallPage } from './options.ts';

export const schema = { params: Type.Object({ token: Type.String({ maxLength: 64 }) }) };

export function view(options: AuthOptions, token: string, email: string, message?: string): Html {
  return smallPage(
    options,
    'Set your password',
    html`${notice(message, 'error')}<p>You were invited as <strong>${email}</strong>. Choose a password of at least ${String(PASSWORD_MIN)} characters.</p>
<form method="post" action="${options.prefix}/invite/${token}">
<input type="hidden" name="email" value="${email}" autocomplete="username">
<div class="field"><label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="${String(PASSWORD_MIN)}" required></div>
<button type="submit">Set password and sign in</button>
</form>`,
  );
}

const deadLink = (options: AuthOptions) =>
  smallPage(
    options,
    'This link does not work',
    html`<p>The invitation was already used, has expired, or never existed.</p>
<p>If you already set your password with it, <a href="${options.prefix}/sign-in">sign in</a> with that password.
Otherwise ask an administrator for a new invitation.</p>`,
  );

export function register(app: WebApp, { users, options }: AuthDeps) {
  const { prefix, surface } = options;

  app.get(`${prefix}/invite/:token`, { config: { access: 'public' }, schema }, async (request, reply) => {
    const { token } = request.params;
    const user = await users.invitation(surface, token);
    return user
      ? sendHtml(reply, 200, view(options, token, user.email))
      : sendHtml(reply, 404, deadLink(options));
  });

  app.post(
    `${prefix}/invite/:token`,
    {
      config: { access: 'public' },
      schema: {
        ...schema,
        body: Form({ password: Type.String({ maxLength: 1024 }), email: Type.Optional(Type.String()) }),
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const user = await users.invitation(surface, token);
      if (!user) return sendHtml(reply, 404, deadLink(options));
      try {
        const accepted = await users.acceptInvite(surface, token, request.body.password);
        setSessionCookie(reply, options, accepted.token);
        return reply.redirect(options.home, 303);
      } catch (error) {
        // used meanwhile: a second click of the button, or another tab
        if (error instanceof AppError && error.code === 'not_found') {
          return sendHtml(reply, 404, deadLink(options));
        }
        const problem = firstProblem(error);
        if (!problem) throw error;
        return sendHtml(reply, 400, view(options, token, user.email, `The password ${problem}.`));
      }
    },
  );
}
