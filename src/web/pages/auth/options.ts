/** What the sign-in, invitation and account pages of a surface share: where they live and how they frame. */
import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import type { Html } from '../../../lib/html.ts';
import type { WebUserService } from '../../../modules/web-users/service.ts';
import { authPage } from '../../kit/layout.ts';
import type { SurfaceOptions } from '../../kit/surface.ts';

export type AuthOptions = SurfaceOptions & {
  /** Where the surface's pages start: '' for the dashboard, '/console' for the console. */
  prefix: string;
  /** Where a signed-in user lands. */
  home: string;
  /** The frame of the account page (the surface's own navigation). */
  accountShell: (request: FastifyRequest, title: string, body: Html) => Html;
};

export type AuthDeps = { ctx: AppContext; users: WebUserService; options: AuthOptions };

/** A form body: the CSRF token (when the form carries one) and the given text fields. */
export const Form = <T extends Record<string, TSchema>>(fields: T) =>
  Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 64 })), ...fields });

/** A small page of the surface (sign-in, a message). */
export const smallPage = (options: AuthOptions, title: string, body: Html) =>
  authPage(title, options.assets, options.brand, body);

/** What a refused input says of its first field, when the error is about a field. */
export function firstProblem(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('errors' in error)) return undefined;
  const errors: unknown = error.errors;
  if (!Array.isArray(errors)) return undefined;
  const first: unknown = errors[0];
  if (typeof first !== 'object' || first === null || !('message' in first)) return undefined;
  return typeof first.message === 'string' ? first.message : undefined;
}
