/**
 * The deposit watcher of a node-backed chain. Each pass, under the chain's cursor row (FOR UPDATE SKIP
 * LOCKED: one watcher per chain at a time across processes), it rescans every block after the last final
 * one up to the head for token transfers to customers' addresses:
 * - a log seen for the first time becomes a PROCESSING deposit; a log that cannot become one (an amount
 *   beyond what the ledger holds, or any failure to record it) is kept as rejected, with its reason, and
 *   the pass carries on with the others;
 * - a log in the canonical chain with its confirmations reached is credited (SUCCESS), once;
 * - a PROCESSING deposit missing from this pass's logs is looked up by its block: a node's answer may be
 *   incomplete, so only a block of that number with another hash in the canonical chain means a
 *   reorganisation removed it (FAILED); its own block still canonical means it is there, credited once
 *   final, whatever the log query answered.
 * The cursor then moves to the newest block with its confirmations met. All state is in the database,
 * so a restarted watcher carries on where the last one stopped and credits nothing twice.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { ChainAdapter, InboundTransfer } from '../../rails/chains/adapter.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { creditDeposit, dropDeposit, MAX_AMOUNT, recordInbound, rejectInbound } from './deposits.ts';
import { walletAddresses } from './repo.ts';
import { isOnRampDelivery } from './sends-repo.ts';
import { advanceCursor, ensureCursor, lockCursor, openDeposits } from './watcher-repo.ts';

type Deps = {
  db: Database;
  chains: ChainRegistry;
  clock: Clock;
  config: Pick<Config, 'screening'>;
  log?: Logger;
};

/** Why a log cannot become a deposit, or null. */
function logProblem(log: InboundTransfer): string | null {
  if (log.amount > MAX_AMOUNT) return 'The amount is larger than the ledger can hold';
  return null;
}

/**
 * Records one log inside a savepoint, so that a log that fails to record rolls back alone and is kept as
 * rejected; returns its deposit's id (null: not a deposit).
 */
async function recordLog(
  tx: Executor,
  deps: Deps,
  adapter: ChainAdapter,
  log: InboundTransfer,
  at: Date,
): Promise<string | null> {
  const { environment, blockchain } = adapter;
  const reject = async (reason: string) => {
    if (await rejectInbound(tx, environment, blockchain, log, reason, at)) {
      // no addresses or amounts: the log's place on chain and the reason are enough to find it
      deps.log?.error(
        { blockchain, transactionHash: log.transactionHash, logIndex: log.logIndex, reason },
        'inbound transfer log rejected; the watcher carries on',
      );
    }
    return null;
  };
  const problem = logProblem(log);
  if (problem) return reject(problem);
  await tx.query('SAVEPOINT watcher_log');
  try {
    const id = await recordInbound(tx, deps.chains, environment, blockchain, log, at, deps.config.screening);
    await tx.query('RELEASE SAVEPOINT watcher_log');
    return id;
  } catch (error) {
    await tx.query('ROLLBACK TO SAVEPOINT watcher_log');
    const code = (error as { code?: unknown }).code;
    // a deadlock or serialization failure is the database's, not the log's: the whole pass runs again
    if (code === '40P01' || code === '40001') throw error;
    return reject(
      `The log could not be recorded${typeof code === 'string' ? ` (database error ${code})` : ''}`,
    );
  }
}

export async function watchChain(deps: Deps, adapter: ChainAdapter): Promise<number> {
  const { db, chains, clock } = deps;
  const node = adapter.node;
  if (!node) return 0;
  const { environment, blockchain, confirmations } = adapter;
  const head = await node.head();
  const final = head - BigInt(confirmations) + 1n;
  await ensureCursor(db, environment, blockchain, final > 0n ? final - 1n : 0n, clock());
  return db.transaction(async (tx) => {
    const cursor = await lockCursor(tx, environment, blockchain);
    if (!cursor[0]) return 0;
    const from = BigInt(cursor[0].final_block) + 1n;
    const addresses = await walletAddresses(tx, environment, blockchain);
    const logs = await node.inbound(from, head, addresses);
    const now = clock();
    let changed = 0;
    const canonical = new Set<string>();
    for (const log of logs) {
      if (await isOnRampDelivery(tx, blockchain, log.transactionHash)) continue;
      const id = await recordLog(tx, deps, adapter, log, now);
      if (!id) continue;
      canonical.add(id);
      if (log.blockNumber <= final && (await creditDeposit(tx, chains, id, now))) changed++;
    }
    const pending = await openDeposits(tx, environment, blockchain);
    const hashes = new Map<bigint, string | null>();
    for (const deposit of pending) {
      if (canonical.has(deposit.transaction_id)) continue;
      if (deposit.block_number === null) {
        if (await dropDeposit(tx, chains, deposit.transaction_id, confirmations, now)) changed++;
        continue;
      }
      const number = BigInt(deposit.block_number);
      if (!hashes.has(number)) hashes.set(number, await node.blockHash(number));
      const current = hashes.get(number);
      if (current === null || current === undefined) continue; // the chain is shorter than that now: wait
      if (current.toLowerCase() === deposit.block_hash.toLowerCase()) {
        // its block is canonical: the log is there, whatever the log query answered
        if (number <= final && (await creditDeposit(tx, chains, deposit.transaction_id, now))) changed++;
      } else if (await dropDeposit(tx, chains, deposit.transaction_id, confirmations, now)) {
        changed++;
      }
    }
    if (final > BigInt(cursor[0].final_block)) {
      await advanceCursor(tx, environment, blockchain, final, now);
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
