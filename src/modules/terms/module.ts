/** The terms module: the partner's link route and the page the customer opens. */
import type { ModuleDescriptor } from '../plugins.ts';
import { termsLinkRoutes, termsPageRoutes } from './routes.ts';

export const termsModule: ModuleDescriptor = {
  name: 'terms',
  routes: { partner: [termsLinkRoutes], open: [termsPageRoutes] },
};
