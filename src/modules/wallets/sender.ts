/**
 * Outbound stablecoin: on-ramp deliveries and transfers to external addresses leave from the chain's
 * treasury address (HD index 0).
 * - enqueue: in the caller's transaction. A simulated chain gives the send its hash at once; a node-backed
 *   chain queues it.
 * - signQueued: claims one sending address (its `chain_senders` row, FOR UPDATE SKIP LOCKED), signs its
 *   queued sends with consecutive nonces and stores the signed bytes, then commits and broadcasts. Only
 *   the holder of the row hands out that address's nonces, and a unique index refuses a repeated one.
 * - checkSubmitted: follows each submitted send to its confirmations (rebroadcasting the same bytes while
 *   the chain does not have it), then settles what it was for: the on-ramp or the transfer.
 */
import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import { type ChainAdapter, SendRefused, type SendStatus } from '../rails/chains/adapter.ts';
import { TREASURY_INDEX } from '../rails/chains/keys.ts';
import type { Blockchain, Stablecoin } from '../rails/chains/networks.ts';
import type { ChainRegistry } from '../rails/chains/registry.ts';
import { completeSend } from './send-outcome.ts';
import {
  claimSender,
  claimSubmitted,
  ensureSender,
  insertSend,
  lockSend,
  markSend,
  markSubmitted,
  queuedSendsOf,
  type SendPurpose,
  type SendRow,
  setNextNonce,
  touchSend,
} from './sends-repo.ts';

export type NewSend = {
  environment: Environment;
  blockchain: Blockchain;
  purpose: SendPurpose;
  transactionId: string;
  to: string;
  currency: Stablecoin;
  amount: bigint;
};

export async function enqueueSend(
  tx: Executor,
  adapter: ChainAdapter,
  send: NewSend,
  at: Date,
): Promise<SendRow> {
  const from = adapter.addressAt(TREASURY_INDEX);
  const simulated = adapter.mode === 'SIMULATED';
  const row: SendRow = {
    id: newId(),
    environment: send.environment,
    blockchain: send.blockchain,
    purpose: send.purpose,
    transaction_id: send.transactionId,
    from_address: from,
    signer_index: TREASURY_INDEX,
    to_address: send.to,
    currency: send.currency,
    amount: send.amount,
    status: simulated ? 'SUBMITTED' : 'QUEUED',
    nonce: null,
    transaction_hash: simulated ? adapter.simulatedHash() : null,
    raw_transaction: null,
    submitted_at: simulated ? at : null,
    failure_reason: null,
    created_at: at,
    updated_at: at,
  };
  if (!simulated) await ensureSender(tx, send.environment, send.blockchain, from);
  await insertSend(tx, row);
  return row;
}

type Deps = { db: Database; chains: ChainRegistry; clock: Clock };

/** Signs the queued sends of one sending address; returns how many it signed or refused. */
export async function signQueued(deps: Deps, batch = 20): Promise<number> {
  const { db, chains, clock } = deps;
  const signed: { raw: string; adapter: ChainAdapter }[] = [];
  const done = await db.transaction(async (tx) => {
    const sender = await claimSender(tx);
    if (!sender) return 0;
    const adapter = chains.get(sender.environment, sender.blockchain);
    const node = adapter.node;
    if (!node) return 0;
    let nonce = sender.next_nonce ?? BigInt(await node.pendingNonce(sender.address));
    const queued = await queuedSendsOf(tx, sender, batch);
    for (const send of queued) {
      const at = clock();
      try {
        const result = await node.sign({
          fromIndex: send.signer_index,
          to: send.to_address,
          currency: send.currency,
          amount: send.amount,
          nonce: Number(nonce),
        });
        await markSubmitted(tx, send.id, { nonce, hash: result.hash, raw: result.raw }, at);
        await completeSend(tx, chains, { ...send, transaction_hash: result.hash }, 'SUBMITTED', at);
        signed.push({ raw: result.raw, adapter });
        nonce += 1n;
      } catch (error) {
        if (!(error instanceof SendRefused)) throw error;
        await markSend(tx, send.id, 'FAILED', at, error.message);
        await completeSend(tx, chains, send, 'FAILED', at, error.message);
      }
    }
    await setNextNonce(tx, sender, nonce);
    return queued.length;
  });
  for (const { raw, adapter } of signed) {
    try {
      await adapter.node!.broadcast(raw);
    } catch {
      // the send is SUBMITTED with its signed bytes; checkSubmitted broadcasts them again
    }
  }
  return done;
}

async function statusOf(
  adapter: ChainAdapter,
  send: SendRow,
  now: Date,
  delayMs: number,
): Promise<SendStatus> {
  if (adapter.mode === 'SIMULATED') {
    return now.getTime() - send.submitted_at!.getTime() >= delayMs
      ? { state: 'CONFIRMED' }
      : { state: 'PENDING' };
  }
  const node = adapter.node!;
  const status = await node.status(send.transaction_hash!);
  if (status.state === 'PENDING' && send.raw_transaction) {
    try {
      await node.broadcast(send.raw_transaction);
    } catch {
      // the node is unreachable or refuses it for now: looked at again on the next pass
    }
  }
  return status;
}

async function settleSend(tx: Executor, deps: Deps, send: SendRow): Promise<boolean> {
  const adapter = deps.chains.get(send.environment, send.blockchain);
  const now = deps.clock();
  const status = await statusOf(adapter, send, now, deps.chains.config.sandboxConfirmationMs);
  if (status.state === 'PENDING') {
    await touchSend(tx, send.id, now);
    return false;
  }
  const reason = status.state === 'FAILED' ? status.reason : null;
  await markSend(tx, send.id, status.state, now, reason);
  await completeSend(tx, deps.chains, send, status.state, now, reason ?? undefined);
  return true;
}

/** Follows submitted sends; returns how many reached CONFIRMED or FAILED. */
export async function checkSubmitted(deps: Deps, batch = 20): Promise<number> {
  return deps.db.transaction(async (tx) => {
    let settled = 0;
    for (const send of await claimSubmitted(tx, batch)) {
      if (await settleSend(tx, deps, send)) settled++;
    }
    return settled;
  });
}

/** Carries one send as far as it goes now (the request that created it, so a quick chain answers at once). */
export async function progressSend(deps: Deps, id: string): Promise<void> {
  try {
    const send = await deps.db.query<{ status: string }>(`SELECT status FROM chain_sends WHERE id = $1`, [
      id,
    ]);
    if (send[0]?.status === 'QUEUED') await signQueued(deps);
    await deps.db.transaction(async (tx) => {
      const row = await lockSend(tx, id);
      if (row?.status === 'SUBMITTED') await settleSend(tx, deps, row);
    });
  } catch {
    // left to the workers
  }
}
