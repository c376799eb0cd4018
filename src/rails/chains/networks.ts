/**
 * The chain/token matrix: which blockchains Ponte serves, which stablecoins exist on each (ERC-20 or
 * TRC-20 contract addresses), how many confirmations make a transfer final and where a block explorer
 * shows it. Every part is configuration; the defaults are the public mainnet contracts.
 */
import { BLOCKCHAINS, type Blockchain, STABLECOINS, type Stablecoin } from '../../core/currencies.ts';

export type ChainFamily = 'EVM' | 'TRON';
export const FAMILY: Record<Blockchain, ChainFamily> = {
  ETHEREUM: 'EVM',
  POLYGON: 'EVM',
  BASE: 'EVM',
  TRON: 'TRON',
};

export type NetworkConfig = {
  /** JSON-RPC endpoint of a node (production). Unset: the chain is custodial-only (see README). */
  rpcUrl: string | undefined;
  /** Confirmations after which a transfer is final (the block holding it counts as one). */
  confirmations: number;
  /** Token contract per stablecoin; a stablecoin not listed does not exist on the chain. */
  tokens: Partial<Record<Stablecoin, string>>;
  /** Block explorer base (production); `{base}/tx/{hash}` and `{base}/address/{address}`. */
  explorerUrl: string;
  /** Block explorer base of the chain's test network, used in the sandbox. */
  sandboxExplorerUrl: string;
  /**
   * The most a send may offer per gas, in wei (`PONTE_CHAIN_<NAME>_MAX_FEE_GWEI`): a send stuck below the
   * chain's base fee is signed again with a higher fee up to this ceiling, never above it.
   */
  maxFeePerGas: bigint;
};

export type ChainsConfig = {
  /** The chain an on-ramp or transfer uses when none is named: the wallet marked `isDefault`. */
  defaultChain: Blockchain;
  /** How long a simulated (sandbox) transfer waits for its confirmations. */
  sandboxConfirmationMs: number;
  /** How often the deposit watcher and the sender look at the chains. */
  pollIntervalMs: number;
  networks: Record<Blockchain, NetworkConfig>;
};

export const DEFAULT_NETWORKS: Record<Blockchain, Omit<NetworkConfig, 'rpcUrl' | 'maxFeePerGas'>> = {
  ETHEREUM: {
    confirmations: 12,
    tokens: {
      USDC: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      USDT: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    },
    explorerUrl: 'https://etherscan.io',
    sandboxExplorerUrl: 'https://sepolia.etherscan.io',
  },
  POLYGON: {
    confirmations: 64,
    tokens: {
      USDC: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
      USDT: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
    },
    explorerUrl: 'https://polygonscan.com',
    sandboxExplorerUrl: 'https://amoy.polygonscan.com',
  },
  BASE: {
    confirmations: 10,
    tokens: { USDC: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
    explorerUrl: 'https://basescan.org',
    sandboxExplorerUrl: 'https://sepolia.basescan.org',
  },
  TRON: {
    confirmations: 19,
    tokens: {
      USDC: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8',
      USDT: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    },
    explorerUrl: 'https://tronscan.org/#',
    sandboxExplorerUrl: 'https://nile.tronscan.org/#',
  },
};

const GWEI = 1_000_000_000n;

/** The default fee ceiling per chain, in gwei: well above normal fees, below what a fee spike costs. */
export const DEFAULT_MAX_FEE_GWEI: Record<Blockchain, number> = {
  ETHEREUM: 1_000,
  POLYGON: 5_000,
  BASE: 100,
  TRON: 1_000,
};

/** Parses `USDC=0x...,USDT=0x...` (an empty value removes a token from the chain). */
export function parseTokens(text: string): Partial<Record<Stablecoin, string>> | string {
  const tokens: Partial<Record<Stablecoin, string>> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [symbol, address] = part.split('=').map((p) => p.trim());
    if (!STABLECOINS.includes(symbol as Stablecoin)) return `unknown stablecoin "${symbol}"`;
    if (address) tokens[symbol as Stablecoin] = address;
  }
  return tokens;
}

export function parseChainsConfig(
  env: NodeJS.ProcessEnv,
  whole: (name: string, fallback: number) => number,
  fail: (message: string) => never,
): ChainsConfig {
  const defaultChain = (env.PONTE_DEFAULT_CHAIN?.trim().toUpperCase() || 'ETHEREUM') as Blockchain;
  if (!BLOCKCHAINS.includes(defaultChain)) {
    fail(`PONTE_DEFAULT_CHAIN must be one of ${BLOCKCHAINS.join(', ')}, got "${env.PONTE_DEFAULT_CHAIN}"`);
  }
  const networks = {} as Record<Blockchain, NetworkConfig>;
  for (const chain of BLOCKCHAINS) {
    const defaults = DEFAULT_NETWORKS[chain];
    const rpcUrl = env[`PONTE_CHAIN_${chain}_RPC_URL`]?.trim() || undefined;
    if (rpcUrl && !/^(https?|wss?):\/\//.test(rpcUrl)) {
      fail(`PONTE_CHAIN_${chain}_RPC_URL must be an http(s) or ws(s) URL`);
    }
    if (rpcUrl && FAMILY[chain] === 'TRON') {
      fail('PONTE_CHAIN_TRON_RPC_URL is not supported: Tron transfers are simulated or custodial only');
    }
    const tokensText = env[`PONTE_CHAIN_${chain}_TOKENS`];
    const tokens = tokensText === undefined ? defaults.tokens : parseTokens(tokensText);
    if (typeof tokens === 'string') fail(`PONTE_CHAIN_${chain}_TOKENS: ${tokens}`);
    const confirmations = whole(`PONTE_CHAIN_${chain}_CONFIRMATIONS`, defaults.confirmations);
    if (confirmations < 1) fail(`PONTE_CHAIN_${chain}_CONFIRMATIONS must be at least 1`);
    const maxFeeGwei = whole(`PONTE_CHAIN_${chain}_MAX_FEE_GWEI`, DEFAULT_MAX_FEE_GWEI[chain]);
    if (maxFeeGwei < 1) fail(`PONTE_CHAIN_${chain}_MAX_FEE_GWEI must be at least 1`);
    networks[chain] = {
      rpcUrl,
      maxFeePerGas: BigInt(maxFeeGwei) * GWEI,
      confirmations,
      tokens: tokens as Partial<Record<Stablecoin, string>>,
      explorerUrl: env[`PONTE_CHAIN_${chain}_EXPLORER_URL`]?.trim() || defaults.explorerUrl,
      sandboxExplorerUrl: defaults.sandboxExplorerUrl,
    };
  }
  return {
    defaultChain,
    sandboxConfirmationMs: whole('PONTE_SANDBOX_CHAIN_CONFIRMATION_MS', 2_000),
    pollIntervalMs: Math.max(1, whole('PONTE_CHAIN_POLL_INTERVAL_MS', 2_000)),
    networks,
  };
}
