/**
 * Stablecoin transfers (`POST /transactions/transfer`). The sender's wallet on the chosen chain must hold
 * the amount: checked under the sender's customer row lock, so concurrent transfers on any number of
 * processes are decided one after the other against the ledger. To another customer of the project (by
 * id, or by one of their addresses) the balance moves at once; to an external address the amount leaves
 * the wallet now and is sent on chain, SUCCESS after its confirmations or FAILED with the amount back.
 */

import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Blockchain, Stablecoin } from '../../core/currencies.ts';
import { formatDecimal, parseDecimal } from '../../core/decimal.ts';
import { AppError, invalidField } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Logger } from '../../core/logger.ts';
import { formatAmount } from '../../core/money.ts';
import { withAnswer } from '../../db/commit-hooks.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { ChainAdapter } from '../../rails/chains/adapter.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { approvedForMovements, findCustomer, lockCustomers } from '../customers/service.ts';
import { chainSend, walletTransfer } from '../ledger/postings.ts';
import { postJournal } from '../ledger/service.ts';
import type { ComposedOffers } from '../offers.ts';
import {
  holdTransaction,
  matchesFor,
  refuseHeld,
  refuseSanctionedDestination,
} from '../screening/service.ts';
import {
  checkTravelRule,
  outboundIvms,
  TRAVEL_RULE_WINDOW_MS,
  type TransferTravelRule,
  travelRuleWindow,
} from '../screening/travel-rule.ts';
import { createChainTransaction, moveChainTransaction } from './events.ts';
import { presentChainTransaction } from './presenter.ts';
import {
  type ChainTransactionRow,
  findChainTransaction,
  setChainTransactionHash,
  transfersToAddressSince,
  walletBalance,
  walletByAddress,
  walletsOf,
} from './repo.ts';
import { enqueueTransferSend, progressSend } from './sender.ts';
import { ensureWallets } from './service.ts';

