/** The limit requests module: its routes and shared schema. */
import type { ModuleDescriptor } from '../plugins.ts';
import { limitRequestRoutes } from './routes.ts';
import { LimitRequestSchema } from './schema.ts';

export const limitRequestsModule: ModuleDescriptor = {
  name: 'limit-requests',
  schemas: [LimitRequestSchema],
  routes: { partner: [limitRequestRoutes] },
};
