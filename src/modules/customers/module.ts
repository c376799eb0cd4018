/** The customers module: its routes and shared schema. */
import type { ModuleDescriptor } from '../plugins.ts';
import { customerRoutes } from './routes.ts';
import { CustomerSchema } from './schema.ts';

export const customersModule: ModuleDescriptor = {
  name: 'customers',
  schemas: [CustomerSchema],
  routes: { partner: [customerRoutes] },
};
