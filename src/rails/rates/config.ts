/**
 * Where market rates come from (`PONTE_RATES_*`): the Chainlink feeds read through a chain's node, their
 * maximum ages, the guards' bounds and PTAX's address. Unset `PONTE_RATES_SOURCE`: the operator's rates.
 *
 * Default feeds: Chainlink's published mainnet proxies (data.chain.link feed pages;
 * docs.chain.link/data-feeds/price-feeds/addresses). BRL/USD has no Ethereum mainnet feed, so its default
 * is Polygon's; a deployment reading Ethereum sets `PONTE_RATES_FEEDS` for BRL/USD (or reads Polygon).
 * Every feed here has a 24 h heartbeat, so the default maximum age is 1.5 × 86400 s = 129600 s.
 */
import type { Address } from 'viem';
import { BLOCKCHAINS, type Blockchain, PAIRS, type Pair } from '../../core/currencies.ts';
import { DEFAULT_PTAX_URL } from './ptax.ts';

export const FEEDS = ['BRL/USD', 'USDC/USD', 'USDT/USD'] as const;
export type Feed = (typeof FEEDS)[number];

export const DEFAULT_FEEDS: Partial<Record<Blockchain, Partial<Record<Feed, Address>>>> = {
  ETHEREUM: {
    'USDC/USD': '0x8fFfFfd4AfB6115b954Bd326cbe7B4BA576818f6',
    'USDT/USD': '0x3E7d1eAB13ad0104d2750B8863b489D65364e32D',
  },
  POLYGON: {
    'BRL/USD': '0xB90DA3ff54C3ED09115abf6FbA0Ff4645586af2c',
    'USDC/USD': '0xfE4A8cc5b5B2366C1B58Bea3858e81843581b2F7',
    'USDT/USD': '0x0A6513e40db6EB1b165753AD52E80663aeA50545',
  },
};

const HEARTBEAT_S = 86_400;
export const DEFAULT_MAX_AGE_S = (HEARTBEAT_S * 3) / 2;

export type ReferenceConfig = {
  source: 'chainlink' | null;
  chain: Blockchain;
  feeds: Partial<Record<Feed, Address>>;
  maxAgeS: Record<Feed, number>;
  maxDeviationBps: number;
  maxJumpBps: number;
  maxOverrideBps: number;
  /** The operator's spread per pair, taken off the reference mid (0 where unset). */
  spreadBps: Partial<Record<Pair, number>>;
  ptaxUrl: string;
  /** How old a reading may be before a quote asks for a fresh one. */
  refreshS: number;
  /** How long a read of the node may take. */
  timeoutMs: number;
};

export class ReferenceConfigError extends Error {}

/** `A/B=value,C/D=value` into a map keyed by feed, refusing names that are not feeds. */
function perFeed(name: string, text: string | undefined): Partial<Record<Feed, string>> {
  const out: Partial<Record<Feed, string>> = {};
  for (const part of (text ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [feed, value] = part.split('=').map((p) => p.trim());
    if (!FEEDS.includes(feed as Feed) || !value) {
      throw new ReferenceConfigError(
        `${name}: "${part}" is not FEED=value with FEED one of ${FEEDS.join(', ')}`,
      );
    }
    out[feed as Feed] = value;
  }
  return out;
}

function whole(name: string, text: string | undefined, fallback: number, max = 1_000_000_000): number {
  if (text === undefined || text.trim() === '') return fallback;
  if (!/^\d{1,10}$/.test(text.trim()) || Number(text) > max) {
    throw new ReferenceConfigError(`${name} must be a whole number up to ${max}`);
  }
  return Number(text);
}

/** `BRL/USDC=50,USDC/BRL=40`: basis points per pair, each under 10000. */
function spreads(name: string, text: string | undefined): Partial<Record<Pair, number>> {
  const out: Partial<Record<Pair, number>> = {};
  for (const part of (text ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [pair, value] = part.split('=').map((p) => p.trim());
    if (!PAIRS.includes(pair as Pair) || !value) {
      throw new ReferenceConfigError(
        `${name}: "${part}" is not PAIR=bps with PAIR one of ${PAIRS.join(', ')}`,
      );
    }
    out[pair as Pair] = whole(`${name} (${pair})`, value, 0, 9_999);
  }
  return out;
}

export function loadReferenceConfig(env: NodeJS.ProcessEnv, prefix = 'PONTE_RATES_'): ReferenceConfig {
  const source = env[`${prefix}SOURCE`]?.trim() || null;
  if (source !== null && source !== 'chainlink') {
    throw new ReferenceConfigError(`${prefix}SOURCE must be chainlink (or unset for the operator's rates)`);
  }
  const chain = (env[`${prefix}CHAIN`]?.trim() || 'ETHEREUM') as Blockchain;
  if (!BLOCKCHAINS.includes(chain) || chain === 'TRON') {
    throw new ReferenceConfigError(`${prefix}CHAIN must be an EVM chain: ETHEREUM, POLYGON or BASE`);
  }
  const feeds: Partial<Record<Feed, Address>> = { ...DEFAULT_FEEDS[chain] };
  for (const [feed, address] of Object.entries(perFeed(`${prefix}FEEDS`, env[`${prefix}FEEDS`]))) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) {
      throw new ReferenceConfigError(`${prefix}FEEDS: ${feed} must be a 0x address of 40 hex digits`);
    }
    feeds[feed as Feed] = address as Address;
  }
  const ages = perFeed(`${prefix}MAX_AGE_S`, env[`${prefix}MAX_AGE_S`]);
  const maxAgeS = Object.fromEntries(
    FEEDS.map((feed) => [feed, whole(`${prefix}MAX_AGE_S (${feed})`, ages[feed], DEFAULT_MAX_AGE_S)]),
  ) as Record<Feed, number>;
  return {
    source,
    chain,
    feeds,
    maxAgeS,
    maxDeviationBps: whole(`${prefix}MAX_DEVIATION_BPS`, env[`${prefix}MAX_DEVIATION_BPS`], 300, 10_000),
    maxJumpBps: whole(`${prefix}MAX_JUMP_BPS`, env[`${prefix}MAX_JUMP_BPS`], 1_000, 10_000),
    maxOverrideBps: whole(`${prefix}MAX_OVERRIDE_BPS`, env[`${prefix}MAX_OVERRIDE_BPS`], 200, 10_000),
    spreadBps: spreads(`${prefix}SPREAD_BPS`, env[`${prefix}SPREAD_BPS`]),
    ptaxUrl: env[`${prefix}PTAX_URL`]?.trim() || DEFAULT_PTAX_URL,
    refreshS: whole(`${prefix}REFRESH_S`, env[`${prefix}REFRESH_S`], 60, 86_400),
    timeoutMs: whole(`${prefix}TIMEOUT_MS`, env[`${prefix}TIMEOUT_MS`], 5_000, 120_000),
  };
}
