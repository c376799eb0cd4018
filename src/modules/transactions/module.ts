/** The transactions module: the read routes both flows' transactions are served by, and the shared schema. */
import type { ModuleDescriptor } from '../plugins.ts';
import { transactionRoutes } from './routes.ts';
import { TransactionSchema } from './schema.ts';

export const transactionsModule: ModuleDescriptor = {
  name: 'transactions',
  schemas: [TransactionSchema],
  routes: { partner: [transactionRoutes] },
};
