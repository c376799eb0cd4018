/** The associated parties module: its routes and shared schema. */
import type { ModuleDescriptor } from '../plugins.ts';
import { associatedPartyRoutes } from './routes.ts';
import { AssociatedPartySchema } from './schema.ts';

export const associatedPartiesModule: ModuleDescriptor = {
  name: 'associated-parties',
  schemas: [AssociatedPartySchema],
  routes: { partner: [associatedPartyRoutes] },
};
