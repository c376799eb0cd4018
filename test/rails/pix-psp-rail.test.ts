/**
 * The seam's contract against the PIX rail over a PSP, the PSP being the simulator (test/psp), which
 * checks every request against the API Pix document and Efí's send API
 * (dev.efipay.com.br/docs/api-pix/envio-pagamento-pix): charges, sends (a send above 20.00 refused at
 * once, homologação), devoluções, listings read page by page, returns of a send of 4.00.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { formatAmount } from '../../src/core/money.ts';
import { pspPixRail } from '../../src/rails/pix/fiat.ts';
import { parsePspConfig } from '../../src/rails/pix/psp/config.ts';
import { createPspRail } from '../../src/rails/pix/psp/rail.ts';
import { derivedPixId } from '../../src/rails/pix/rail.ts';
import type { PspSimulator } from '../psp/simulator.ts';
import { expectNoViolations, pspEnv, startSimulator } from '../psp/support.ts';
import { fiatRailContract } from './fiat-rail-contract.ts';

let simulator: PspSimulator;
let psp: ReturnType<typeof createPspRail>;
beforeAll(async () => {
  // the webhook address answers as the README's TLS terminator does: only with the PSP's certificate
  simulator = await startSimulator({
    maxPageSize: 2,
    deliver: async (_url, _body, { clientCertificate }) => (clientCertificate ? 200 : 400),
  });
  psp = createPspRail(parsePspConfig(pspEnv(simulator), 'PONTE_PIX_')!);
  // Efí refuses a send from a key without a webhook
  await psp.registerWebhook();
});
afterAll(async () => {
  psp.close();
  await simulator.close();
});
expectNoViolations(() => simulator);

const destination = {
  keyType: 'CPF',
  keyValue: '529.982.247-25',
  name: 'Ana Souza',
  taxId: '529.982.247-25',
};
const source = { currency: 'USDC', amount: 1_000_000n, scale: 6 };

fiatRailContract('PIX over a PSP (the simulator)', {
  rail: () => pspPixRail(psp),
  expectInstructions({ brCode }, amount) {
    expect(brCode).toMatch(/^000201/);
    const charge = [...simulator.charges.values()].find((found) => brCode.includes(found.location));
    expect(charge?.valor).toBe(formatAmount(amount));
  },
  paidOrder: () => ({ amount: 500n, destination, source }),
  refusedOrder: () => ({ amount: 2_500n, destination, source }),
  returnedOrder: () => ({ amount: 400n, destination, source }),
  newKey: () => derivedPixId(randomUUID()),
  async pay(collection, amount) {
    return simulator.pay(collection.reference, formatAmount(amount));
  },
  paymentsUnder(key) {
    const sends = simulator.sends.has(key) ? 1 : 0;
    const refunds = [...simulator.received.values()].flatMap((pix) =>
      pix.devolucoes.filter((d) => d.id === key),
    );
    return sends + refunds.length;
  },
  async settle() {
    await simulator.settlePending();
    await simulator.idle();
  },
  holdSettlement(hold) {
    simulator.setAutoSettle(!hold);
  },
});
