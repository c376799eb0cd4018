/** The events module: its routes and shared schema. */
import type { ModuleDescriptor } from '../plugins.ts';
import { eventRoutes } from './routes.ts';
import { EventSchema } from './schema.ts';

export const eventsModule: ModuleDescriptor = {
  name: 'events',
  schemas: [EventSchema],
  routes: { partner: [eventRoutes] },
};
