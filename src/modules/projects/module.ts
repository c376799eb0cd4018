/** The projects module: its operator routes. */
import type { ModuleDescriptor } from '../plugins.ts';
import { projectOperatorRoutes } from './routes.ts';

export const projectsModule: ModuleDescriptor = {
  name: 'projects',
  routes: { operator: [projectOperatorRoutes] },
};
