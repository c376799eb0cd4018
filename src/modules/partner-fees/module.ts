/** The partner fees module: its operator routes. */
import type { ModuleDescriptor } from '../plugins.ts';
import { partnerFeeOperatorRoutes } from './routes.ts';

export const partnerFeesModule: ModuleDescriptor = {
  name: 'partner-fees',
  routes: { operator: [partnerFeeOperatorRoutes] },
};