export type TransferInput = {
  currency: Stablecoin;
  from: string;
  to: string;
  amount: string;
  blockchain?: Blockchain | undefined;
  metadata?: Record<string, unknown> | undefined;
  travelRule?: TransferTravelRule | undefined;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SCALE = 6;
/** Largest amount of one movement, in millionths: what a bigint column holds. */
export const MAX_STABLECOIN_UNITS = 9_223_372_036_854_775_807n;

/** What creating a transfer needs, handed in by the module's wiring. */
export type TransferDeps = {
  db: Database;
  clock: Clock;
  log: Logger;
  chains: ChainRegistry;
  config: Pick<Config, 'screening'>;
  /** What a send carrying an on-ramp's delivery does (a transfer's own send never calls it). */
  offers: Pick<ComposedOffers, 'deliveries'>;
};

/** Who receives: another customer of the project (by id or by one of their addresses), or an address. */
type Destination = { recipientId: string | null; address: string | null };

/** The request checked against the chain it names: its amount, currency and destination's shape. */
function validateTransfer(chains: ChainRegistry, tenant: Tenant, input: TransferInput) {
  const blockchain = input.blockchain ?? chains.config.defaultChain;
  const adapter = chains.get(tenant.environment, blockchain);
  const amount = parseDecimal(input.amount, SCALE);
  if (amount <= 0n) throw invalidField('/body/amount', 'must be greater than zero');
  if (amount > MAX_STABLECOIN_UNITS) {
    throw invalidField('/body/amount', `must be at most ${formatDecimal(MAX_STABLECOIN_UNITS, SCALE)}`);
  }
  if (!adapter.supports(input.currency)) {
    throw invalidField('/body/currency', `${input.currency} is not available on ${blockchain}`);
  }
  const toCustomer = UUID.test(input.to);
  if (!toCustomer) {
    const problem = adapter.addressProblem(input.to);
    if (problem) {
      throw invalidField('/body/to', `${problem}; it must be a customer id or an address on ${blockchain}`);
    }
  }
  return { blockchain, adapter, amount, toCustomer };
}

/** Who receives, found before any lock: an id given, or the owner of a project wallet's address. */
async function findDestination(
  tx: Executor,
  tenant: Tenant,
  adapter: ChainAdapter,
  blockchain: Blockchain,
  to: string,
  toCustomer: boolean,
): Promise<Destination> {
  if (toCustomer) return { recipientId: to.toLowerCase(), address: null };
  const owned = await walletByAddress(tx, tenant.environment, blockchain, to);
  if (owned && owned.project_id === tenant.projectId)
    return { recipientId: owned.customer_id, address: null };
  return { recipientId: null, address: adapter.normalize(to) };
}

/**
 * Both customers locked in one statement, in id order: transfers A→B and B→A on any number of processes
 * wait on each other in turn, never in a cycle. The sender must be approved for movements, the recipient
 * APPROVED, neither on compliance hold.
 */
async function lockParties(tx: Executor, tenant: Tenant, from: string, recipientId: string | null) {
  const ids = recipientId === null || recipientId === from ? [from] : [from, recipientId];
  const locked = await lockCustomers(
    tx,
    ids.map((id) => ({ tenant, id })),
  );
  const sender = approvedForMovements(
    locked.find((c) => c.id === from),
    'transfers',
  );
  if (recipientId !== null && recipientId !== sender.id) {
    const recipient = locked.find((c) => c.id === recipientId);
    if (!recipient) throw new AppError('not_found', 'The receiving customer was not found');
    if (recipient.verification_status !== 'APPROVED') {
      throw new AppError('customer_not_approved', 'The receiving customer is not APPROVED');
    }
  }
  if (recipientId === sender.id) throw invalidField('/body/to', 'must be another customer than `from`');
  // a customer on compliance hold neither sends nor receives
  await refuseHeld(tx, ids);
  return sender;
}

/** 422 `insufficient_funds` unless the sender's wallet on the chain holds the amount (under its lock). */
async function refuseShortBalance(
  tx: Executor,
  chains: ChainRegistry,
  customerId: string,
  blockchain: Blockchain,
  input: TransferInput,
  amount: bigint,
) {
  const balance = await walletBalance(tx, customerId, blockchain, input.currency, chains.config.defaultChain);
  if (balance >= amount) return;
  throw new AppError(
    'insufficient_funds',
    `The ${blockchain} wallet holds ${formatDecimal(balance, SCALE)} ${input.currency}, ` +
      `less than ${formatDecimal(amount, SCALE)}`,
    { extra: { available: formatDecimal(balance, SCALE) } },
  );
}

type Checked = Awaited<ReturnType<typeof externalChecks>>;

/**
 * What a transfer to an external address must pass: Travel Rule data once the customer's transfers to
 * that address over the last 24 h (this one included) reach the threshold (400 without it), a
 * destination on no list in force (422 `sanctioned_address`), and the beneficiary's name screened (its
 * possible matches hold the transfer). Called under the sender's row lock, the lock every transfer of
 * the customer takes first: two concurrent transfers, on any process, are added up one after the other.
 */
async function externalChecks(
  tx: Executor,
  config: TransferDeps['config'],
  customerId: string,
  address: string,
  amount: bigint,
  rule: TransferTravelRule | undefined,
  now: Date,
) {
  const threshold = config.screening.travelRuleThreshold;
  const since = new Date(now.getTime() - TRAVEL_RULE_WINDOW_MS);
  const earlier = await transfersToAddressSince(tx, customerId, address, since);
  const window = travelRuleWindow(earlier, amount, threshold);
  if (rule) checkTravelRule(rule, '/body/travelRule');
  else if (window.required) {
    throw invalidField(
      '/body/travelRule',
      earlier.length === 0
        ? `is required for a transfer to an external address worth ${formatAmount(threshold)} USD or more`
        : `is required: with the ${earlier.length} earlier transfer(s) to this address in the last 24 hours, ` +
            `transfers to it come to ${formatDecimal(window.total, SCALE)} USD, at or above the Travel Rule ` +
            `threshold of ${formatAmount(threshold)} USD`,
    );
  }
  await refuseSanctionedDestination(tx, address);
  const beneficiary = rule?.beneficiary;
  const matches = beneficiary
    ? await matchesFor(
        tx,
        {
          name: beneficiary.name,
          kind: beneficiary.type ?? 'UNKNOWN',
          birthDate: beneficiary.birthDate,
          country: beneficiary.country,
        },
        config.screening.threshold,
      )
    : [];
  // a sum split into transfers each below the threshold: the run, as the compliance case shows it
  const split = window.split
    ? {
        windowHours: TRAVEL_RULE_WINDOW_MS / 3_600_000,
        threshold: formatAmount(threshold),
        total: formatDecimal(window.total, SCALE),
        transfers: earlier.map((t) => ({
          id: t.id,
          amount: formatDecimal(BigInt(t.amount), SCALE),
          at: t.at.toISOString(),
        })),
      }
    : null;
  return { rule, matches, split };
}

/** The sender's wallet address on the chain: the originator's account in the Travel Rule record. */
async function senderAddress(tx: Executor, customerId: string, blockchain: Blockchain) {
  const wallet = (await walletsOf(tx, customerId)).find((w) => w.blockchain === blockchain);
  if (!wallet) throw new Error(`customer ${customerId} has no ${blockchain} wallet`);
  return wallet.address;
}

/** The transfer's row as it is created: PROCESSING, with its Travel Rule record when one was given. */
async function transferRow(
  tx: Executor,
  deps: TransferDeps,
  tenant: Tenant,
  sender: Awaited<ReturnType<typeof lockParties>>,
  input: TransferInput,
  moving: { blockchain: Blockchain; amount: bigint; destination: Destination; travel: Checked | null },
  now: Date,
): Promise<ChainTransactionRow> {
  const { blockchain, amount, destination, travel } = moving;
  const { address } = destination;
  const travelRule =
    travel?.rule && address !== null
      ? outboundIvms(
          { ...sender, address: await senderAddress(tx, sender.id, blockchain), taxId: sender.tax_id },
          address,
          travel.rule,
          deps.config.screening.vaspName,
        )
      : null;
  return {
    id: newId(),
    customer_id: sender.id,
    project_id: tenant.projectId,
    environment: tenant.environment,
    type: 'TRANSFER',
    status: 'PROCESSING',
    currency: input.currency,
    amount,
    blockchain,
    to_customer_id: destination.recipientId,
    from_address: null,
    to_address: address,
    transaction_hash: null,
    failure_reason: null,
    metadata: input.metadata ?? null,
    timeline: [{ status: 'PROCESSING', at: now.toISOString() }],
    created_at: now,
    updated_at: now,
    travel_rule: travelRule,
  };
}

/** To another customer of the project: the balance moves between the two wallets at once, SUCCESS. */
async function settleBetweenCustomers(
  tx: Executor,
  chains: ChainRegistry,
  tenant: Tenant,
  row: ChainTransactionRow,
  recipientId: string,
  now: Date,
) {
  const recipient = await findCustomer(tx, tenant, recipientId);
  await ensureWallets(tx, chains, recipient!, now);
  await postJournal(tx, {
    tenant,
    kind: 'WALLET_TRANSFER',
    reference: row.id,
    transactionId: null,
    entries: walletTransfer(row.customer_id, recipientId, row.currency, row.amount, row.blockchain),
    at: now,
  });
  const moved = await moveChainTransaction(tx, chains, row, 'SUCCESS', now);
  return withAnswer({ row: moved, send: null }, presentChainTransaction(chains, moved));
}

/**
 * A beneficiary who may be listed, or a sum split under the Travel Rule threshold: the amount stays
 * reserved, nothing is sent until an operator decides.
 */
async function holdForReview(
  tx: Executor,
  tenant: Tenant,
  row: ChainTransactionRow,
  travel: Checked,
  now: Date,
) {
  const split = travel.split && {
    ...travel.split,
    transfers: [
      ...travel.split.transfers,
      { id: row.id, amount: formatDecimal(row.amount, SCALE), at: now.toISOString() },
    ],
  };
  await holdTransaction(
    tx,
    {
      id: row.id,
      customerId: row.customer_id,
      projectId: tenant.projectId,
      environment: tenant.environment,
      type: 'TRANSFER',
    },
    {
      reason: travel.matches.length ? 'NAME_MATCH' : 'STRUCTURING',
      screened: { name: travel.rule?.beneficiary.name ?? null, address: row.to_address, ...split },
      matches: travel.matches,
    },
    now,
  );
}

/**
 * To an external address: the amount leaves the wallet now (reserved on the ledger), then is held for
 * review or queued to be sent on chain; the answer is as of the commit, the send may move on after it.
 */
async function reserveAndSend(
  tx: Executor,
  chains: ChainRegistry,
  adapter: ChainAdapter,
  tenant: Tenant,
  row: ChainTransactionRow,
  travel: Checked | null,
  now: Date,
) {
  await postJournal(tx, {
    tenant,
    kind: 'CHAIN_SEND',
    reference: row.id,
    transactionId: null,
    entries: chainSend(row.customer_id, row.currency, row.amount, row.blockchain),
    at: now,
  });
  if (travel?.matches.length || travel?.split) {
    await holdForReview(tx, tenant, row, travel, now);
    return withAnswer({ row, send: null }, presentChainTransaction(chains, row));
  }
  const send = await enqueueTransferSend(tx, adapter, row, now);
  if (send.transaction_hash) await setChainTransactionHash(tx, row.id, send.transaction_hash);
  const hash = send.transaction_hash ?? row.transaction_hash;
  return withAnswer(
    { row, send: send.id },
    presentChainTransaction(chains, { ...row, transaction_hash: hash }),
  );
}

/**
 * Creates a transfer (`POST /transactions/transfer`): decided under the sender's lock against the ledger,
 * settled at once between customers, reserved and sent on chain to an external address.
 */
export async function createTransfer(deps: TransferDeps, tenant: Tenant, input: TransferInput) {
  const { db, clock, chains } = deps;
  const { blockchain, adapter, amount, toCustomer } = validateTransfer(chains, tenant, input);
  const result = await db.transaction(async (tx) => {
    const destination = await findDestination(tx, tenant, adapter, blockchain, input.to, toCustomer);
    const sender = await lockParties(tx, tenant, input.from.toLowerCase(), destination.recipientId);
    const now = clock();
    await ensureWallets(tx, chains, sender, now);
    const { address, recipientId } = destination;
    const travel =
      address === null
        ? null
        : await externalChecks(tx, deps.config, sender.id, address, amount, input.travelRule, now);
    if (address !== null && adapter.mode === 'CUSTODIAL') {
      throw new AppError(
        'service_unavailable',
        `Transfers to external ${blockchain} addresses are not available: no ${blockchain} node is configured`,
      );
    }
    await refuseShortBalance(tx, chains, sender.id, blockchain, input, amount);
    const moving = { blockchain, amount, destination, travel };
    const row = await transferRow(tx, deps, tenant, sender, input, moving, now);
    await createChainTransaction(tx, chains, row);
    if (recipientId !== null) return settleBetweenCustomers(tx, chains, tenant, row, recipientId, now);
    return reserveAndSend(tx, chains, adapter, tenant, row, travel, now);
  });
  if (result.send) await progressSend(deps, result.send);
  const row = await findChainTransaction(db, tenant, result.row.id);
  return presentChainTransaction(chains, row!);
}

/** The transfer service the wallets' routes use. */
export function createTransferService(deps: TransferDeps) {
  return { create: (tenant: Tenant, input: TransferInput) => createTransfer(deps, tenant, input) };
}
