/** The verification review module: the partner's verification routes. */
import type { ModuleDescriptor } from '../plugins.ts';
import { verificationRoutes } from './routes.ts';

export const verificationReviewModule: ModuleDescriptor = {
  name: 'verification-review',
  routes: { partner: [verificationRoutes] },
};
