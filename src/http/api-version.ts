/**
 * The `API-Version` request header of the public API: a known version or nothing (the default); every
 * answer names the version it was made under in the same header. An unknown version is refused with a
 * 400 before anything else happens, so that a request is never served under a version it did not ask for.
 */
import type { FastifyInstance } from 'fastify';
import { API_VERSIONS, DEFAULT_API_VERSION } from '../core/api-version.ts';
import { sendProblem } from './problem.ts';

const KNOWN = new Set<string>(API_VERSIONS);

export function registerApiVersion(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const asked = request.headers['api-version'];
    if (asked === undefined) {
      reply.header('api-version', DEFAULT_API_VERSION);
      return;
    }
    if (typeof asked === 'string' && KNOWN.has(asked.trim())) {
      reply.header('api-version', asked.trim());
      return;
    }
    reply.header('api-version', DEFAULT_API_VERSION);
    return sendProblem(reply, request, 'invalid_request', 'Unknown API-Version', {
      errors: [{ pointer: '/headers/api-version', message: `must be one of ${API_VERSIONS.join(', ')}` }],
    });
  });
}
