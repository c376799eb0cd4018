/** The documents module: its routes and shared schema. */
import type { ModuleDescriptor } from '../plugins.ts';
import { documentRoutes } from './routes.ts';
import { DocumentSchema } from './schema.ts';

export const documentsModule: ModuleDescriptor = {
  name: 'documents',
  schemas: [DocumentSchema],
  routes: { partner: [documentRoutes] },
};
