/**
 * The market reference: each pair's mid derived from the Chainlink feeds (BRL→USDC = BRL/USD ÷ USDC/USD,
 * USD→USDC = 1 ÷ USDC/USD),
 * each feed judged by the guards before it is used, PTAX beside it as the official anchor. The readings
 * are kept per process, refreshed on a schedule and in the background once older than the refresh
 * interval, so a quote never waits on the node (only the process's very first reading is waited for), and
 * no read holds a database connection.
 */
import type { Address } from 'viem';
import type { Pair } from '../../core/currencies.ts';
import { pow10 } from '../../core/decimal.ts';
import { chainlinkReader, type FeedReader, type FeedReading } from './chainlink.ts';
import type { Feed, ReferenceConfig } from './config.ts';
import { type PtaxBulletin, type PtaxClient, ptaxClient } from './ptax.ts';

/** Digits after the point of a rate, as pricing holds them (target units per source unit). */
export const RATE_SCALE = 10;

export type GuardLimits = { maxAgeS: number; maxJumpBps: number; maxDeviationBps: number };

/** A feed's usable rate, or why it is not used. */
export type FeedVerdict =
  | { usable: true; rate: bigint; at: Date; roundId: bigint }
  | { usable: false; reason: string; at: Date | null };

/** |a − b| ÷ b in basis points, rounded up (a deviation exactly at the bound is within it only if exact). */
export function bpsApart(a: bigint, b: bigint): bigint {
  const diff = a > b ? a - b : b - a;
  return (diff * 10_000n + b - 1n) / b;
}

/** USD per BRL as PTAX gives it (the mid of buying and selling BRL per USD, inverted), at the rate scale. */
export function ptaxUsdPerBrl(ptax: PtaxBulletin): bigint {
  return (pow10(RATE_SCALE) * pow10(RATE_SCALE) * 2n) / (ptax.buy + ptax.sell);
}

/**
 * The guards on one feed's reading: not positive, older than its maximum age, a jump from the previous
 * round beyond the maximum, and (BRL/USD, when PTAX is known) further than the maximum from PTAX.
 */
export function judgeFeed(
  feed: Feed,
  reading: FeedReading,
  limits: GuardLimits,
  now: Date,
  ptax: PtaxBulletin | null,
): FeedVerdict {
  const { latest, previous } = reading;
  const at = latest.updatedAt;
  if (latest.answer <= 0n) return { usable: false, reason: `${feed}: the answer is not positive`, at };
  const ageS = (now.getTime() - at.getTime()) / 1000;
  if (ageS > limits.maxAgeS) {
    return {
      usable: false,
      reason: `${feed}: updated ${Math.floor(ageS)} s ago, over ${limits.maxAgeS} s`,
      at,
    };
  }
  if (previous && previous.answer > 0n) {
    const jump = bpsApart(latest.answer, previous.answer);
    if (jump > BigInt(limits.maxJumpBps)) {
      return {
        usable: false,
        reason: `${feed}: moved ${jump} bps in one round, over ${limits.maxJumpBps}`,
        at,
      };
    }
  }
  if (feed === 'BRL/USD' && ptax) {
    const deviation = bpsApart(latest.answer, ptaxUsdPerBrl(ptax));
    if (deviation > BigInt(limits.maxDeviationBps)) {
      return {
        usable: false,
        reason: `${feed}: ${deviation} bps from PTAX (${ptax.date}), over ${limits.maxDeviationBps}`,
        at,
      };
    }
  }
  return { usable: true, rate: latest.answer, at, roundId: latest.roundId };
}

/** One leg of a pair: a feed's price in US dollars, or the dollar itself (1 USD per USD, no feed). */
type Leg = Feed | 'USD';

/**
 * The legs a pair's mid is derived from: target per source = source/USD ÷ target/USD. A pair with the
 * dollar on one side has one feed: USD→USDC is 1 ÷ USDC/USD, USDC→USD is USDC/USD.
 */
const LEGS: Record<Pair, [Leg, Leg]> = {
  'BRL/USDC': ['BRL/USD', 'USDC/USD'],
  'BRL/USDT': ['BRL/USD', 'USDT/USD'],
  'USDC/BRL': ['USDC/USD', 'BRL/USD'],
  'USDT/BRL': ['USDT/USD', 'BRL/USD'],
  'USD/USDC': ['USD', 'USDC/USD'],
  'USD/USDT': ['USD', 'USDT/USD'],
  'USDC/USD': ['USDC/USD', 'USD'],
  'USDT/USD': ['USDT/USD', 'USD'],
};

