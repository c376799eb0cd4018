/**
 * Authentication hooks. Every route is protected unless its config says `auth: 'none'`: public routes
 * take an API key of the listener's environment, operator routes an operator token. A mistyped key is
 * refused by its checksum before any database read; a key of the other environment answers 401
 * `environment_mismatch` without a lookup either.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../core/actor.ts';
import { AppError } from '../core/errors.ts';
import { checksumMatches, readApiKey } from '../lib/api-key.ts';
import type { Environment, Tenant } from '../lib/environment.ts';
import { constantTimeEqual, sha256Hex } from '../lib/secrets.ts';
import { authenticationFailed, markAuthenticated } from './auth-throttle.ts';

export type AuthMode = 'apiKey' | 'operator' | 'none';

type ResolvedKey = Tenant & { keyId: string };

/**
 * Finds the live API key with this SHA-256 hash: its project and environment, or null. `peek` answers
 * from memory when it can (undefined when it cannot), so a known key costs no promise.
 */
export type ApiKeyLookup = {
  peek(hash: string): ResolvedKey | null | undefined;
  resolve(hash: string): Promise<ResolvedKey | null>;
};

/** Finds the active operator whose token has this SHA-256 hash, or undefined. */
export type OperatorLookup = (tokenHash: string) => Promise<Actor | undefined>;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
  interface FastifyRequest {
    tenant: Tenant;
    apiKeyId: string;
    operator: Actor;
  }
}

function bearer(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw new AppError('unauthorized', 'Send the API key as "Authorization: Bearer <key>"');
  const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
  if (!match) throw new AppError('unauthorized', 'The Authorization header must be "Bearer <key>"');
  return match[1]!;
}

export function registerApiKeyAuth(app: FastifyInstance, environment: Environment, keys: ApiKeyLookup): void {
  app.decorateRequest('tenant', null as unknown as Tenant);
  app.decorateRequest('apiKeyId', '');
  const accept = (request: FastifyRequest, resolved: ResolvedKey) => {
    request.tenant = { projectId: resolved.projectId, environment: resolved.environment };
    request.apiKeyId = resolved.keyId;
    markAuthenticated(request);
  };
  const unknownKey = () => new AppError('unauthorized', 'The API key is unknown or revoked');
  // A callback hook: a key found in the cache (nearly every request) is accepted without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    // `routeOptions` is built anew on every read: read it once.
    const route = request.routeOptions;
    if (!route.url || (route.config.auth ?? 'apiKey') === 'none') return done();
    const refuse = (error: AppError) => done(authenticationFailed(request, reply, error));
    let token: string;
    try {
      token = bearer(request);
    } catch (error) {
      return refuse(error as AppError);
    }
    const key = readApiKey(token);
    const cached = key ? keys.peek(key.hash) : undefined;
    // A cached key was issued with its checksum; anything else has it checked before any lookup.
    if (!key || (!cached && !checksumMatches(token))) {
      return refuse(new AppError('unauthorized', 'The API key is malformed or mistyped'));
    }
    if (key.environment !== environment) {
      return refuse(
        new AppError(
          'environment_mismatch',
          `This is the ${environment} API; use a ${environment} key (sk_${environment === 'production' ? 'live' : 'sandbox'}_...)`,
        ),
      );
    }
    if (cached) {
      accept(request, cached);
      return done();
    }
    if (cached === null) return refuse(unknownKey());
    keys.resolve(key.hash).then((resolved) => {
      if (!resolved) return refuse(unknownKey());
      accept(request, resolved);
      done();
    }, done);
  });
}

export function registerOperatorAuth(
  app: FastifyInstance,
  findOperator: OperatorLookup,
  bootstrapToken: string | undefined,
): void {
  app.decorateRequest('operator', null as unknown as Actor);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url || (request.routeOptions.config.auth ?? 'operator') === 'none') return;
    let token: string;
    try {
      token = bearer(request);
    } catch (error) {
      throw authenticationFailed(request, reply, error as AppError);
    }
    if (bootstrapToken && constantTimeEqual(token, bootstrapToken)) {
      request.operator = { id: null, name: 'bootstrap' };
      markAuthenticated(request);
      return;
    }
    const operator = /^op_[0-9A-Za-z]{40}$/.test(token) ? await findOperator(sha256Hex(token)) : undefined;
    if (!operator) {
      throw authenticationFailed(
        request,
        reply,
        new AppError('unauthorized', 'The operator token is unknown or revoked'),
      );
    }
    request.operator = { id: operator.id, name: operator.name };
    markAuthenticated(request);
  });
}
