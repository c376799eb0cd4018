import { HDKey, hdKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hdSigner, loadWalletSeed } from '../../src/rails/chains/keys.ts';
import { tronAddressFromHex, tronAddressProblem } from '../../src/rails/chains/tron-address.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const SEED = new Uint8Array(64).map((_, i) => i);

describe('HD derivation', () => {
  it("derives EVM addresses at m/44'/60'/0'/0/index, as viem's HD accounts do", () => {
    const signer = hdSigner(SEED);
    for (const index of [0, 1, 7]) {
      const expected = hdKeyToAccount(HDKey.fromMasterSeed(SEED), { addressIndex: index }).address;
      expect(signer.address('EVM', index)).toBe(expected);
      expect(signer.evmAccount(index).address).toBe(expected);
    }
  });

  it('derives distinct, valid Tron addresses per index', () => {
    const signer = hdSigner(SEED);
    const [a, b] = [signer.address('TRON', 1), signer.address('TRON', 2)];
    expect(a).not.toBe(b);
    expect(tronAddressProblem(a)).toBeNull();
    expect(tronAddressProblem(b)).toBeNull();
  });
});

describe('Tron addresses', () => {
  it('encodes base58check with the 0x41 prefix', () => {
    expect(tronAddressFromHex(`0x${'00'.repeat(20)}`)).toBe('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb');
  });

  it('accepts real addresses and refuses a bad checksum, a bad length or another alphabet', () => {
    expect(tronAddressProblem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBeNull();
    expect(tronAddressProblem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toMatch(/checksum/);
    expect(tronAddressProblem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6')).toMatch(/33 base58/);
    expect(tronAddressProblem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj60')).toMatch(/33 base58/);
  });
});

describe('the wallet seed', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ workers: false });
  });
  afterAll(() => server.close());

  it('is kept encrypted, one per environment, and read back the same by every process', async () => {
    const { db, instanceKeys, clock } = server.ctx;
    const first = await loadWalletSeed(db, instanceKeys.encryption, 'sandbox', clock());
    const again = await loadWalletSeed(db, instanceKeys.encryption, 'sandbox', clock());
    const production = await loadWalletSeed(db, instanceKeys.encryption, 'production', clock());
    expect(first).toHaveLength(64);
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
    expect(Buffer.from(production).equals(Buffer.from(first))).toBe(false);
    const [row] = await db.query<{ ciphertext: string }>(
      `SELECT ciphertext FROM wallet_seeds WHERE environment = 'sandbox'`,
    );
    expect(row!.ciphertext).not.toContain(Buffer.from(first).toString('base64url'));
    expect(row!.ciphertext).not.toContain(Buffer.from(first).toString('hex'));
  });
});
