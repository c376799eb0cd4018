/**
 * The modules each surface serves. A module contributes named schemas (shared through `$ref` and
 * published as OpenAPI components) and a route plugin.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import type { AppContext } from '../context.ts';
import { Problem } from '../http/schemas.ts';
import type { Environment } from '../lib/environment.ts';
import { customerRoutes } from './customers/routes.ts';
import { CustomerSchema } from './customers/schema.ts';
import { projectOperatorRoutes } from './projects/routes.ts';
import { verificationRoutes } from './verifications/routes.ts';
import { VerificationSchema } from './verifications/schema.ts';

export type PublicPlugin = FastifyPluginAsyncTypebox<{ ctx: AppContext; environment: Environment }>;
export type OperatorPlugin = FastifyPluginAsyncTypebox<{ ctx: AppContext }>;

export const sharedSchemas: TSchema[] = [Problem, VerificationSchema, CustomerSchema];

/** Routes that need an API key of the listener's environment. */
export const partnerRoutes: PublicPlugin[] = [customerRoutes, verificationRoutes];

/** Routes on the public listeners that carry their own authentication (or none): pages, provider callbacks. */
export const openPublicRoutes: PublicPlugin[] = [];

/** Routes on the operator listener, behind an operator token. */
export const operatorRoutes: OperatorPlugin[] = [projectOperatorRoutes];
