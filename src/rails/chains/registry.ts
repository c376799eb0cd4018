/** Every chain adapter of a process, per environment, built once at start from configuration. */

import { BLOCKCHAINS, type Blockchain } from '../../core/currencies.ts';
import type { Database } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import { type ChainAdapter, chainAdapter } from './adapter.ts';
import { evmNode } from './evm-node.ts';
import { type ChainSigner, hdSigner, loadWalletSeed } from './keys.ts';
import { type ChainsConfig, FAMILY } from './networks.ts';

export type ChainRegistry = {
  config: ChainsConfig;
  get(environment: Environment, blockchain: Blockchain): ChainAdapter;
  all(environment: Environment): ChainAdapter[];
};

export function createChainRegistry(
  config: ChainsConfig,
  signers: Record<Environment, ChainSigner>,
): ChainRegistry {
  const build = (environment: Environment) =>
    Object.fromEntries(
      BLOCKCHAINS.map((blockchain) => {
        const network = config.networks[blockchain];
        const node =
          environment === 'production' && network.rpcUrl && FAMILY[blockchain] === 'EVM'
            ? evmNode({ ...network, rpcUrl: network.rpcUrl }, signers[environment])
            : null;
        return [
          blockchain,
          chainAdapter({ blockchain, environment, network, signer: signers[environment], node }),
        ];
      }),
    ) as Record<Blockchain, ChainAdapter>;
  const adapters = { sandbox: build('sandbox'), production: build('production') };
  return {
    config,
    get: (environment, blockchain) => adapters[environment][blockchain],
    all: (environment) => BLOCKCHAINS.map((blockchain) => adapters[environment][blockchain]),
  };
}

/** Loads (or creates) each environment's seed and builds the registry over it. */
export async function openChainRegistry(
  db: Database,
  config: ChainsConfig,
  encryptionKey: Buffer,
  now: Date,
): Promise<ChainRegistry> {
  const [sandbox, production] = await Promise.all([
    loadWalletSeed(db, encryptionKey, 'sandbox', now),
    loadWalletSeed(db, encryptionKey, 'production', now),
  ]);
  return createChainRegistry(config, { sandbox: hdSigner(sandbox), production: hdSigner(production) });
}
