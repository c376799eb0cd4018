/**
 * An EVM chain (Ethereum, Polygon, Base) through a node's JSON-RPC, with viem: ERC-20 `transfer`s signed
 * by the chain signer as EIP-1559 transactions, their receipts and confirmations, and the `Transfer`
 * logs that bring tokens to the watched addresses.
 */
import {
  type Address,
  BlockNotFoundError,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  keccak256,
  parseAbiItem,
  parseEventLogs,
  parseTransaction,
  TransactionReceiptNotFoundError,
} from 'viem';
import type { Stablecoin } from '../../core/currencies.ts';
import type {
  ChainNode,
  FeeMarket,
  InboundTransfer,
  SendRequest,
  SendStatus,
  SignedSend,
} from './adapter.ts';
import { SendRefused } from './adapter.ts';
import type { ChainSigner } from './keys.ts';
import type { NetworkConfig } from './networks.ts';

const TRANSFER_EVENT = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

export function evmNode(network: NetworkConfig & { rpcUrl: string }, signer: ChainSigner): ChainNode {
  const client = createPublicClient({ transport: http(network.rpcUrl, { retryCount: 1, timeout: 10_000 }) });
  const tokenOf = (currency: Stablecoin): Address => {
    const token = network.tokens[currency];
    if (!token) throw new SendRefused(`${currency} is not configured on this chain`);
    return getAddress(token);
  };
  const currencyByToken = new Map(
    Object.entries(network.tokens).map(([currency, token]) => [token.toLowerCase(), currency as Stablecoin]),
  );
  let chainId: number | undefined;

  type TransferLog = {
    address: string;
    removed?: boolean;
    transactionHash: Hex | null;
    blockHash: Hex | null;
    blockNumber: bigint | null;
    logIndex: number | null;
    args: { from?: Address; to?: Address; value?: bigint };
  };
  /** The logs that are Transfers of a configured token, as inbound transfers (anything else left out). */
  function transfersIn(logs: readonly TransferLog[]): InboundTransfer[] {
    const transfers: InboundTransfer[] = [];
    for (const log of logs) {
      const { from, to, value } = log.args;
      const currency = currencyByToken.get(log.address.toLowerCase());
      if (log.removed || !from || !to || value === undefined || value <= 0n || !currency) continue;
      if (!log.transactionHash || !log.blockHash || log.blockNumber === null || log.logIndex === null)
        continue;
      transfers.push({
        transactionHash: log.transactionHash,
        logIndex: log.logIndex,
        blockHash: log.blockHash,
        blockNumber: log.blockNumber,
        from: getAddress(from),
        to: getAddress(to),
        currency,
        amount: value,
      });
    }
    return transfers;
  }

  async function status(hash: string): Promise<SendStatus> {
    let receipt: Awaited<ReturnType<typeof client.getTransactionReceipt>>;
    try {
      receipt = await client.getTransactionReceipt({ hash: hash as Hex });
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return { state: 'UNKNOWN' };
      throw error;
    }
    const head = await client.getBlockNumber({ cacheTime: 0 });
    if (head - receipt.blockNumber + 1n < BigInt(network.confirmations)) return { state: 'PENDING' };
    if (receipt.status === 'reverted')
      return { state: 'FAILED', reason: 'The token transfer reverted on chain' };
    return { state: 'CONFIRMED' };
  }

  async function fees(): Promise<FeeMarket> {
    const [block, estimate] = await Promise.all([
      client.getBlock({ blockTag: 'latest' }),
      client.estimateFeesPerGas(),
    ]);
    return {
      baseFeePerGas: block.baseFeePerGas ?? 0n,
      maxFeePerGas: estimate.maxFeePerGas,
      maxPriorityFeePerGas: estimate.maxPriorityFeePerGas,
    };
  }

  return {
    async pendingNonce(address) {
      return client.getTransactionCount({ address: address as Address, blockTag: 'pending' });
    },
    async nonceAt(address, block) {
      return client.getTransactionCount({ address: address as Address, blockNumber: block });
    },
    async sign(request: SendRequest): Promise<SignedSend> {
      const account = signer.evmAccount(request.fromIndex);
      const token = tokenOf(request.currency);
      const data = encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [getAddress(request.to), request.amount],
      });
      chainId ??= await client.getChainId();
      let gas: bigint;
      try {
        gas = await client.estimateGas({ account: account.address, to: token, data });
      } catch (error) {
        throw new SendRefused(`The chain refuses the transfer: ${(error as Error).message.split('\n')[0]}`);
      }
      const offered = request.fees ?? (await client.estimateFeesPerGas());
      const signedFees = {
        maxFeePerGas: offered.maxFeePerGas,
        maxPriorityFeePerGas: offered.maxPriorityFeePerGas,
      };
      const raw = await account.signTransaction({
        chainId,
        type: 'eip1559',
        to: token,
        data,
        nonce: request.nonce,
        gas: (gas * 12n) / 10n,
        ...signedFees,
      });
      return { hash: keccak256(raw), raw, fees: signedFees };
    },
    feesOf(raw) {
      try {
        const parsed = parseTransaction(raw as Hex);
        if (parsed.maxFeePerGas === undefined || parsed.maxPriorityFeePerGas === undefined) return null;
        return { maxFeePerGas: parsed.maxFeePerGas, maxPriorityFeePerGas: parsed.maxPriorityFeePerGas };
      } catch {
        return null;
      }
    },
    async broadcast(raw) {
      try {
        await client.sendRawTransaction({ serializedTransaction: raw as Hex });
      } catch (error) {
        const message = (error as Error).message.toLowerCase();
        // the node has it already, or it has been mined: both are what a rebroadcast wants
        if (message.includes('already') || message.includes('nonce too low')) return;
        throw error;
      }
    },
    status,
    fees,
    head: () => client.getBlockNumber({ cacheTime: 0 }),
    async blockHash(number) {
      try {
        const block = await client.getBlock({ blockNumber: number });
        return block.hash;
      } catch (error) {
        if (error instanceof BlockNotFoundError) return null;
        throw error;
      }
    },
    async balanceAt(currency, address, block) {
      return client.readContract({
        address: tokenOf(currency),
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [getAddress(address)],
        blockNumber: block,
      });
    },
    async transfersOf(hash) {
      let receipt: Awaited<ReturnType<typeof client.getTransactionReceipt>>;
      try {
        receipt = await client.getTransactionReceipt({ hash: hash as Hex });
      } catch (error) {
        if (error instanceof TransactionReceiptNotFoundError) return [];
        throw error;
      }
      if (receipt.status !== 'success') return [];
      return transfersIn(parseEventLogs({ abi: [TRANSFER_EVENT], logs: receipt.logs, strict: false }));
    },
    async inbound(fromBlock, toBlock, addresses): Promise<InboundTransfer[]> {
      if (addresses.length === 0 || fromBlock > toBlock || currencyByToken.size === 0) return [];
      const logs = await client.getLogs({
        address: [...currencyByToken.keys()].map((token) => getAddress(token)),
        event: TRANSFER_EVENT,
        args: { to: addresses as Address[] },
        fromBlock,
        toBlock,
      });
      return transfersIn(logs);
    },
  };
}
