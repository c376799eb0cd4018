/** The compliance module: its operator routes. */
import type { ModuleDescriptor } from '../plugins.ts';
import { complianceOperatorRoutes } from './routes.ts';

export const complianceModule: ModuleDescriptor = {
  name: 'compliance',
  routes: { operator: [complianceOperatorRoutes] },
};
