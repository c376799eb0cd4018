/** Customer accounts in a currency (USD at a US bank): their routes and shared schema. */
import type { ModuleDescriptor } from '../plugins.ts';
import { accountRoutes } from './routes.ts';
import { AccountSchema } from './schema.ts';

export const accountsModule: ModuleDescriptor = {
  name: 'accounts',
  schemas: [AccountSchema],
  routes: { partner: [accountRoutes] },
};
