/**
 * Reading Chainlink AggregatorV3 price feeds through an EVM node (JSON-RPC, viem): a feed's latest round
 * and the round before it, its answer brought to the rate scale. Every read is bounded by a timeout; a
 * node that errors or does not answer in time rejects with `FeedUnreadable`.
 */
import { type Address, createPublicClient, getAddress, http, type PublicClient } from 'viem';
import { aggregatorV3Abi } from './aggregator-abi.ts';

export class FeedUnreadable extends Error {}

export type FeedRound = {
  roundId: bigint;
  /** The answer at `scale` digits after the point (negative or zero kept as read: a guard judges it). */
  answer: bigint;
  updatedAt: Date;
};

export type FeedReading = { latest: FeedRound; previous: FeedRound | null };

export type FeedReader = { read(feed: Address, scale: number): Promise<FeedReading> };

/** `answer` with `decimals` digits after the point, at `scale` digits (rounded toward zero). */
export function rescale(answer: bigint, decimals: number, scale: number): bigint {
  if (decimals === scale) return answer;
  return decimals < scale
    ? answer * 10n ** BigInt(scale - decimals)
    : answer / 10n ** BigInt(decimals - scale);
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new FeedUnreadable(`${what}: the node did not answer within ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

export function chainlinkReader(rpcUrl: string, options: { timeoutMs?: number } = {}): FeedReader {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const client: PublicClient = createPublicClient({
    transport: http(rpcUrl, { retryCount: 0, timeout: timeoutMs }),
  });
  const decimalsOf = new Map<string, number>();

  async function decimals(feed: Address): Promise<number> {
    const known = decimalsOf.get(feed);
    if (known !== undefined) return known;
    const read = Number(
      await client.readContract({ address: feed, abi: aggregatorV3Abi, functionName: 'decimals' }),
    );
    decimalsOf.set(feed, read);
    return read;
  }

  async function readOnce(feed: Address, scale: number): Promise<FeedReading> {
    const places = await decimals(feed);
    const [roundId, answer, , updatedAt] = await client.readContract({
      address: feed,
      abi: aggregatorV3Abi,
      functionName: 'latestRoundData',
    });
    const latest = {
      roundId,
      answer: rescale(answer, places, scale),
      updatedAt: new Date(Number(updatedAt) * 1000),
    };
    let previous: FeedRound | null = null;
    if (roundId > 1n) {
      // a feed whose previous round cannot be read (a new phase starts its rounds afresh) has no jump to judge
      previous = await client
        .readContract({
          address: feed,
          abi: aggregatorV3Abi,
          functionName: 'getRoundData',
          args: [roundId - 1n],
        })
        .then(
          ([id, prior, , at]) =>
            at > 0n
              ? { roundId: id, answer: rescale(prior, places, scale), updatedAt: new Date(Number(at) * 1000) }
              : null,
          () => null,
        );
    }
    return { latest, previous };
  }

  return {
    async read(feed, scale) {
      const address = getAddress(feed);
      try {
        return await withTimeout(readOnce(address, scale), timeoutMs, `feed ${address}`);
      } catch (error) {
        if (error instanceof FeedUnreadable) throw error;
        throw new FeedUnreadable(`feed ${address}: ${(error as Error).message.split('\n')[0]}`);
      }
    },
  };
}