export type PairReference =
  | {
      usable: true;
      source: 'CHAINLINK';
      rate: bigint;
      /** The older of the two feeds' updates: the reference is as old as its oldest leg. */
      at: Date;
      /**
       * Basis points between this mid and the one PTAX implies (null while PTAX is unknown, and for a
       * pair without BRL: PTAX prices the real only).
       */
      deviationBps: bigint | null;
    }
  | { usable: false; reason: string; at: Date | null };

/** A leg's verdict: the dollar is always one dollar, as old as the other leg. */
function legVerdict(
  leg: Leg,
  verdicts: Partial<Record<Feed, FeedVerdict>>,
): FeedVerdict | { usable: true; rate: bigint; at: null } | undefined {
  return leg === 'USD' ? { usable: true, rate: pow10(RATE_SCALE), at: null } : verdicts[leg];
}

/** A pair's mid from its legs' verdicts (target units per source unit, rounded down). */
export function pairReference(
  pair: Pair,
  verdicts: Partial<Record<Feed, FeedVerdict>>,
  ptax: PtaxBulletin | null,
): PairReference {
  const [from, to] = LEGS[pair];
  const a = legVerdict(from, verdicts);
  const b = legVerdict(to, verdicts);
  if (!a) return { usable: false, reason: `${from}: no feed configured or read yet`, at: null };
  if (!b) return { usable: false, reason: `${to}: no feed configured or read yet`, at: null };
  if (!a.usable) return a;
  if (!b.usable) return b;
  const rate = (a.rate * pow10(RATE_SCALE)) / b.rate;
  // a pair has at least one feed, so at least one leg has an instant
  const at = [a.at, b.at].filter((t): t is Date => t !== null).reduce((x, y) => (x < y ? x : y));
  let deviationBps: bigint | null = null;
  const withBrl = from === 'BRL/USD' || to === 'BRL/USD';
  if (ptax && withBrl) {
    const usdPerBrl = ptaxUsdPerBrl(ptax);
    // the PTAX-implied mid takes the stablecoin at par with the dollar
    const implied = from === 'BRL/USD' ? usdPerBrl : (pow10(RATE_SCALE) * pow10(RATE_SCALE)) / usdPerBrl;
    deviationBps = bpsApart(rate, implied);
  }
  return { usable: true, source: 'CHAINLINK', rate, at, deviationBps };
}

export type ReferenceSnapshot = {
  readAt: Date | null;
  ptax: PtaxBulletin | null;
  feeds: Partial<Record<Feed, FeedVerdict>>;
};

export type ReferenceRates = {
  /**
   * The pair's reference from the readings in hand. The first call waits for the first reading; after
   * that, a reading older than the refresh interval starts a fresh one in the background and is answered
   * meanwhile, a leg older than its maximum age not used.
   */
  forPair(pair: Pair): Promise<PairReference>;
  /**
   * The pair's reference from the readings in hand, never touching the node (for work that runs inside a
   * database transaction): a leg that has grown older than its maximum age since it was read is not used.
   */
  inHand(pair: Pair): PairReference;
  /** The readings in hand, without touching the node. */
  snapshot(): ReferenceSnapshot;
  /** Reads every feed now (one read at a time per process: concurrent callers share it). */
  refresh(): Promise<ReferenceSnapshot>;
  /** Sets the PTAX bulletin the deviation guard compares against. */
  setPtax(bulletin: PtaxBulletin | null): void;
  /** Fetches the last business day's PTAX bulletin through the client given. */
  refreshPtax(): Promise<PtaxBulletin | null>;
  start(): void;
  stop(): void;
};

