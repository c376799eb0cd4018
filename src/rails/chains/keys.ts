/**
 * Keys of every wallet: one HD seed per environment (BIP-32), kept encrypted under the instance key and
 * never logged; each customer gets an address index, and each chain family its BIP-44 coin type
 * (Ethereum 60 for every EVM chain, Tron 195): m/44'/coin'/0'/0/index. Index 0 is the platform's
 * treasury, which sends on-ramp deliveries and outbound transfers.
 *
 * `ChainSigner` is all the rest of the system sees of keys: a production deployment that keeps keys in a
 * KMS or with a custody provider implements the same two methods over that service instead.
 */
import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { bytesToHex, getAddress, type LocalAccount } from 'viem';
import { privateKeyToAccount, publicKeyToAddress } from 'viem/accounts';
import type { Database } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import { decryptSecret, encryptSecret } from '../../lib/sealed.ts';
import { insertSeedOnce, seedCiphertext } from './keys-repo.ts';
import type { ChainFamily } from './networks.ts';
import { tronAddressFromPublicKey } from './tron-address.ts';

export const TREASURY_INDEX = 0;

const COIN_TYPE: Record<ChainFamily, number> = { EVM: 60, TRON: 195 };

export interface ChainSigner {
  /** The address at `index` for a chain family (EIP-55 checksummed, or base58check for Tron). */
  address(family: ChainFamily, index: number): string;
  /** The EVM account at `index`, able to sign transactions. */
  evmAccount(index: number): LocalAccount;
}

export function hdSigner(seed: Uint8Array): ChainSigner {
  const root = HDKey.fromMasterSeed(seed);
  const cache = new Map<string, HDKey>();
  const node = (family: ChainFamily, index: number): HDKey => {
    const path = `m/44'/${COIN_TYPE[family]}'/0'/0/${index}`;
    let key = cache.get(path);
    if (!key) {
      key = root.derive(path);
      cache.set(path, key);
    }
    return key;
  };
  const uncompressed = (key: HDKey) => {
    const account = privateKeyToAccount(bytesToHex(key.privateKey!));
    return account.publicKey;
  };
  return {
    address(family, index) {
      const key = node(family, index);
      if (family === 'EVM') return getAddress(publicKeyToAddress(uncompressed(key)));
      const publicKey = uncompressed(key);
      return tronAddressFromPublicKey(Buffer.from(publicKey.slice(2), 'hex'));
    },
    evmAccount(index) {
      return privateKeyToAccount(bytesToHex(node('EVM', index).privateKey!));
    },
  };
}

const seedLabel = (environment: Environment) => `wallet-seed:${environment}`;

/**
 * The environment's seed: created on first use (64 random bytes) and shared by every process through
 * the `wallet_seeds` table, encrypted with AES-256-GCM bound to its environment.
 */
export async function loadWalletSeed(
  db: Database,
  encryptionKey: Buffer,
  environment: Environment,
  now: Date,
): Promise<Uint8Array> {
  const fresh = randomBytes(64).toString('base64url');
  await insertSeedOnce(db, environment, encryptSecret(encryptionKey, fresh, seedLabel(environment)), now);
  const ciphertext = await seedCiphertext(db, environment);
  return Buffer.from(decryptSecret(encryptionKey, ciphertext, seedLabel(environment)), 'base64url');
}
