/**
 * Wallets: balance, wallet, transfer and travel rule routes; what a screening decision does to a held
 * transfer or deposit and to the sends and deposits a decided hold stopped; and the chain jobs (signing,
 * confirmations, deposits, reconciliation, the sandbox's simulated deposits).
 */
import type { SubjectDecisionHandlers } from '../offers.ts';
import { job, type ModuleDescriptor } from '../plugins.ts';
import { confirmSimulatedDeposits, decideHeldDeposits } from './deposits.ts';
import { refuseHeldTransaction, releaseHeldTransaction } from './held.ts';
import { balanceRoutes } from './holdings-routes.ts';
import { reconcileChains } from './reconcile.ts';
import { walletRoutes } from './routes.ts';
import { decideHeldSends } from './send-holds.ts';
import { checkSubmitted, signQueued } from './sender.ts';
import { travelRuleRoutes } from './travel-rule-routes.ts';
import { watchChains } from './watcher.ts';

/** A transfer or deposit held for its own case: released (CLEAR) or refused (CONFIRM). */
const heldTransaction: SubjectDecisionHandlers = {
  cleared: (tx, { chains }, id, at) => releaseHeldTransaction(tx, chains, id, at),
  confirmed: (tx, { chains }, id, at) => refuseHeldTransaction(tx, chains, id, at),
};

export const walletsModule: ModuleDescriptor = {
  name: 'wallets',
  routes: { partner: [balanceRoutes, walletRoutes, travelRuleRoutes] },
  offers: (_deps, all) => ({
    screeningDecisions: { TRANSFER: heldTransaction, DEPOSIT: heldTransaction },
    holdDecided: [
      (tx, { chains }, decided, at) => decideHeldDeposits(tx, chains, decided, at),
      (tx, { chains }, decided, at) => decideHeldSends(tx, chains, all().deliveries, decided, at),
    ],
  }),
  jobs: (ctx, log) => {
    const chainPoll = ctx.config.chains.pollIntervalMs;
    return [
      job('chain-signer', chainPoll, true, () => signQueued(ctx)),
      job('chain-confirmations', chainPoll, true, () => checkSubmitted(ctx)),
      job('chain-deposits', chainPoll, true, () => watchChains({ ...ctx, log })),
      job('chain-reconciliation', 60_000, false, () => reconcileChains({ ...ctx, log })),
      job('sandbox-chain-deposits', 500, true, () => confirmSimulatedDeposits(ctx)),
    ];
  },
};
