/**
 * The operator's tools for a chain balance difference, each audited in the transaction of its change:
 * - reverse a credited deposit the chain no longer holds (its block is no longer canonical): a balanced
 *   CHAIN_DEPOSIT_REVERSED journal takes the credit back from the customer's wallet on that chain, once;
 *   refused while the deposit is still on chain, or when the wallet no longer holds the amount;
 * - credit a transfer the watcher missed (a node's incomplete answer as its block became final): the
 *   operator names its transaction; its Transfer logs of the currency to the address, in a final canonical
 *   block, are recorded and credited as deposits, each once;
 * - accept the difference with a note (explained elsewhere: tokens sent by mistake, a rejected log);
 *   a later pass raises it again only if it changes.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { AppError, invalidField, notFound } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { chainDepositReversed } from '../ledger/postings.ts';
import { postJournal } from '../ledger/service.ts';
import { type Actor, actorLabel, recordAudit } from '../operators/audit.ts';
import { creditDeposit, MAX_AMOUNT, recordInbound } from './deposits.ts';
import { refreshDifferenceGauge } from './reconcile.ts';
import {
  acceptDifference,
  creditedDepositsTo,
  type DifferenceRow,
  type DifferenceStatus,
  differenceCustomer,
  findDifference,
  listDifferences,
  lockCustomerRow,
  lockDifference,
  openDifferenceCounts,
  setDifferenceLedger,
} from './reconcile-repo.ts';

export type { DifferenceRow, DifferenceStatus } from './reconcile-repo.ts';

import { walletBalance } from './repo.ts';
import { isOnRampDelivery } from './sends-repo.ts';

type Deps = {
  db: Database;
  chains: ChainRegistry;
  clock: Clock;
  log: Logger;
  config: Pick<Config, 'screening'>;
};

const MAX_NOTE = 500;

function checkNote(note: string): string {
  const trimmed = note.trim();
  if (!trimmed) throw invalidField('/body/note', 'must say why');
  if (trimmed.length > MAX_NOTE) throw invalidField('/body/note', `must be at most ${MAX_NOTE} characters`);
  return trimmed;
}

const figures = (row: DifferenceRow) => ({
  status: row.status,
  blockchain: row.blockchain,
  currency: row.currency,
  onChain: row.on_chain,
  ledger: row.ledger,
});

async function openDifference(db: Executor, id: string): Promise<DifferenceRow> {
  const row = await lockDifference(db, id);
  if (!row) throw notFound('Balance difference');
  if (row.status !== 'OPEN') {
    throw new AppError('invalid_state_transition', `The difference is ${row.status}, not OPEN`);
  }
  return row;
}

export function createReconciliationService(deps: Deps) {
  const { db, chains, clock, config } = deps;
  return {
    creditedDeposits: creditedDepositsTo,
    /** Differences in a status (all when null), newest first. */
    list: (status: DifferenceStatus | null, limit: number, offset: number) =>
      listDifferences(db, status, limit, offset),
    /** How many differences are open, per chain and currency (the console's alert). */
    openCounts: () => openDifferenceCounts(db),

    async accept(actor: Actor, id: string, note: string): Promise<void> {
      const resolution = checkNote(note);
      await db.transaction(async (tx) => {
        const row = await openDifference(tx, id);
        const at = clock();
        await acceptDifference(tx, id, at, actorLabel(actor), `Accepted: ${resolution}`);
        await recordAudit(tx, {
          actor,
          action: 'chain_balance_difference.accepted',
          resourceType: 'chain_balance_difference',
          resourceId: id,
          before: figures(row),
          after: { ...figures(row), status: 'RESOLVED', resolution },
          at,
        });
      });
      await refreshDifferenceGauge(db, chains);
    },

    async creditMissed(actor: Actor, id: string, transactionHash: string, note: string): Promise<void> {
      const resolution = checkNote(note);
      const hash = transactionHash.trim();
      if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) {
        throw invalidField(
          '/body/transactionHash',
          'must be a transaction hash: 0x and 64 hexadecimal digits',
        );
      }
      const found = await findDifference(db, id);
      if (!found) throw notFound('Balance difference');
      if (found.status !== 'OPEN') {
        throw new AppError('invalid_state_transition', `The difference is ${found.status}, not OPEN`);
      }
      const adapter = chains.get(found.environment, found.blockchain);
      const node = adapter.node;
      if (!node) throw new AppError('conflict', 'The chain has no node to ask');
      if (await isOnRampDelivery(db, found.blockchain, hash)) {
        throw invalidField('/body/transactionHash', 'is an on-ramp delivery, counted when it was confirmed');
      }
      // the chain first, outside the database transaction: the transfers, and that their blocks are final
      let transfers: Awaited<ReturnType<typeof node.transfersOf>>;
      let final: bigint;
      const canonical = new Map<bigint, string | null>();
      try {
        transfers = (await node.transfersOf(hash)).filter(
          (t) => t.to.toLowerCase() === found.address.toLowerCase() && t.currency === found.currency,
        );
        final = (await node.head()) - BigInt(adapter.confirmations) + 1n;
        for (const t of transfers) canonical.set(t.blockNumber, await node.blockHash(t.blockNumber));
      } catch (err) {
        deps.log.error(
          { err, differenceId: id, transactionHash: hash },
          'chain node did not answer a missed credit',
        );
        throw new AppError('service_unavailable', 'The chain node did not answer; try again');
      }
      if (transfers.length === 0) {
        throw invalidField('/body/transactionHash', `made no ${found.currency} transfer to this address`);
      }
      for (const t of transfers) {
        if (
          t.blockNumber > final ||
          canonical.get(t.blockNumber)?.toLowerCase() !== t.blockHash.toLowerCase()
        ) {
          throw new AppError(
            'conflict',
            'The transfer is not final in the canonical chain yet; try again later',
          );
        }
        if (t.amount > MAX_AMOUNT)
          throw new AppError('conflict', 'The amount is larger than the ledger can hold');
      }
      await db.transaction(async (tx) => {
        await lockCustomerRow(tx, found.customer_id);
        const row = await openDifference(tx, id);
        const at = clock();
        let credited = 0n;
        const deposits: string[] = [];
        for (const t of transfers) {
          const depositId = await recordInbound(
            tx,
            chains,
            row.environment,
            row.blockchain,
            t,
            at,
            config.screening,
          );
          if (depositId && (await creditDeposit(tx, chains, depositId, at))) {
            credited += t.amount;
            deposits.push(depositId);
          }
        }
        if (credited === 0n) throw new AppError('conflict', 'The transfer has been credited already');
        const ledger = BigInt(row.ledger) + credited;
        const closes = ledger === BigInt(row.on_chain);
        await setDifferenceLedger(tx, id, ledger.toString(), {
          status: closes ? 'RESOLVED' : 'OPEN',
          closedAt: closes ? at : null,
          resolvedBy: closes ? actorLabel(actor) : null,
          resolution: closes ? `Transfer ${hash} credited: ${resolution}` : null,
        });
        await recordAudit(tx, {
          actor,
          action: 'chain_balance_difference.deposit_credited',
          resourceType: 'chain_balance_difference',
          resourceId: id,
          before: figures(row),
          after: {
            ...figures(row),
            status: closes ? 'RESOLVED' : 'OPEN',
            ledger: ledger.toString(),
            transactionHash: hash,
            depositIds: deposits,
            amount: credited.toString(),
            resolution,
          },
          at,
        });
      });
      await refreshDifferenceGauge(db, chains);
    },

    async reverseDeposit(actor: Actor, id: string, depositId: string, note: string): Promise<void> {
      const resolution = checkNote(note);
      const head = await differenceCustomer(db, id);
      if (!head[0]) throw notFound('Balance difference');
      await db.transaction(async (tx) => {
        // the customer's row first, as every movement of their balance takes it
        await lockCustomerRow(tx, head[0]!.customer_id);
        const row = await openDifference(tx, id);
        const deposit = (await creditedDepositsTo(tx, row)).find((d) => d.id === depositId);
        if (!deposit) throw invalidField('/body/depositId', 'is not a credited deposit to this address');
        if (deposit.reversed) {
          throw new AppError('invalid_state_transition', 'This deposit has been reversed already');
        }
        const node = chains.get(row.environment, row.blockchain).node;
        if (!node || deposit.block_number === null) {
          throw new AppError('service_unavailable', 'The chain cannot be asked about this deposit now');
        }
        let canonical: string | null;
        try {
          canonical = await node.blockHash(BigInt(deposit.block_number));
        } catch (err) {
          deps.log.error(
            { err, differenceId: id, depositId },
            'chain node did not answer a deposit reversal',
          );
          throw new AppError('service_unavailable', 'The chain node did not answer; try again');
        }
        if (canonical?.toLowerCase() === deposit.block_hash.toLowerCase()) {
          throw new AppError(
            'conflict',
            'The deposit is still in the canonical chain; it cannot be reversed',
          );
        }
        const amount = BigInt(deposit.amount);
        const held = await walletBalance(
          tx,
          row.customer_id,
          row.blockchain,
          row.currency,
          chains.config.defaultChain,
        );
        if (held < amount) {
          throw new AppError(
            'insufficient_funds',
            'The customer’s wallet no longer holds the amount; accept the difference with a note instead',
          );
        }
        const at = clock();
        await postJournal(tx, {
          tenant: { projectId: row.project_id, environment: row.environment },
          kind: 'CHAIN_DEPOSIT_REVERSED',
          reference: deposit.id,
          transactionId: null,
          entries: chainDepositReversed(row.customer_id, row.currency, amount, row.blockchain),
          at,
        });
        const ledger = BigInt(row.ledger) - amount;
        const closes = ledger === BigInt(row.on_chain);
        await setDifferenceLedger(tx, id, ledger.toString(), {
          status: closes ? 'RESOLVED' : 'OPEN',
          closedAt: closes ? at : null,
          resolvedBy: closes ? actorLabel(actor) : null,
          resolution: closes ? `Deposit ${deposit.id} reversed: ${resolution}` : null,
        });
        await recordAudit(tx, {
          actor,
          action: 'chain_balance_difference.deposit_reversed',
          resourceType: 'chain_balance_difference',
          resourceId: id,
          before: figures(row),
          after: {
            ...figures(row),
            status: closes ? 'RESOLVED' : 'OPEN',
            ledger: ledger.toString(),
            depositId: deposit.id,
            transactionHash: deposit.transaction_hash,
            amount: amount.toString(),
            resolution,
          },
          at,
        });
      });
      await refreshDifferenceGauge(db, chains);
    },
  };
}
