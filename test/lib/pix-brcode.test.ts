import fc from 'fast-check';
import { parsePix } from 'pix-utils';
import { describe, expect, it } from 'vitest';
import { buildPixBrCode, emvText, readEmvFields, SANDBOX_PIX_KEY } from '../../src/lib/pix-brcode.ts';

/** CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF), bit by bit: independent of any library's table. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

const crcHolds = (payload: string) => crc16(payload.slice(0, -4)) === payload.slice(-4);

/** Published payloads known to be accepted by banking apps. */
const PUBLISHED = [
  // Banco Central, "Manual de Padrões para Iniciação do Pix", static example
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
  // pix-utils' documentation: static with amount and additional information
  '00020126650014br.gov.bcb.pix0119nubank@thalesog.com0220Gerado por Pix-Utils52040000530398654041.005802BR5914Thales Ogliari6015SAO MIGUEL DO O62070503***6304059A',
];

const charge = {
  pixKey: 'pix@ponte.example',
  merchantName: 'Ponte Pagamentos',
  merchantCity: 'São Paulo',
  amount: 150_000n,
  txid: 'AbC123xyz',
};

describe('PIX BR Code', () => {
  it('the independent CRC16 agrees with published payloads, and pix-utils parses them', () => {
    for (const payload of PUBLISHED) {
      expect(crcHolds(payload)).toBe(true);
      expect('error' in parsePix(payload)).toBe(false);
    }
  });

  it('builds an EMV merchant-presented payload with key, merchant, amount, txid and a valid CRC16', () => {
    const brCode = buildPixBrCode(charge);
    const fields = readEmvFields(brCode);
    expect(fields.get('00')).toBe('01');
    const account = readEmvFields(fields.get('26')!);
    expect(account.get('00')).toBe('br.gov.bcb.pix');
    expect(account.get('01')).toBe('pix@ponte.example');
    expect(fields.get('52')).toBe('0000');
    expect(fields.get('53')).toBe('986');
    expect(fields.get('54')).toBe('1500.00');
    expect(fields.get('58')).toBe('BR');
    expect(fields.get('59')).toBe('PONTE PAGAMENTOS');
    expect(fields.get('60')).toBe('SAO PAULO');
    expect(readEmvFields(fields.get('62')!).get('05')).toBe('AbC123xyz');
    expect(brCode.slice(-8, -4)).toBe('6304');
    expect(crcHolds(brCode)).toBe(true);
  });

  it("pix-utils' own parser reads back exactly what was built", () => {
    const parsed = parsePix(buildPixBrCode(charge));
    expect(parsed).toMatchObject({
      type: 'STATIC',
      pixKey: 'pix@ponte.example',
      merchantName: 'PONTE PAGAMENTOS',
      merchantCity: 'SAO PAULO',
      transactionAmount: 1500,
      txid: 'AbC123xyz',
    });
  });

  it('carries every amount exactly, from 0.01 to 9999999999.99, with a valid CRC16', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 999_999_999_999n }),
        fc.stringMatching(/^[A-Za-z0-9]{1,25}$/),
        (amount, txid) => {
          const brCode = buildPixBrCode({ ...charge, pixKey: SANDBOX_PIX_KEY, amount, txid });
          const fields = readEmvFields(brCode);
          const cents = fields.get('54')!.replace('.', '');
          expect(BigInt(cents)).toBe(amount);
          expect(fields.get('54')).toMatch(/^\d+\.\d{2}$/);
          expect(readEmvFields(fields.get('62')!).get('05')).toBe(txid);
          expect(crcHolds(brCode)).toBe(true);
          expect('error' in parsePix(brCode)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses what a BR Code cannot carry', () => {
    expect(() => buildPixBrCode({ ...charge, amount: 0n })).toThrow(RangeError);
    expect(() => buildPixBrCode({ ...charge, amount: 1_000_000_000_000n })).toThrow(RangeError);
    expect(() => buildPixBrCode({ ...charge, txid: 'a'.repeat(26) })).toThrow(RangeError);
    expect(() => buildPixBrCode({ ...charge, txid: 'with-dash' })).toThrow(RangeError);
    expect(() => buildPixBrCode({ ...charge, merchantCity: 'A city with a long name' })).toThrow(RangeError);
  });

  it('writes merchant text without accents, in upper case', () => {
    expect(emvText('Açaí & Cia. Ltda')).toBe('ACAI & CIA. LTDA');
  });
});
