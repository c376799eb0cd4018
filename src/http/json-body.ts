/**
 * JSON bodies: Fastify's own parser (with its prototype-poisoning protection), except that a DELETE
 * sent with `Content-Type: application/json` and no body is accepted as having no body, as many HTTP
 * clients send one.
 */
import type { FastifyInstance } from 'fastify';

export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (request.method === 'DELETE' && body === '') return done(null, undefined);
    return parse(request, body as string, done);
  });
}
