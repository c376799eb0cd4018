/**
 * Money in as the rail reports it: a webhook's event read back from Increase (webhooks are hints;
 * https://increase.com/documentation/webhooks), and the sweep of inbound transfers since an instant, which
 * finds what lost webhooks never named (https://increase.com/documentation/api/inbound-ach-transfers#list).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createIncreaseClient, type IncreaseBank } from '../../src/rails/increase/client.ts';
import { lookUpInbound, sweepInbound } from '../../src/rails/increase/inbound.ts';
import type { IncreaseSimulations } from '../../src/rails/increase/simulations.ts';
import type { IncreaseWebhookEvent } from '../../src/rails/increase/webhooks.ts';
import { type IncreaseSimulator, SIMULATOR_ACCOUNT_ID, SIMULATOR_API_KEY } from './simulator.ts';
import { checkSimulator, openSimulatedBank } from './support.ts';

let sim: IncreaseSimulator;
let bank: IncreaseBank;
let simulate: IncreaseSimulations;

beforeAll(async () => {
  ({ sim, bank, simulate } = await openSimulatedBank('inbound-secret'));
});
checkSimulator(() => sim);

const eventFor = (objectId: string): IncreaseWebhookEvent => {
  const event = [...sim.events.values()].find((e) => e.associated_object_id === objectId);
  if (!event) throw new Error(`no event for ${objectId}`);
  return event;
};

describe('looking up what an event names', () => {
  it('an inbound ACH credit event reads back as an ACCEPTED ACH transfer of its amount', async () => {
    const number = await bank.openAccountNumber({ name: 'a', idempotencyKey: 'in_a' });
    const inbound = await simulate.inboundAch(number.id, 150_000n, 'ACME CORP');
    expect(await lookUpInbound(bank, eventFor(inbound.id))).toEqual({
      kind: 'TRANSFER',
      transfer: {
        bankTransferId: inbound.id,
        rail: 'ACH',
        accountNumberId: number.id,
        amount: 150_000n,
        state: 'ACCEPTED',
        originatorName: 'ACME CORP',
        createdAt: new Date(inbound.created_at),
      },
    });
  });

  it('an inbound wire event reads back as a WIRE transfer, with its debtor', async () => {
    const number = await bank.openAccountNumber({ name: 'w', idempotencyKey: 'in_w' });
    const inbound = await simulate.inboundWire(number.id, 99_999n, 'GLOBEX LLC');
    const found = await lookUpInbound(bank, eventFor(inbound.id));
    expect(found).toMatchObject({
      kind: 'TRANSFER',
      transfer: { rail: 'WIRE', amount: 99_999n, state: 'ACCEPTED', originatorName: 'GLOBEX LLC' },
    });
  });

  it('a credit to a disabled account number reads back DECLINED', async () => {
    const number = await bank.openAccountNumber({ name: 'd', idempotencyKey: 'in_d' });
    await bank.disableAccountNumber(number.id);
    const inbound = await simulate.inboundAch(number.id, 500n);
    expect(await lookUpInbound(bank, eventFor(inbound.id))).toMatchObject({
      transfer: { state: 'DECLINED' },
    });
  });

  it('events about anything but inbound transfers are ignored', async () => {
    const number = await bank.openAccountNumber({ name: 'i', idempotencyKey: 'in_i' });
    expect(await lookUpInbound(bank, eventFor(number.id))).toEqual({ kind: 'IGNORED' });
  });

  it('an event before its object is readable says so, and reads back once it is', async () => {
    const number = await bank.openAccountNumber({ name: 'e', idempotencyKey: 'in_e' });
    sim.faults.hideNextObjects = 1;
    const inbound = await simulate.inboundAch(number.id, 700n);
    expect(await lookUpInbound(bank, eventFor(inbound.id))).toEqual({ kind: 'NOT_YET_READABLE' });
    sim.reveal();
    expect(await lookUpInbound(bank, eventFor(inbound.id))).toMatchObject({ kind: 'TRANSFER' });
  });

  // https://increase.com/documentation/api#errors (5xx: try again); the SDK gives up waiting after its
  // `timeout` with an APIConnectionTimeoutError (https://github.com/Increase/increase-node#timeouts)
  it('a read-back Increase does not answer (a 5xx, or no answer before the client times out) is UNANSWERED, and reads back later', async () => {
    const number = await bank.openAccountNumber({ name: 'u', idempotencyKey: 'in_u' });
    const inbound = await simulate.inboundAch(number.id, 800n);
    sim.faults.failNext = 1;
    expect(await lookUpInbound(bank, eventFor(inbound.id))).toMatchObject({ kind: 'UNANSWERED' });
    const impatient = createIncreaseClient({
      url: new URL(sim.url),
      apiKey: SIMULATOR_API_KEY,
      accountId: SIMULATOR_ACCOUNT_ID,
      webhookSecret: 'inbound-secret',
      maxRetries: 0,
      timeoutMs: 300,
    });
    sim.faults.stallAnswers = 1;
    expect(await lookUpInbound(impatient, eventFor(inbound.id))).toMatchObject({
      kind: 'UNANSWERED',
      detail: expect.stringMatching(/timed out/i),
    });
    expect(await lookUpInbound(bank, eventFor(inbound.id))).toMatchObject({ kind: 'TRANSFER' });
  });
});

describe('the sweep', () => {
  it('finds every inbound ACH credit and wire since an instant, lost webhooks or not, each once', async () => {
    const number = await bank.openAccountNumber({ name: 's', idempotencyKey: 'in_s' });
    const since = new Date(Date.now() - 1);
    sim.faults.loseWebhooks = 10;
    const made = [
      (await simulate.inboundAch(number.id, 100n)).id,
      (await simulate.inboundWire(number.id, 200n)).id,
      (await simulate.inboundAch(number.id, 300n)).id,
    ];
    const swept = [];
    for await (const transfer of sweepInbound(bank, since)) {
      if (transfer.accountNumberId === number.id) swept.push(transfer.bankTransferId);
    }
    expect(swept.sort()).toEqual([...made].sort());
  });
});
