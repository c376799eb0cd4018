/**
 * The one interface the transaction modules use to reach a blockchain. Every chain answers what an
 * address of it looks like and where an explorer shows a transfer; a chain reached through a node also
 * signs, broadcasts, follows confirmations and reports inbound token transfers.
 *
 * Modes: NODE (production with `PONTE_CHAIN_<NAME>_RPC_URL`): real transfers; SIMULATED (every chain in
 * the sandbox): chain-shaped hashes, confirmed after a short delay; CUSTODIAL (production without a
 * node): balances move in the ledger only, and nothing can leave for an external address.
 */
import { randomBytes } from 'node:crypto';
import { getAddress, isAddress } from 'viem';
import type { Blockchain, Stablecoin } from '../../core/currencies.ts';
import type { Environment } from '../../lib/environment.ts';
import type { ChainSigner } from './keys.ts';
import { FAMILY, type NetworkConfig } from './networks.ts';
import { tronAddressProblem } from './tron-address.ts';

export type ChainMode = 'NODE' | 'SIMULATED' | 'CUSTODIAL';

/** EIP-1559 fees of a signed transaction, in wei per gas. */
export type SendFees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

export type SendRequest = {
  fromIndex: number;
  to: string;
  currency: Stablecoin;
  amount: bigint;
  nonce: number;
  /** The fees to sign with (a replacement); absent: the node's current estimate. */
  fees?: SendFees;
};

/** A signed transaction: its hash, its bytes and the fees it offers. */
export type SignedSend = { hash: string; raw: string; fees: SendFees };

/**
 * Where one signed transaction stands: UNKNOWN (no receipt: not mined, or dropped), PENDING (mined,
 * its confirmations not reached), CONFIRMED, or FAILED (it reverted, with its confirmations).
 */
export type SendStatus =
  | { state: 'UNKNOWN' }
  | { state: 'PENDING' }
  | { state: 'CONFIRMED' }
  | { state: 'FAILED'; reason: string };

/** What the chain asks now: the latest block's base fee and the fees a new transaction should offer. */
export type FeeMarket = SendFees & { baseFeePerGas: bigint };

/** A token transfer into one of the watched addresses, as one log of one block. */
export type InboundTransfer = {
  transactionHash: string;
  logIndex: number;
  blockHash: string;
  blockNumber: bigint;
  from: string;
  to: string;
  currency: Stablecoin;
  amount: bigint;
};

/** A send the chain refused before it was broadcast (it would revert, the treasury lacks the token). */
export class SendRefused extends Error {}

/** What a node-backed chain does; the EVM adapter implements it over JSON-RPC. */
export interface ChainNode {
  pendingNonce(address: string): Promise<number>;
  /** How many transactions of `address` are in the chain up to block `block` (its next nonce there). */
  nonceAt(address: string, block: bigint): Promise<number>;
  sign(request: SendRequest): Promise<SignedSend>;
  /** The fees signed bytes offer (null: not a transaction of this chain's kind). */
  feesOf(raw: string): SendFees | null;
  /** Sends signed bytes; sending the same bytes again is harmless. */
  broadcast(raw: string): Promise<void>;
  status(hash: string): Promise<SendStatus>;
  fees(): Promise<FeeMarket>;
  head(): Promise<bigint>;
  /** The hash of the canonical block at `number`, or null when the chain is not that long (yet). */
  blockHash(number: bigint): Promise<string | null>;
  /** A token balance of `address` as of block `block`. */
  balanceAt(currency: Stablecoin, address: string, block: bigint): Promise<bigint>;
  inbound(fromBlock: bigint, toBlock: bigint, addresses: string[]): Promise<InboundTransfer[]>;
  /** The token transfers a mined transaction made (none: not mined, or it reverted). */
  transfersOf(hash: string): Promise<InboundTransfer[]>;
}

export type ChainAdapter = {
  blockchain: Blockchain;
  environment: Environment;
  mode: ChainMode;
  confirmations: number;
  node: ChainNode | null;
  currencies: Stablecoin[];
  supports(currency: Stablecoin): boolean;
  /** Why `text` is not an address of this chain, or null. */
  addressProblem(text: string): string | null;
  /** The address as Ponte stores and shows it (EIP-55 checksummed for EVM chains). */
  normalize(address: string): string;
  transactionUrl(hash: string): string;
  addressUrl(address: string): string;
  /** A hash shaped like this chain's, for simulated transfers. */
  simulatedHash(): string;
  /** The address of an HD index on this chain. */
  addressAt(index: number): string;
};

function evmAddressProblem(text: string): string | null {
  if (!/^0x[0-9a-fA-F]{40}$/.test(text))
    return 'must be an EVM address: 0x followed by 40 hexadecimal digits';
  if (!isAddress(text, { strict: true })) return 'has a bad EIP-55 checksum (check its upper and lower case)';
  return null;
}

export function chainAdapter(options: {
  blockchain: Blockchain;
  environment: Environment;
  network: NetworkConfig;
  signer: ChainSigner;
  node: ChainNode | null;
}): ChainAdapter {
  const { blockchain, environment, network, signer, node } = options;
  const family = FAMILY[blockchain];
  const explorer = environment === 'sandbox' ? network.sandboxExplorerUrl : network.explorerUrl;
  const mode: ChainMode = environment === 'sandbox' ? 'SIMULATED' : node ? 'NODE' : 'CUSTODIAL';
  const currencies = (Object.keys(network.tokens) as Stablecoin[]).sort();
  return {
    blockchain,
    environment,
    mode,
    confirmations: network.confirmations,
    node: mode === 'NODE' ? node : null,
    currencies,
    supports: (currency) => currencies.includes(currency),
    addressProblem: (text) => (family === 'EVM' ? evmAddressProblem(text) : tronAddressProblem(text)),
    normalize: (address) => (family === 'EVM' ? getAddress(address) : address),
    transactionUrl: (hash) => `${explorer}/${family === 'EVM' ? 'tx' : 'transaction'}/${hash}`,
    addressUrl: (address) => `${explorer}/address/${address}`,
    simulatedHash: () => `${family === 'EVM' ? '0x' : ''}${randomBytes(32).toString('hex')}`,
    addressAt: (index) => signer.address(family, index),
  };
}
