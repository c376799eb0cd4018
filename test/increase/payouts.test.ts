/**
 * USD payouts sent at most once: the idempotency key comes from the payout's id
 * (https://increase.com/documentation/idempotency-keys), so an answer lost after Increase made the transfer
 * (a dropped connection, a process killed mid-call) is found afterwards by that key and never paid again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createIncreaseClient, type IncreaseBank } from '../../src/rails/increase/client.ts';
import { findPayout, payoutIdempotencyKey, sendPayout } from '../../src/rails/increase/payouts.ts';
import type { IncreaseSimulations } from '../../src/rails/increase/simulations.ts';
import { answerOf } from '../../src/rails/usd/increase-payout.ts';
import { type IncreaseSimulator, SIMULATOR_ACCOUNT_ID, SIMULATOR_API_KEY } from './simulator.ts';
import { checkSimulator, openSimulatedBank } from './support.ts';

let sim: IncreaseSimulator;
let bank: IncreaseBank;
let simulate: IncreaseSimulations;

beforeAll(async () => {
  ({ sim, bank, simulate } = await openSimulatedBank('payout-secret'));
});
checkSimulator(() => sim);

const ach = (payoutId: string, amount = 25_000n) => ({
  rail: 'ACH' as const,
  key: payoutIdempotencyKey(payoutId),
  ach: {
    amount,
    routingNumber: '021000021',
    accountNumber: '000123456789',
    funding: 'checking' as const,
    holder: 'individual' as const,
    individualName: 'Jane Supplier',
    statementDescriptor: 'PONTE',
  },
});

/** A client of the simulator of this file's own, for the options a test changes. */
const simulatorOptions = () => ({
  url: new URL(sim.url),
  apiKey: SIMULATOR_API_KEY,
  accountId: SIMULATOR_ACCOUNT_ID,
  webhookSecret: 'payout-secret',
});

const transfersOf = (payoutId: string) =>
  [...sim.achTransfers.values()].filter((t) => t.idempotency_key === payoutIdempotencyKey(payoutId));

