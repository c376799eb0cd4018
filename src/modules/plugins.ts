/** The two shapes of a module's routes: on a public listener (with its environment) or on the operator's. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.ts';
import type { Environment } from '../lib/environment.ts';

export type PublicPlugin = FastifyPluginAsyncTypebox<{ ctx: AppContext; environment: Environment }>;
export type OperatorPlugin = FastifyPluginAsyncTypebox<{ ctx: AppContext }>;
