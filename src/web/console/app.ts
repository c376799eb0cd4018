import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export async function registerConsole(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
