/**
 * CSRF protection of the web surfaces: a per-session token in every form (checked on each state-changing
 * request) and the request's Origin (or Referer) checked against the surface's own.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import { type Html, html } from '../../lib/html.ts';
import { constantTimeEqual } from '../../lib/secrets.ts';

/** The hidden field that carries the session's token in a form. */
export const csrfField = (token: string): Html => html`<input type="hidden" name="_csrf" value="${token}">`;

/** The token field of a form's body schema (spread into each `Type.Object`). */
export const CsrfField = { _csrf: Type.Optional(Type.String({ maxLength: 64 })) };

export const csrfRefused = () =>
  new AppError('forbidden', 'The form has expired; reload the page and try again');

/** The token a parsed form body carries, if it carries one as text. */
export function formToken(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('_csrf' in body)) return undefined;
  return typeof body._csrf === 'string' ? body._csrf : undefined;
}

/** Checks a CSRF token against the session's; throws 403 when missing or wrong. */
export function checkCsrf(request: FastifyRequest, token: string | undefined): void {
  const expected = request.session?.csrfToken;
  if (!expected || !token || !constantTimeEqual(token, expected)) throw csrfRefused();
}

/** Whether a request comes from the surface's own origin (a request naming neither is let through). */
export function sameOrigin(request: FastifyRequest, origin: URL): boolean {
  const given = request.headers.origin;
  if (given !== undefined)
    return given === origin.origin || given === `${request.protocol}://${request.host}`;
  const referer = request.headers.referer;
  if (!referer) return true;
  try {
    const from = new URL(referer);
    return from.origin === origin.origin || from.host === request.host;
  } catch {
    return false;
  }
}
