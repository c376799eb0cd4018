/** The bank accounts module: its routes, its schema, and what a screening decision does to a holder. */
import type { ModuleDescriptor } from '../plugins.ts';
import { rejectHolderAfterSanctionsMatch } from './holder-review.ts';
import { bankAccountRoutes } from './routes.ts';
import { BankAccountSchema } from './schema.ts';

export const bankAccountsModule: ModuleDescriptor = {
  name: 'bank-accounts',
  schemas: [BankAccountSchema],
  routes: { partner: [bankAccountRoutes] },
  offers: () => ({
    screeningDecisions: {
      BANK_ACCOUNT_HOLDER: { confirmed: (tx, _deps, id, at) => rejectHolderAfterSanctionsMatch(tx, id, at) },
    },
  }),
};