export function referenceRates(options: {
  config: Pick<ReferenceConfig, 'feeds' | 'maxAgeS' | 'maxDeviationBps' | 'maxJumpBps' | 'refreshS'>;
  reader: FeedReader;
  ptax?: PtaxClient;
  now?: () => Date;
  onPtax?: (bulletin: PtaxBulletin) => Promise<void>;
}): ReferenceRates {
  const { config, reader } = options;
  const now = options.now ?? (() => new Date());
  let state: ReferenceSnapshot = { readAt: null, ptax: null, feeds: {} };
  let inFlight: Promise<ReferenceSnapshot> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let ptaxTimer: NodeJS.Timeout | undefined;

  async function readAll(): Promise<ReferenceSnapshot> {
    const entries = Object.entries(config.feeds) as [Feed, Address][];
    const started = now();
    const readings = await Promise.all(
      entries.map(async ([feed, address]): Promise<[Feed, FeedReading | Error]> => {
        try {
          return [feed, await reader.read(address, RATE_SCALE)];
        } catch (error) {
          return [feed, error as Error];
        }
      }),
    );
    const feeds: Partial<Record<Feed, FeedVerdict>> = {};
    for (const [feed, reading] of readings) {
      feeds[feed] =
        reading instanceof Error
          ? { usable: false, reason: `${feed}: ${reading.message}`, at: null }
          : judgeFeed(
              feed,
              reading,
              {
                maxAgeS: config.maxAgeS[feed],
                maxJumpBps: config.maxJumpBps,
                maxDeviationBps: config.maxDeviationBps,
              },
              started,
              state.ptax,
            );
    }
    state = { ...state, readAt: started, feeds };
    return state;
  }

  function refresh(): Promise<ReferenceSnapshot> {
    inFlight ??= readAll().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  const isOld = () =>
    state.readAt === null || now().getTime() - state.readAt.getTime() >= config.refreshS * 1000;

  async function refreshPtax(): Promise<PtaxBulletin | null> {
    if (!options.ptax) return state.ptax;
    const bulletin = await options.ptax.latest(now(), RATE_SCALE);
    state = { ...state, ptax: bulletin };
    await options.onPtax?.(bulletin);
    return bulletin;
  }

  /** The verdicts in hand, a usable one turned down once its update is older than its feed's maximum age. */
  function agedVerdicts(): Partial<Record<Feed, FeedVerdict>> {
    const at = now();
    const feeds: Partial<Record<Feed, FeedVerdict>> = {};
    for (const [feed, verdict] of Object.entries(state.feeds) as [Feed, FeedVerdict][]) {
      const ageS = verdict.usable ? (at.getTime() - verdict.at.getTime()) / 1000 : 0;
      feeds[feed] =
        verdict.usable && ageS > config.maxAgeS[feed]
          ? {
              usable: false,
              reason: `${feed}: updated ${Math.floor(ageS)} s ago, over ${config.maxAgeS[feed]} s`,
              at: verdict.at,
            }
          : verdict;
    }
    return feeds;
  }

  return {
    async forPair(pair) {
      // only the very first reading is waited for; an old one is answered (each leg judged again for its
      // age) while a fresh read runs, so a quote never waits on the node, even a slow one
      if (state.readAt === null) await refresh();
      else if (isOld()) refresh().catch(() => undefined);
      return pairReference(pair, agedVerdicts(), state.ptax);
    },
    inHand: (pair) => pairReference(pair, agedVerdicts(), state.ptax),
    snapshot: () => state,
    refresh,
    setPtax(bulletin) {
      state = { ...state, ptax: bulletin };
    },
    refreshPtax,
    start() {
      const tick = () => {
        refresh().catch(() => undefined);
      };
      tick();
      timer = setInterval(tick, config.refreshS * 1000);
      timer.unref();
      if (options.ptax) {
        const ptaxTick = () => {
          refreshPtax().catch(() => undefined);
        };
        ptaxTick();
        ptaxTimer = setInterval(ptaxTick, 3600_000);
        ptaxTimer.unref();
      }
    },
    stop() {
      clearInterval(timer);
      clearInterval(ptaxTimer);
    },
  };
}

/**
 * The reference of each environment whose rates come from Chainlink (`source: chainlink`), reading the
 * node configured for its chain (`PONTE_CHAIN_<CHAIN>_RPC_URL`); null where the operator's rates are used.
 */
export function openReferences(
  configs: Record<'production' | 'sandbox', ReferenceConfig>,
  rpcUrlOf: (chain: ReferenceConfig['chain']) => string | undefined,
  onPtax?: (bulletin: PtaxBulletin) => Promise<void>,
): Record<'production' | 'sandbox', ReferenceRates | null> {
  const open = (config: ReferenceConfig): ReferenceRates | null => {
    if (config.source !== 'chainlink') return null;
    const rpcUrl = rpcUrlOf(config.chain);
    const reader: FeedReader = rpcUrl
      ? chainlinkReader(rpcUrl, { timeoutMs: config.timeoutMs })
      : { read: () => Promise.reject(new Error(`no node is configured for ${config.chain}`)) };
    const rates = referenceRates({
      config,
      reader,
      ptax: ptaxClient(config.ptaxUrl),
      ...(onPtax ? { onPtax } : {}),
    });
    rates.start();
    return rates;
  };
  return { production: open(configs.production), sandbox: open(configs.sandbox) };
}
