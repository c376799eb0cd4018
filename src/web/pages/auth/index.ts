/**
 * The pages every surface has, the same for the partner dashboard and the operator console: signing in
 * and out (with the TOTP step), accepting an invitation, and the account page.
 */
import type { AppContext } from '../../../context.ts';
import { createWebUserService } from '../../../modules/web-users/service.ts';
import type { WebApp } from '../../kit/surface.ts';
import * as account from './account.ts';
import * as invite from './invite.ts';
import type { AuthOptions } from './options.ts';
import * as signIn from './sign-in.ts';

export function registerAuthPages(app: WebApp, ctx: AppContext, options: AuthOptions) {
  const deps = {
    ctx,
    users: createWebUserService({ ...ctx, encryptionKey: ctx.instanceKeys.encryption }),
    options,
  };
  signIn.register(app, deps);
  invite.register(app, deps);
  account.register(app, deps);
}
