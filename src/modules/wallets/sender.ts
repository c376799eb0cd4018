/**
 * Outbound stablecoin: on-ramp deliveries and transfers to external addresses leave from the chain's
 * treasury address (HD index 0).
 * - enqueue: in the caller's transaction. A simulated chain gives the send its hash at once; a node-backed
 *   chain queues it.
 * - signQueued: claims one sending address (its `chain_senders` row, FOR UPDATE SKIP LOCKED), signs its
 *   queued sends with consecutive nonces and stores the signed bytes, then commits and broadcasts. Only
 *   the holder of the row hands out that address's nonces, and a unique index refuses a repeated one.
 *   A send whose customer is on compliance hold is held there, unsigned (send-holds.ts).
 * - checkSubmitted: follows each submitted send to its confirmations (rebroadcasting the same bytes while
 *   the chain does not have it, signing a replacement with a higher fee within the chain's ceiling while
 *   the base fee is above what it offers, failing it once another transaction took its nonce), then
 *   settles what it was for, once: the on-ramp or the transfer.
 */
import type { Clock } from '../../core/clock.ts';
import type { Blockchain, Stablecoin } from '../../core/currencies.ts';
import { newId } from '../../core/ids.ts';
import type { Logger } from '../../core/logger.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import {
  type ChainAdapter,
  type ChainNode,
  type FeeMarket,
  type SendFees,
  SendRefused,
  type SignedSend,
} from '../../rails/chains/adapter.ts';
import { TREASURY_INDEX } from '../../rails/chains/keys.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import type { ComposedOffers } from '../offers.ts';
import type { ChainTransactionRow } from './repo.ts';
import { sendsFreeToLeave } from './send-holds.ts';
import { completeSend } from './send-outcome.ts';
import {
  attemptHashes,
  claimSender,
  claimSubmitted,
  ensureSender,
  insertSend,
  lockSend,
  markReplaced,
  markSend,
  markSubmitted,
  queuedSendsOf,
  type SendPurpose,
  type SendRow,
  sendStatus,
  setNextNonce,
  setNonceTaken,
  setSendHash,
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

/** The chain send that carries a transfer to its external address: created, or released from a hold. */
export function enqueueTransferSend(
  tx: Executor,
  adapter: ChainAdapter,
  transfer: Pick<
    ChainTransactionRow,
    'id' | 'environment' | 'blockchain' | 'to_address' | 'currency' | 'amount'
  >,
  at: Date,
): Promise<SendRow> {
  const send: NewSend = {
    environment: transfer.environment,
    blockchain: transfer.blockchain,
    purpose: 'TRANSFER',
    transactionId: transfer.id,
    to: transfer.to_address!,
    currency: transfer.currency,
    amount: transfer.amount,
  };
  return enqueueSend(tx, adapter, send, at);
}

/** `offers.deliveries`: what an on-ramp's delivery does as its send moves on (the on-ramp offers it). */
type Deps = {
  db: Database;
  chains: ChainRegistry;
  clock: Clock;
  log: Logger;
  offers: Pick<ComposedOffers, 'deliveries'>;
};

/** Signed bytes to hand to a chain once the transaction that recorded them has committed. */
type Broadcast = { raw: string; adapter: ChainAdapter; sendId: string };

async function broadcastAll(broadcasts: Broadcast[], log: Logger): Promise<void> {
  for (const { raw, adapter, sendId } of broadcasts) {
    try {
      await adapter.node!.broadcast(raw);
    } catch (err) {
      // the send is SUBMITTED with its signed bytes; checkSubmitted broadcasts them again
      log.error({ err, sendId }, 'chain send not broadcast now; broadcast again when next checked');
    }
  }
}

const atMost = (value: bigint, ceiling: bigint) => (value > ceiling ? ceiling : value);
const larger = (a: bigint, b: bigint) => (a > b ? a : b);
/** What a node asks of a replacement with the same nonce: both fees 10% above the previous (12.5% here). */
const bumped = (fee: bigint) => fee + fee / 8n + 1n;

/** The fees a first signature offers: what the chain asks now, never above the chain's ceiling. */
export function firstFees(market: FeeMarket, ceiling: bigint): SendFees {
  const maxFeePerGas = atMost(market.maxFeePerGas, ceiling);
  return { maxFeePerGas, maxPriorityFeePerGas: atMost(market.maxPriorityFeePerGas, maxFeePerGas) };
}

/**
 * The fees of a replacement for a send the chain cannot include (its fee cap is below the base fee): what
 * the chain asks now and at least a node's replacement bump over the previous offer, within the ceiling.
 * Null when the ceiling leaves no room for a replacement a node would accept.
 */
export function replacementFees(previous: SendFees, market: FeeMarket, ceiling: bigint): SendFees | null {
  const maxFeePerGas = atMost(larger(market.maxFeePerGas, bumped(previous.maxFeePerGas)), ceiling);
  const maxPriorityFeePerGas = atMost(
    larger(market.maxPriorityFeePerGas, bumped(previous.maxPriorityFeePerGas)),
    maxFeePerGas,
  );
  if (maxFeePerGas < bumped(previous.maxFeePerGas)) return null;
  if (maxPriorityFeePerGas < bumped(previous.maxPriorityFeePerGas)) return null;
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** Signs the queued sends of one sending address; returns how many it signed, held or refused. */
export async function signQueued(deps: Deps, batch = 20): Promise<number> {
  const { db, chains, clock } = deps;
  const { deliveries } = deps.offers;
  const signed: Broadcast[] = [];
  const done = await db.transaction(async (tx) => {
    const sender = await claimSender(tx);
    if (!sender) return 0;
    const adapter = chains.get(sender.environment, sender.blockchain);
    const node = adapter.node;
    if (!node) return 0;
    let nonce = sender.next_nonce ?? BigInt(await node.pendingNonce(sender.address));
    const claimed = await queuedSendsOf(tx, sender, batch);
    if (claimed.length === 0) return 0;
    // the moment they leave: a held customer's send waits unsigned, a refused one fails here
    const queued = await sendsFreeToLeave(tx, chains, deliveries, claimed, clock());
    if (queued.length === 0) return claimed.length;
    const fees = firstFees(await node.fees(), chains.config.networks[sender.blockchain].maxFeePerGas);
    for (const send of queued) {
      const at = clock();
      try {
        const result = await node.sign({
          fromIndex: send.signer_index,
          to: send.to_address,
          currency: send.currency,
          amount: send.amount,
          nonce: Number(nonce),
          fees,
        });
        await markSubmitted(tx, send.id, { ...result, nonce }, at);
        await completeSend(
          tx,
          chains,
          deliveries,
          { ...send, transaction_hash: result.hash },
          'SUBMITTED',
          at,
        );
        signed.push({ raw: result.raw, adapter, sendId: send.id });
        nonce += 1n;
      } catch (error) {
        if (!(error instanceof SendRefused)) throw error;
        await markSend(tx, send.id, 'FAILED', at, error.message);
        await completeSend(tx, chains, deliveries, send, 'FAILED', at, error.message);
      }
    }
    await setNextNonce(tx, sender, nonce);
    return claimed.length;
  });
  await broadcastAll(signed, deps.log);
  return done;
}

/** Where a send stands, and what it needs now. */
type Look =
  | { state: 'PENDING' }
  | { state: 'CONFIRMED'; hash: string }
  | { state: 'FAILED'; hash: string | null; reason: string };

/**
 * A send of a node-backed chain. Every transaction signed for it (its nonce's first signature and any
 * replacement) is looked for: the one mined decides. None mined:
 * - its nonce already used at the final block by a transaction that is none of them, and still so a
 *   full confirmation window after it was first seen: the send can never be mined, FAILED (its hash
 *   named nothing on chain);
 * - its fee cap below the chain's base fee: signed again with the same nonce and higher fees within the
 *   ceiling, broadcast once this is committed;
 * - otherwise the same bytes are broadcast again.
 */
async function lookOnChain(
  tx: Executor,
  deps: Deps,
  adapter: ChainAdapter,
  send: SendRow,
  broadcasts: Broadcast[],
): Promise<Look> {
  const node = adapter.node!;
  const now = deps.clock();
  for (const hash of await attemptHashes(tx, send)) {
    const status = await node.status(hash);
    if (status.state === 'UNKNOWN') continue;
    if (hash !== send.transaction_hash) {
      await setSendHash(tx, send.id, hash);
      await completeSend(
        tx,
        deps.chains,
        deps.offers.deliveries,
        { ...send, transaction_hash: hash },
        'SUBMITTED',
        now,
      );
    }
    if (status.state === 'PENDING') return { state: 'PENDING' };
    if (status.state === 'CONFIRMED') return { state: 'CONFIRMED', hash };
    return { state: 'FAILED', hash, reason: status.reason };
  }
  const head = await node.head();
  const final = head - BigInt(adapter.confirmations) + 1n;
  const taken =
    send.nonce !== null && final >= 0n && BigInt(await node.nonceAt(send.from_address, final)) > send.nonce;
  if (taken) {
    // once more a full confirmation window later, so that one node answer missing a receipt fails nothing
    const since = send.nonce_taken_block == null ? null : BigInt(send.nonce_taken_block);
    if (since === null) await setNonceTaken(tx, send.id, final);
    else if (final - since >= BigInt(adapter.confirmations)) {
      return {
        state: 'FAILED',
        hash: null,
        reason: `another transaction from the sending address used its nonce ${send.nonce}; it was never mined`,
      };
    }
    return { state: 'PENDING' };
  }
  if (send.nonce_taken_block != null) await setNonceTaken(tx, send.id, null);
  // sends signed before their fees were recorded: read from their bytes
  const previous =
    send.max_fee_per_gas != null && send.max_priority_fee_per_gas != null
      ? {
          maxFeePerGas: BigInt(send.max_fee_per_gas),
          maxPriorityFeePerGas: BigInt(send.max_priority_fee_per_gas),
        }
      : send.raw_transaction
        ? node.feesOf(send.raw_transaction)
        : null;
  if (previous && send.nonce !== null) {
    const market = await node.fees();
    const ceiling = deps.chains.config.networks[send.blockchain].maxFeePerGas;
    const fees =
      market.baseFeePerGas > previous.maxFeePerGas ? replacementFees(previous, market, ceiling) : null;
    const replacement = fees ? await signReplacement(node, send, fees) : null;
    if (replacement) {
      await markReplaced(tx, send.id, replacement, now);
      await completeSend(
        tx,
        deps.chains,
        deps.offers.deliveries,
        { ...send, transaction_hash: replacement.hash },
        'SUBMITTED',
        now,
      );
      broadcasts.push({ raw: replacement.raw, adapter, sendId: send.id });
      return { state: 'PENDING' };
    }
  }
  if (send.raw_transaction) broadcasts.push({ raw: send.raw_transaction, adapter, sendId: send.id });
  return { state: 'PENDING' };
}

/** A replacement with the same nonce, or null when the chain refuses it now (the old one stands). */
async function signReplacement(node: ChainNode, send: SendRow, fees: SendFees): Promise<SignedSend | null> {
  try {
    return await node.sign({
      fromIndex: send.signer_index,
      to: send.to_address,
      currency: send.currency,
      amount: send.amount,
      nonce: Number(send.nonce),
      fees,
    });
  } catch (error) {
    if (error instanceof SendRefused) return null;
    throw error;
  }
}

async function lookAt(tx: Executor, deps: Deps, send: SendRow, broadcasts: Broadcast[]): Promise<Look> {
  const adapter = deps.chains.get(send.environment, send.blockchain);
  if (adapter.mode === 'SIMULATED') {
    const waited = deps.clock().getTime() - send.submitted_at!.getTime();
    return waited >= deps.chains.config.sandboxConfirmationMs
      ? { state: 'CONFIRMED', hash: send.transaction_hash! }
      : { state: 'PENDING' };
  }
  return lookOnChain(tx, deps, adapter, send, broadcasts);
}

async function settleSend(
  tx: Executor,
  deps: Deps,
  send: SendRow,
  broadcasts: Broadcast[],
): Promise<boolean> {
  const look = await lookAt(tx, deps, send, broadcasts);
  const now = deps.clock();
  if (look.state === 'PENDING') {
    await touchSend(tx, send.id, now);
    return false;
  }
  const reason = look.state === 'FAILED' ? look.reason : null;
  await markSend(tx, send.id, look.state, now, reason);
  await completeSend(
    tx,
    deps.chains,
    deps.offers.deliveries,
    { ...send, transaction_hash: look.hash },
    look.state,
    now,
    reason ?? undefined,
  );
  return true;
}

/** Follows submitted sends; returns how many reached CONFIRMED or FAILED. */
export async function checkSubmitted(deps: Deps, batch = 20): Promise<number> {
  const broadcasts: Broadcast[] = [];
  const settled = await deps.db.transaction(async (tx) => {
    broadcasts.length = 0;
    let count = 0;
    for (const send of await claimSubmitted(tx, batch)) {
      if (await settleSend(tx, deps, send, broadcasts)) count++;
    }
    return count;
  });
  await broadcastAll(broadcasts, deps.log);
  return settled;
}

/** Carries one send as far as it goes now (the request that created it, so a quick chain answers at once). */
export async function progressSend(deps: Deps, id: string): Promise<void> {
  try {
    const send = await sendStatus(deps.db, id);
    if (send[0]?.status === 'QUEUED') await signQueued(deps);
    const broadcasts: Broadcast[] = [];
    await deps.db.transaction(async (tx) => {
      broadcasts.length = 0;
      const row = await lockSend(tx, id);
      if (row?.status === 'SUBMITTED') await settleSend(tx, deps, row, broadcasts);
    });
    await broadcastAll(broadcasts, deps.log);
  } catch (err) {
    // left to the workers
    deps.log.error({ err, sendId: id }, 'chain send not carried on now; the workers carry it on');
  }
}
