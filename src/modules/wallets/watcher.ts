/**
 * The deposit watcher of a node-backed chain. Each pass, under the chain's cursor row (FOR UPDATE SKIP
 * LOCKED: one watcher per chain at a time across processes), it rescans every block after the last final
 * one up to the head for token transfers to customers' addresses:
 * - a log seen for the first time becomes a PROCESSING deposit;
 * - a log in the canonical chain with its confirmations reached is credited (SUCCESS), once;
 * - a PROCESSING deposit whose log is no longer in the canonical chain was reorganised away: FAILED.
 * The cursor then moves to the newest block with its confirmations met. All state is in the database,
 * so a restarted watcher carries on where the last one stopped and credits nothing twice.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../db/types.ts';
import type { ChainAdapter } from '../rails/chains/adapter.ts';
import type { ChainRegistry } from '../rails/chains/registry.ts';
import { creditDeposit, dropDeposit, recordInbound } from './deposits.ts';
import { walletAddresses } from './repo.ts';
import { isOnRampDelivery } from './sends-repo.ts';

type Deps = { db: Database; chains: ChainRegistry; clock: Clock; config: Pick<Config, 'screening'> };

export async function watchChain(deps: Deps, adapter: ChainAdapter): Promise<number> {
  const { db, chains, clock, config } = deps;
  const node = adapter.node;
  if (!node) return 0;
  const { environment, blockchain, confirmations } = adapter;
  const head = await node.head();
  const final = head - BigInt(confirmations) + 1n;
  await db.query(
    `INSERT INTO chain_cursors (environment, blockchain, final_block, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [environment, blockchain, final > 0n ? final - 1n : 0n, clock()],
  );
  return db.transaction(async (tx) => {
    const cursor = await tx.query<{ final_block: bigint }>(
      `SELECT final_block FROM chain_cursors WHERE environment = $1 AND blockchain = $2 FOR UPDATE SKIP LOCKED`,
      [environment, blockchain],
    );
    if (!cursor[0]) return 0;
    const from = BigInt(cursor[0].final_block) + 1n;
    const addresses = await walletAddresses(tx, environment, blockchain);
    const logs = await node.inbound(from, head, addresses);
    const now = clock();
    let changed = 0;
    const canonical = new Set<string>();
    for (const log of logs) {
      if (await isOnRampDelivery(tx, blockchain, log.transactionHash)) continue;
      const id = await recordInbound(tx, chains, environment, blockchain, log, now, config.screening);
      if (!id) continue;
      canonical.add(id);
      if (log.blockNumber <= final && (await creditDeposit(tx, chains, id, now))) changed++;
    }
    const pending = await tx.query<{ transaction_id: string }>(
      `SELECT d.transaction_id FROM chain_deposits d JOIN chain_transactions t ON t.id = d.transaction_id
        WHERE d.environment = $1 AND d.blockchain = $2 AND t.status IN ('PROCESSING', 'AWAITING_TRAVEL_RULE')`,
      [environment, blockchain],
    );
    for (const { transaction_id } of pending) {
      if (
        !canonical.has(transaction_id) &&
        (await dropDeposit(tx, chains, transaction_id, confirmations, now))
      ) {
        changed++;
      }
    }
    if (final > BigInt(cursor[0].final_block)) {
      await tx.query(
        `UPDATE chain_cursors SET final_block = $3, updated_at = $4 WHERE environment = $1 AND blockchain = $2`,
        [environment, blockchain, final, now],
      );
    }
    return changed;
  });
}

/** One pass over every node-backed chain. */
export async function watchChains(deps: Deps): Promise<number> {
  let changed = 0;
  for (const adapter of deps.chains.all('production')) {
    if (adapter.node) changed += await watchChain(deps, adapter);
  }
  return changed;
}
