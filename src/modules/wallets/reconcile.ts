/**
 * Reconciliation of what is on chain against the ledger. For the watched addresses of a node-backed
 * chain (a bounded batch per pass, the least recently checked first) and every stablecoin of it, the token balance at the chain's last final block is compared with
 * what the ledger says arrived there (deposits credited, less those an operator reversed, plus confirmed
 * on-ramp deliveries; nothing leaves a customer's address). An address with a movement still in flight
 * is left for a later pass. A difference is kept OPEN (one row per address and currency), reported in the
 * log, counted in `ponte_chain_balance_differences` and shown as an alert in the operator console until a
 * pass finds none (CLEARED) or an operator resolves it (see reconcile-resolve.ts). A difference an operator
 * accepted is not raised again while it stays exactly that.
 *
 * It catches what the watcher cannot: a credited deposit that a reorganisation deeper than the
 * confirmations removed, tokens that arrived in a log the watcher never saw or rejected.
 */
import { Gauge } from 'prom-client';
import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import type { Logger } from '../../core/logger.ts';
import type { Database, Executor } from '../../db/types.ts';
import { metrics } from '../../http/metrics.ts';
import type { ChainAdapter } from '../../rails/chains/adapter.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import {
  acceptedDifference,
  addressesToCheck,
  holdingKey,
  insertDifference,
  ledgerHoldings,
  lockOpenDifference,
  markChecked,
  openDifferenceCounts,
  updateDifference,
} from './reconcile-repo.ts';

type Deps = { db: Database; chains: ChainRegistry; clock: Clock; log?: Logger };

export const differenceGauge = new Gauge({
  name: 'ponte_chain_balance_differences',
  help: 'Watched addresses whose token balance on chain differs from the ledger (open differences), by chain and currency',
  labelNames: ['blockchain', 'currency'] as const,
  registers: [metrics.registry],
});

/** Sets the gauge from the database: every node-backed chain's currencies, 0 where nothing is open. */
export async function refreshDifferenceGauge(db: Executor, chains: ChainRegistry): Promise<void> {
  const counts = await openDifferenceCounts(db);
  differenceGauge.reset();
  for (const adapter of chains.all('production')) {
    if (!adapter.node) continue;
    for (const currency of adapter.currencies)
      differenceGauge.set({ blockchain: adapter.blockchain, currency }, 0);
  }
  for (const row of counts)
    differenceGauge.set({ blockchain: row.blockchain, currency: row.currency }, Number(row.n));
}

async function inBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    results.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  }
  return results;
}

/** One pass over one chain; returns how many differences it opened. */
export async function reconcileChain(deps: Deps, adapter: ChainAdapter, batch = 2_000): Promise<number> {
  const { db, clock } = deps;
  const node = adapter.node;
  if (!node) return 0;
  const { environment, blockchain } = adapter;
  const final = (await node.head()) - BigInt(adapter.confirmations) + 1n;
  if (final < 0n) return 0;
  // the addresses never checked, then the least recently checked: a bounded batch per pass
  const wallets = await addressesToCheck(db, environment, blockchain, batch);
  const checks = wallets.flatMap((wallet) => adapter.currencies.map((currency) => ({ wallet, currency })));
  const balances = await inBatches(checks, 8, ({ wallet, currency }) =>
    node.balanceAt(currency, wallet.address, final),
  );
  const { held, unsettled } = await ledgerHoldings(db, environment, blockchain, final);
  let opened = 0;
  for (const [i, { wallet, currency }] of checks.entries()) {
    const at = holdingKey(wallet.address, currency);
    if (unsettled.has(at)) continue;
    const onChain = balances[i]!;
    const ledger = held.get(at) ?? 0n;
    const where = { environment, blockchain, address: wallet.address, currency };
    const now = clock();
    const isNew = await db.transaction(async (tx) => {
      const open = await lockOpenDifference(tx, where);
      if (open) {
        const figures = { onChain, ledger, blockNumber: final };
        await updateDifference(
          tx,
          open.id,
          figures,
          now,
          onChain === ledger ? { status: 'CLEARED' } : undefined,
        );
        return false;
      }
      if (onChain === ledger || (await acceptedDifference(tx, where)) === onChain - ledger) return false;
      return insertDifference(tx, {
        id: newId(),
        ...where,
        customer_id: wallet.customer_id,
        project_id: wallet.project_id,
        on_chain: onChain.toString(),
        ledger: ledger.toString(),
        block_number: final,
        status: 'OPEN',
        first_seen_at: now,
        checked_at: now,
        closed_at: null,
        resolved_by: null,
        resolution: null,
      });
    });
    if (isNew) {
      opened++;
      // the chain, the currency and the block: the address and the figures are on the console page
      deps.log?.error(
        { blockchain, currency, block: final.toString() },
        'chain balance differs from the ledger',
      );
    }
  }
  // every address of the batch was looked at (those in flight come round again with the next batches)
  await markChecked(
    db,
    environment,
    blockchain,
    wallets.map((w) => w.address),
    clock(),
  );
  return opened;
}

/** One pass over every node-backed chain, then the gauge. */
export async function reconcileChains(deps: Deps): Promise<number> {
  let opened = 0;
  for (const adapter of deps.chains.all('production')) {
    if (adapter.node) opened += await reconcileChain(deps, adapter);
  }
  await refreshDifferenceGauge(deps.db, deps.chains);
  return opened;
}
