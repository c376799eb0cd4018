/**
 * Tron addresses: the last 20 bytes of the Keccak-256 of the secp256k1 public key (as on Ethereum),
 * prefixed with 0x41 and written in base58check (`T...`, 34 characters).
 */
import { createBase58check } from '@scure/base';
import { hexToBytes, keccak256, sha256 } from 'viem';

const base58check = createBase58check((data: Uint8Array) => sha256(data, 'bytes'));
const PREFIX = 0x41;

/** The Tron address of an uncompressed public key (65 bytes, 0x04 first). */
export function tronAddressFromPublicKey(publicKey: Uint8Array): string {
  if (publicKey.length !== 65 || publicKey[0] !== 4) throw new Error('expected an uncompressed public key');
  const hash = keccak256(publicKey.subarray(1), 'bytes');
  const payload = new Uint8Array(21);
  payload[0] = PREFIX;
  payload.set(hash.subarray(12), 1);
  return base58check.encode(payload);
}

/** The Tron address of a 20-byte account as Ethereum tooling writes it (`0x...`). */
export function tronAddressFromHex(hex: `0x${string}`): string {
  const payload = new Uint8Array(21);
  payload[0] = PREFIX;
  payload.set(hexToBytes(hex), 1);
  return base58check.encode(payload);
}

/** Why `text` is not a Tron address, or null when it is one (checksum verified). */
export function tronAddressProblem(text: string): string | null {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(text)) {
    return 'must be a Tron address: T followed by 33 base58 characters';
  }
  let payload: Uint8Array;
  try {
    payload = base58check.decode(text);
  } catch {
    return 'is not a valid Tron address: its checksum does not match';
  }
  if (payload.length !== 21 || payload[0] !== PREFIX) return 'is not a Tron mainnet address';
  return null;
}
