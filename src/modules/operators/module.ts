/** The operators module: its operator routes. */
import type { ModuleDescriptor } from '../plugins.ts';
import { operatorAccountRoutes } from './accounts-routes.ts';

export const operatorsModule: ModuleDescriptor = {
  name: 'operators',
  routes: { operator: [operatorAccountRoutes] },
};
