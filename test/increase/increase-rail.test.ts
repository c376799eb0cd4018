/**
 * Ponte's Increase client against the bank simulator, through the official SDK: each behaviour cites the
 * Increase documentation page it follows. The simulator records any request outside the SDK's declared
 * shapes; every test ends with none.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  IdempotencyKeyAlreadyUsedError,
  InvalidAPIKeyError,
  InvalidOperationError,
  ObjectNotFoundError,
} from 'increase';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createIncreaseClient, type IncreaseBank } from '../../src/rails/increase/client.ts';
import { achOutcome, wireOutcome } from '../../src/rails/increase/outcomes.ts';
import { createIncreaseSimulations, type IncreaseSimulations } from '../../src/rails/increase/simulations.ts';
import { InvalidIncreaseWebhook } from '../../src/rails/increase/webhooks.ts';
import {
  type IncreaseSimulator,
  SIMULATOR_ACCOUNT_ID,
  SIMULATOR_API_KEY,
  SIMULATOR_ROUTING_NUMBER,
  startIncreaseSimulator,
} from './simulator.ts';

const SECRET = 'increase-webhook-secret-for-tests';

type Delivery = { body: string; headers: IncomingHttpHeaders };

let sim: IncreaseSimulator;
let bank: IncreaseBank;
let simulate: IncreaseSimulations;
let receiver: Server;
const deliveries: Delivery[] = [];

const options = () => ({
  url: new URL(sim.url),
  apiKey: SIMULATOR_API_KEY,
  accountId: SIMULATOR_ACCOUNT_ID,
  webhookSecret: SECRET,
  maxRetries: 0,
});

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  sim = await startIncreaseSimulator({ webhookSecret: SECRET, webhookUrl: `http://127.0.0.1:${port}/` });
  bank = createIncreaseClient(options());
  simulate = createIncreaseSimulations(options());
});

afterEach(() => {
  expect(sim.violations).toEqual([]);
});

afterAll(async () => {
  await sim.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const headersOf = (delivery: Delivery) => delivery.headers as Record<string, string>;

describe('account numbers (https://increase.com/documentation/api/account-numbers)', () => {
  it('opens an account number under Ponte account, with the routing number Increase gives', async () => {
    const number = await bank.openAccountNumber({ name: 'Customer account acc_1', idempotencyKey: 'acc_1' });
    expect(number).toMatchObject({
      account_id: SIMULATOR_ACCOUNT_ID,
      name: 'Customer account acc_1',
      routing_number: SIMULATOR_ROUTING_NUMBER,
      status: 'active',
      inbound_ach: { debit_status: 'blocked' },
    });
    expect(number.account_number).toMatch(/^\d+$/);
  });

  it('opening again with the same idempotency key gives the same account number (https://increase.com/documentation/idempotency-keys)', async () => {
    const first = await bank.openAccountNumber({ name: 'Customer account acc_2', idempotencyKey: 'acc_2' });
    const again = await bank.openAccountNumber({ name: 'Customer account acc_2', idempotencyKey: 'acc_2' });
    expect(again.id).toBe(first.id);
    expect([...sim.accountNumbers.values()].filter((n) => n.idempotency_key === 'acc_2')).toHaveLength(1);
  });

  it('a disabled account number declines what arrives for it (https://increase.com/documentation/api/account-numbers#update-an-account-number)', async () => {
    const number = await bank.openAccountNumber({ name: 'closing', idempotencyKey: 'acc_3' });
    const disabled = await bank.disableAccountNumber(number.id);
    expect(disabled.status).toBe('disabled');
    const inbound = await simulate.inboundAch(number.id, 1_000n);
    expect(inbound.status).toBe('declined');
    expect(inbound.decline?.reason).toBe('ach_route_disabled');
  });
});

describe('inbound transfers (https://increase.com/documentation/receiving-ach-transfers)', () => {
  it('an inbound ACH credit is read back by id and found by the sweep listing', async () => {
    const number = await bank.openAccountNumber({ name: 'in', idempotencyKey: 'acc_in_1' });
    const since = new Date(Date.now() - 1000);
    const simulated = await simulate.inboundAch(number.id, 12_345n, 'ACME PAYROLL');
    const read = await bank.inboundAchTransfer(simulated.id);
    expect(read).toMatchObject({
      id: simulated.id,
      account_number_id: number.id,
      amount: 12_345,
      direction: 'credit',
      status: 'accepted',
      originator_company_name: 'ACME PAYROLL',
    });
    const listed: string[] = [];
    for await (const transfer of bank.inboundAchTransfersSince(since)) listed.push(transfer.id);
    expect(listed).toContain(simulated.id);
  });

  it('the sweep listing walks every page (https://increase.com/documentation/api#pagination)', async () => {
    const number = await bank.openAccountNumber({ name: 'many', idempotencyKey: 'acc_in_many' });
    const since = new Date(Date.now() - 1000);
    const made = new Set<string>();
    for (let i = 0; i < 130; i++) made.add((await simulate.inboundAch(number.id, BigInt(100 + i))).id);
    const listed = new Set<string>();
    for await (const transfer of bank.inboundAchTransfersSince(since)) listed.add(transfer.id);
    for (const id of made) expect(listed.has(id)).toBe(true);
  });

  it('an inbound ACH credit Ponte cannot take is returned with R23 (credit_entry_refused_by_receiver)', async () => {
    const number = await bank.openAccountNumber({ name: 'refuse', idempotencyKey: 'acc_in_2' });
    const inbound = await simulate.inboundAch(number.id, 5_000n);
    const returned = await bank.returnInboundAch(inbound.id, 'credit_entry_refused_by_receiver');
    expect(returned.status).toBe('returned');
    expect(returned.transfer_return?.reason).toBe('credit_entry_refused_by_receiver');
    // returning it again is an invalid operation (https://increase.com/documentation/api#errors)
    await expect(
      bank.returnInboundAch(inbound.id, 'credit_entry_refused_by_receiver'),
    ).rejects.toBeInstanceOf(InvalidOperationError);
  });

  it('an inbound wire is read back and can be reversed (https://increase.com/documentation/api/inbound-wire-transfers)', async () => {
    const number = await bank.openAccountNumber({ name: 'wire in', idempotencyKey: 'acc_in_3' });
    const since = new Date(Date.now() - 1000);
    const inbound = await simulate.inboundWire(number.id, 250_000n, 'GLOBEX LLC');
    expect(await bank.inboundWireTransfer(inbound.id)).toMatchObject({
      amount: 250_000,
      status: 'accepted',
      debtor_name: 'GLOBEX LLC',
    });
    const listed: string[] = [];
    for await (const transfer of bank.inboundWireTransfersSince(since)) listed.push(transfer.id);
    expect(listed).toContain(inbound.id);
    const reversed = await bank.reverseInboundWire(inbound.id, 'creditor_request');
    expect(reversed.status).toBe('reversed');
  });
});

describe('payouts (https://increase.com/documentation/api/ach-transfers, /wire-transfers)', () => {
  const ach = (key: string, amount = 10_000n) => ({
    amount,
    routingNumber: '021000021',
    accountNumber: '000123456789',
    funding: 'checking' as const,
    holder: 'business' as const,
    individualName: 'Jane Supplier Incorporated Long Name',
    statementDescriptor: 'PONTE PAYOUT',
    idempotencyKey: key,
  });

  it('an ACH payout is sent once per idempotency key, and found by that key after a lost answer', async () => {
    const first = await bank.payAch(ach('offramp_1'));
    const again = await bank.payAch(ach('offramp_1'));
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({
      amount: 10_000,
      individual_name: 'Jane Supplier Incorpor',
      status: 'pending_submission',
    });
    expect((await bank.achTransferByIdempotencyKey('offramp_1'))?.id).toBe(first.id);
    expect(await bank.achTransferByIdempotencyKey('offramp_never_sent')).toBeUndefined();
    expect(achOutcome(first)).toEqual({ state: 'PENDING' });
  });

  it('the same idempotency key with another amount is refused, not paid (409)', async () => {
    await bank.payAch(ach('offramp_2'));
    await expect(bank.payAch(ach('offramp_2', 20_000n))).rejects.toBeInstanceOf(
      IdempotencyKeyAlreadyUsedError,
    );
  });

  it('a settled ACH payout is SETTLED (https://increase.com/documentation/ach-transfers#settlement)', async () => {
    const sent = await bank.payAch(ach('offramp_3'));
    await simulate.settleAch(sent.id);
    expect(achOutcome(await bank.achTransfer(sent.id))).toEqual({ state: 'SETTLED' });
  });

  it('a returned ACH payout is RETURNED with its Nacha code (https://increase.com/documentation/ach-returns)', async () => {
    const sent = await bank.payAch(ach('offramp_4'));
    await simulate.returnAch(sent.id, 'insufficient_fund');
    expect(achOutcome(await bank.achTransfer(sent.id))).toEqual({
      state: 'RETURNED',
      rail: 'ACH',
      achReturn: { nachaCode: 'R01', reason: 'insufficient_fund' },
    });
  });

  it('a wire payout completes, and a reversed one is RETURNED (https://increase.com/documentation/wire-transfers)', async () => {
    const wire = {
      amount: 500_000n,
      routingNumber: '026009593',
      accountNumber: '987654321',
      creditorName: 'Initech Supplies',
      creditorAddress: ['1 Main St', 'Austin TX 78701'] as [string, ...string[]],
      message: 'Invoice 42',
      idempotencyKey: 'offramp_wire_1',
    };
    const sent = await bank.payWire(wire);
    expect((await bank.payWire(wire)).id).toBe(sent.id);
    expect((await bank.wireTransferByIdempotencyKey('offramp_wire_1'))?.id).toBe(sent.id);
    expect(sent.creditor?.address?.unstructured).toEqual({
      line1: '1 Main St',
      line2: 'Austin TX 78701',
      line3: null,
    });
    await simulate.submitWire(sent.id);
    expect(wireOutcome(await bank.wireTransfer(sent.id))).toEqual({ state: 'SETTLED' });
  });
});

describe('events and webhooks (https://increase.com/documentation/webhooks)', () => {
  it('a webhook signed with the subscription secret unwraps to its event, which reads back by id', async () => {
    const number = await bank.openAccountNumber({ name: 'hooks', idempotencyKey: 'acc_hook_1' });
    const inbound = await simulate.inboundAch(number.id, 700n);
    await sim.settled();
    const delivery = deliveries.find((d) => d.body.includes(inbound.id));
    expect(delivery).toBeDefined();
    const event = bank.unwrapWebhook((delivery as Delivery).body, headersOf(delivery as Delivery));
    expect(event).toMatchObject({
      category: 'inbound_ach_transfer.created',
      associated_object_id: inbound.id,
    });
    expect((await bank.event(event.id)).associated_object_id).toBe(inbound.id);
  });

  it('a webhook with an altered body, another secret, or no signature headers is refused', async () => {
    const number = await bank.openAccountNumber({ name: 'hooks 2', idempotencyKey: 'acc_hook_2' });
    await sim.settled();
    const delivery = deliveries.find((d) => d.body.includes(number.id)) as Delivery;
    expect(() =>
      bank.unwrapWebhook(delivery.body.replace(number.id, 'account_number_forged'), headersOf(delivery)),
    ).toThrow(InvalidIncreaseWebhook);
    const other = createIncreaseClient({ ...options(), webhookSecret: 'another-secret' });
    expect(() => other.unwrapWebhook(delivery.body, headersOf(delivery))).toThrow(InvalidIncreaseWebhook);
    expect(() => bank.unwrapWebhook(delivery.body, {})).toThrow(InvalidIncreaseWebhook);
    const { 'webhook-signature': _, ...unsigned } = headersOf(delivery);
    expect(() => bank.unwrapWebhook(delivery.body, unsigned)).toThrow(InvalidIncreaseWebhook);
  });

  it('a webhook sent twice carries the same webhook-id both times, and each copy verifies', async () => {
    sim.faults.duplicateWebhooks = 1;
    const number = await bank.openAccountNumber({ name: 'twice', idempotencyKey: 'acc_hook_twice' });
    await sim.settled();
    const copies = deliveries.filter((d) => d.body.includes(number.id));
    expect(copies).toHaveLength(2);
    expect(copies[0]?.headers['webhook-id']).toBe(copies[1]?.headers['webhook-id']);
    const ids = copies.map((copy) => bank.unwrapWebhook(copy.body, headersOf(copy)).id);
    expect(ids[0]).toBe(ids[1]);
  });

  it('accepts a signature made by the Standard Webhooks reference library (https://www.standardwebhooks.com)', () => {
    const body = JSON.stringify({
      id: 'event_001dzz0r20rzr4zrhrr1364hy80',
      associated_object_id: 'inbound_ach_transfer_tdrwqr3fq9gnnq49odev',
      associated_object_type: 'inbound_ach_transfer',
      category: 'inbound_ach_transfer.created',
      created_at: new Date().toISOString(),
      type: 'event',
    });
    const at = new Date();
    const signer = new Webhook(`whsec_${Buffer.from(SECRET).toString('base64')}`);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signer.sign('msg_1', at, body),
    };
    expect(bank.unwrapWebhook(body, headers).id).toBe('event_001dzz0r20rzr4zrhrr1364hy80');
    const stale = new Date(at.getTime() - 10 * 60_000);
    const old = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(stale.getTime() / 1000)),
      'webhook-signature': signer.sign('msg_1', stale, body),
    };
    expect(() => bank.unwrapWebhook(body, old)).toThrow(InvalidIncreaseWebhook);
  });

  it('lists events since an instant (https://increase.com/documentation/api/events)', async () => {
    const since = new Date(Date.now() - 1000);
    const number = await bank.openAccountNumber({ name: 'events', idempotencyKey: 'acc_ev_1' });
    const seen: string[] = [];
    for await (const event of bank.eventsSince(since)) seen.push(event.associated_object_id);
    expect(seen).toContain(number.id);
  });
});

describe('faults', () => {
  it('a 5xx is retried by the SDK and the call succeeds (https://increase.com/documentation/api#errors)', async () => {
    const retrying = createIncreaseClient({ ...options(), maxRetries: 2 });
    sim.faults.failNext = 1;
    const number = await retrying.openAccountNumber({ name: 'retry', idempotencyKey: 'acc_retry' });
    expect(number.status).toBe('active');
  });

  it('a 5xx without retries left reaches the caller as an error', async () => {
    sim.faults.failNext = 1;
    await expect(bank.openAccountNumber({ name: 'x', idempotencyKey: 'acc_fail' })).rejects.toMatchObject({
      status: 500,
    });
  });

  it('an event may come before its object is readable: the read answers 404 until it is', async () => {
    const number = await bank.openAccountNumber({ name: 'early', idempotencyKey: 'acc_early' });
    sim.faults.hideNextObjects = 1;
    const inbound = await simulate.inboundAch(number.id, 900n);
    await expect(bank.inboundAchTransfer(inbound.id)).rejects.toBeInstanceOf(ObjectNotFoundError);
    sim.reveal();
    expect((await bank.inboundAchTransfer(inbound.id)).id).toBe(inbound.id);
  });
});

describe('the simulator holds requests to the SDK shapes', () => {
  it('a body the SDK would not send is a violation, answered 400', async () => {
    const response = await fetch(`${sim.url}/account_numbers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SIMULATOR_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        account_id: SIMULATOR_ACCOUNT_ID,
        nickname: 'x',
        inbound_ach: { debit_status: 'maybe' },
      }),
    });
    expect(response.status).toBe(400);
    expect(sim.violations).toEqual([
      'POST /account_numbers /name: required',
      'POST /account_numbers /inbound_ach/debit_status: "maybe" is not "allowed" | "blocked"',
      'POST /account_numbers /nickname: not a field of AccountNumberCreateParams',
    ]);
    sim.violations.length = 0;
  });

  it('a listing query outside the SDK parameters is a violation', async () => {
    const response = await fetch(`${sim.url}/ach_transfers?created_at.since=2020-01-01&limit=many`, {
      headers: { authorization: `Bearer ${SIMULATOR_API_KEY}` },
    });
    expect(response.status).toBe(400);
    expect(sim.violations).toHaveLength(2);
    sim.violations.length = 0;
  });

  it('a request without the API key is refused (https://increase.com/documentation/api#authentication)', async () => {
    const wrong = createIncreaseClient({ ...options(), apiKey: 'wrong' });
    await expect(wrong.accountNumber('account_number_x')).rejects.toBeInstanceOf(InvalidAPIKeyError);
  });
});

describe('routing numbers (https://increase.com/documentation/api/routing-numbers)', () => {
  it('names the bank of a routing number, and knows none for an unknown one', async () => {
    expect(await bank.routingNumber(SIMULATOR_ROUTING_NUMBER)).toMatchObject({
      name: 'FIRST INTERNET BANK OF INDIANA',
      ach_transfers: 'supported',
      wire_transfers: 'supported',
    });
    expect(await bank.routingNumber('123456780')).toBeUndefined();
  });
});