describe('USD payouts', () => {
  it('an ACH payout is SENT and pending until settled', async () => {
    const result = await sendPayout(bank, ach('p1'));
    expect(result).toMatchObject({ kind: 'SENT', payout: { outcome: { state: 'PENDING' } } });
    expect(transfersOf('p1')).toHaveLength(1);
  });

  it('an answer lost after Increase made the transfer is UNKNOWN; the transfer is then found, and sending again pays nothing more', async () => {
    sim.faults.loseAnswers = 1;
    expect(await sendPayout(bank, ach('p2'))).toMatchObject({ kind: 'UNKNOWN' });
    const found = await findPayout(bank, 'ACH', payoutIdempotencyKey('p2'));
    expect(found?.bankTransferId).toBe(transfersOf('p2')[0]?.id);
    const again = await sendPayout(bank, ach('p2'));
    expect(again).toMatchObject({ kind: 'SENT', payout: { bankTransferId: found?.bankTransferId } });
    expect(transfersOf('p2')).toHaveLength(1);
  });

  // the SDK gives up on an answer after its `timeout` with an APIConnectionTimeoutError
  // (https://github.com/Increase/increase-node#timeouts, node_modules/increase/README.md "Timeouts")
  it('a payout whose answer does not come before the client times out is UNKNOWN; found by its key, sending again pays nothing more', async () => {
    const impatient = createIncreaseClient({ ...simulatorOptions(), maxRetries: 0, timeoutMs: 300 });
    sim.faults.stallAnswers = 1;
    const timedOut = await sendPayout(impatient, ach('t1'));
    expect(timedOut).toMatchObject({ kind: 'UNKNOWN', detail: expect.stringMatching(/timed out/i) });
    // Increase made the transfer before the client gave up
    expect(transfersOf('t1')).toHaveLength(1);
    const found = await findPayout(bank, 'ACH', payoutIdempotencyKey('t1'));
    expect(found?.bankTransferId).toBe(transfersOf('t1')[0]?.id);
    const again = await sendPayout(bank, ach('t1'));
    expect(again).toMatchObject({ kind: 'SENT', payout: { bankTransferId: found?.bankTransferId } });
    expect(transfersOf('t1')).toHaveLength(1);
  });

  // the SDK retries a request that timed out, with the same Idempotency-Key header on every attempt
  // (node_modules/increase/client.js, buildHeaders: `options.idempotencyKey` is set once per request)
  it("the SDK's own retry after a timeout goes under the payout's key: one transfer, SENT", async () => {
    const retrying = createIncreaseClient({ ...simulatorOptions(), maxRetries: 1, timeoutMs: 300 });
    sim.faults.stallAnswers = 1;
    const sent = await sendPayout(retrying, ach('t2'));
    expect(sent).toMatchObject({ kind: 'SENT', payout: { bankTransferId: transfersOf('t2')[0]?.id } });
    expect(transfersOf('t2')).toHaveLength(1);
    // two attempts reached Increase, the one left unanswered and the retry, both under the key
    const attempts = sim.requests.filter((r) => r.method === 'POST' && r.path === '/ach_transfers');
    expect(attempts.filter((r) => r.key === payoutIdempotencyKey('t2'))).toHaveLength(2);
  });

  it('a payout whose call never reached Increase is not found (a 5xx before acting)', async () => {
    sim.faults.failNext = 1;
    expect(await sendPayout(bank, ach('p3'))).toMatchObject({ kind: 'UNKNOWN' });
    expect(await findPayout(bank, 'ACH', payoutIdempotencyKey('p3'))).toBeUndefined();
  });

  it('a request Increase refuses is REFUSED, and nothing was created', async () => {
    const refused = await sendPayout(bank, {
      rail: 'ACH',
      key: payoutIdempotencyKey('p4'),
      ach: { ...ach('p4').ach, accountNumber: '' },
    });
    expect(refused.kind).toBe('REFUSED');
    expect(transfersOf('p4')).toHaveLength(0);
  });

  // https://increase.com/documentation/api#errors: 401 invalid_api_key_error (the key is wrong or revoked)
  // says nothing of the transfer; the payout waits until the key is mended rather than failing
  it('an API key Increase does not accept (401) is UNKNOWN, not REFUSED: nothing is decided about the payout', async () => {
    const wrongKey = createIncreaseClient({ ...simulatorOptions(), apiKey: 'revoked_key', maxRetries: 0 });
    expect(await sendPayout(wrongKey, ach('p6'))).toMatchObject({ kind: 'UNKNOWN' });
    expect(transfersOf('p6')).toHaveLength(0);
  });

  it('a returned ACH payout is found RETURNED with its Nacha code (https://increase.com/documentation/ach-returns)', async () => {
    const sent = await sendPayout(bank, ach('p5'));
    if (sent.kind !== 'SENT') throw new Error('not sent');
    await simulate.returnAch(sent.payout.bankTransferId, 'account_closed');
    expect((await findPayout(bank, 'ACH', payoutIdempotencyKey('p5')))?.outcome).toEqual({
      state: 'RETURNED',
      rail: 'ACH',
      achReturn: { nachaCode: 'R02', reason: 'account_closed' },
    });
  });

  it('a wire payout is sent once and found SETTLED when complete', async () => {
    const order = {
      rail: 'WIRE' as const,
      key: payoutIdempotencyKey('w1'),
      wire: {
        amount: 1_000_000n,
        routingNumber: '026009593',
        accountNumber: '987654321',
        creditorName: 'Initech Supplies',
        creditorAddress: undefined,
        message: 'Invoice 7',
      },
    };
    sim.faults.loseAnswers = 1;
    expect((await sendPayout(bank, order)).kind).toBe('UNKNOWN');
    const again = await sendPayout(bank, order);
    if (again.kind !== 'SENT') throw new Error('not sent');
    await simulate.submitWire(again.payout.bankTransferId);
    expect((await findPayout(bank, 'WIRE', payoutIdempotencyKey('w1')))?.outcome).toEqual({
      state: 'SETTLED',
    });
    expect(
      [...sim.wireTransfers.values()].filter((t) => t.idempotency_key === payoutIdempotencyKey('w1')),
    ).toHaveLength(1);
  });
});

describe('what a transfer tells the off-ramp (answerOf)', () => {
  it('an ACH returned with its code, one returned without details, and a wire reversed each say which they are', () => {
    expect(
      answerOf({
        state: 'RETURNED',
        rail: 'ACH',
        achReturn: { nachaCode: 'R03', reason: 'no_account' },
      }),
    ).toEqual({
      result: { status: 'RETURNED', reason: 'returned by the receiving bank: R03 (no account)', code: 'R03' },
    });
    expect(answerOf({ state: 'RETURNED', rail: 'ACH', achReturn: undefined })).toEqual({
      result: { status: 'RETURNED', reason: 'returned by the receiving bank (no return code given)' },
    });
    expect(answerOf({ state: 'RETURNED', rail: 'WIRE' })).toEqual({
      result: { status: 'RETURNED', reason: 'the wire was reversed by the receiving bank' },
    });
    expect(answerOf({ state: 'PENDING' })).toEqual({ pending: true });
    expect(answerOf({ state: 'SETTLED' })).toEqual({ result: { status: 'COMPLETED' } });
  });
});
