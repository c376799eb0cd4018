/**
 * Customer accounts in a currency (USD at a US bank): their routes and shared schema, and the job that
 * opens again the numbers of accounts the bank left PROVISIONING.
 */
import { ENVIRONMENTS } from '../../lib/environment.ts';
import { job, type ModuleDescriptor } from '../plugins.ts';
import { accountNumbersFor } from './numbers.ts';
import { accountRoutes } from './routes.ts';
import { AccountSchema } from './schema.ts';
import { createAccountService } from './service.ts';

/** How often, and after how long, an account left PROVISIONING is provisioned again. */
const RETRY_EVERY_MS = 30_000;

export const accountsModule: ModuleDescriptor = {
  name: 'accounts',
  schemas: [AccountSchema],
  routes: { partner: [accountRoutes] },
  jobs: (ctx) =>
    ENVIRONMENTS.filter((environment) => environment === 'sandbox' || ctx.config.usdBank[environment]).map(
      (environment) => {
        const accounts = createAccountService({
          ...ctx,
          numbers: accountNumbersFor(ctx.config, environment),
        });
        return job(`account-provisioning-${environment}`, RETRY_EVERY_MS, false, () =>
          accounts.provisionPending(environment, RETRY_EVERY_MS),
        );
      },
    ),
};
