/** The hosted verification module: its pages (open) and the sandbox's verification outcome route. */
import type { ModuleDescriptor } from '../plugins.ts';
import { hostedVerificationRoutes } from './routes.ts';
import { sandboxVerificationRoutes } from './sandbox-routes.ts';

export const hostedVerificationModule: ModuleDescriptor = {
  name: 'hosted-verification',
  routes: { partner: [sandboxVerificationRoutes], open: [hostedVerificationRoutes] },
};
