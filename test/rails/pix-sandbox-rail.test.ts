/**
 * The seam's contract against the PIX sandbox simulation: BR Codes encoded locally (the BCB's BR Code
 * manual, field 54 the amount), every payment settled in its answer, a sourceAmount ending in .13
 * refused (README: the sandbox).
 */

import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { formatAmount } from '../../src/core/money.ts';
import { sandboxPixRail } from '../../src/rails/pix/fiat.ts';
import { derivedPixId } from '../../src/rails/pix/rail.ts';
import { fiatRailContract } from './fiat-rail-contract.ts';

const destination = {
  keyType: 'CPF',
  keyValue: '529.982.247-25',
  name: 'Ana Souza',
  taxId: '529.982.247-25',
};

fiatRailContract('PIX, the sandbox simulation', {
  rail: () => sandboxPixRail({ pixKey: undefined, merchantName: 'PONTE', merchantCity: 'SAO PAULO' }),
  expectInstructions({ brCode }, amount) {
    const text = formatAmount(amount);
    expect(brCode).toMatch(/^000201/);
    expect(brCode).toContain(`54${String(text.length).padStart(2, '0')}${text}`);
  },
  paidOrder: () => ({
    amount: 500n,
    destination,
    source: { currency: 'USDC', amount: 1_000_000n, scale: 6 },
  }),
  refusedOrder: () => ({
    amount: 500n,
    destination,
    source: { currency: 'USDC', amount: 1_130_000n, scale: 6 },
  }),
  returnedOrder: null,
  newKey: () => derivedPixId(randomUUID()),
  pay: async () => null,
  paymentsUnder: () => null,
  settle: async () => {},
  holdSettlement() {},
});
