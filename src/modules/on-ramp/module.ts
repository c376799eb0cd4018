/**
 * The on-ramp: its routes (sandbox ones too), what its transactions do when their PIX arrives and as their
 * stablecoin's delivery moves on, and the job that expires the unpaid ones.
 */
import { job, type ModuleDescriptor } from '../plugins.ts';
import { applyBankTransfer } from './bank-deposit.ts';
import { deliveryHandler } from './delivery.ts';
import { depositHandler } from './deposit.ts';
import { expireDueTransactions } from './expiry.ts';
import { onRampRoutes } from './routes.ts';
import { sandboxAccountDepositRoutes, sandboxDepositRoutes, sandboxExpiryRoutes } from './sandbox-routes.ts';

export const onRampModule: ModuleDescriptor = {
  name: 'on-ramp',
  routes: { partner: [onRampRoutes, sandboxDepositRoutes, sandboxExpiryRoutes, sandboxAccountDepositRoutes] },
  offers: (deps) => ({
    deliveries: deliveryHandler,
    fundsReceived: depositHandler(deps),
    bankFundsReceived: (environment, transfer) => applyBankTransfer(deps, environment, transfer),
  }),
  jobs: (ctx) => [
    job('transaction-expiry', 1_000, true, () => expireDueTransactions(ctx.db, ctx.clock, 100, ctx.pix)),
  ],
};
