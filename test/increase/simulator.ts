/**
 * A bank simulator: Increase's API (https://increase.com/documentation/api) as far as Ponte uses it, over
 * HTTP, for the official SDK to be pointed at with its `baseURL` option.
 *
 * Held to Increase's published shapes, not to Ponte's reading of them:
 * - every request body and listing query is checked against the parameter type the official SDK declares
 *   for the route, and every answer against its object type (sdk-shapes.ts); a violation is recorded
 *   (tests assert there are none) and answered 400, so a request the SDK would not send fails the test;
 * - requests need `Authorization: Bearer <key>` (https://increase.com/documentation/api#authentication);
 * - a POST repeated with the same `Idempotency-Key` answers the object the first one created
 *   (https://increase.com/documentation/idempotency-keys), with another body it is a 409;
 * - the sandbox simulation routes produce the inbound transfers and payout outcomes
 *   (https://increase.com/documentation/sandbox): `POST /simulations/inbound_ach_transfers` (accepted at
 *   once, or `pending` with `resolve_at`; declined for a disabled account number),
 *   `POST /simulations/inbound_wire_transfers`, `POST /simulations/ach_transfers/{id}/submit|settle|return`,
 *   `POST /simulations/wire_transfers/{id}/submit|reverse`;
 * - each state change records an Event (https://increase.com/documentation/events) and posts it, signed the
 *   Standard Webhooks way with the subscription's secret (https://increase.com/documentation/webhooks), to
 *   the webhook address when one is set;
 * - faults on demand: the next answers fail with a 5xx, or are lost after the request was carried out (the
 *   connection drops, as when the caller is killed mid-call), or never come after it was carried out (the
 *   caller's timeout ends the wait), the next creating POSTs are refused as
 *   invalid (Increase's `invalid_parameters_error`, 400, nothing created:
 *   https://increase.com/documentation/api#errors), the next webhooks are lost or sent twice, an event
 *   arrives before its object is readable;
 * - `hooks.beforeAnswer(method, path)`: awaited once a request was carried out and before it is answered
 *   (for a test to kill its caller between the two).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Increase from 'increase';
import { Webhook } from 'standardwebhooks';
import { createShapeChecker, type ShapeName } from './sdk-shapes.ts';

export const SIMULATOR_API_KEY = 'sandbox_simulator_key';
export const SIMULATOR_ACCOUNT_ID = 'account_simulator00000001';
/** The routing number of the simulator's account numbers (First Internet Bank of Indiana's). */
export const SIMULATOR_ROUTING_NUMBER = '074920909';

/** The banks `GET /routing_numbers` knows, by ABA routing number (names as the Federal Reserve lists them). */
const BANKS: Record<string, string> = {
  '074920909': 'FIRST INTERNET BANK OF INDIANA',
  '021000021': 'JPMORGAN CHASE BANK, NA',
  '026009593': 'BANK OF AMERICA, N.A.',
  '101050001': 'COMMERCE BANK',
};

type Json = Record<string, unknown>;
type Answer = { status: number; body: unknown; shape?: ShapeName };
type Route = {
  method: string;
  path: RegExp;
  body?: ShapeName;
  query?: ShapeName;
  handle(match: RegExpMatchArray, body: Json, query: URLSearchParams): Answer;
};

const shape = (file: string, type: string): ShapeName => ({ file: `resources/${file}`, type });
const SHAPES = {
  accountNumber: shape('account-numbers', 'AccountNumber'),
  accountNumberCreate: shape('account-numbers', 'AccountNumberCreateParams'),
  accountNumberUpdate: shape('account-numbers', 'AccountNumberUpdateParams'),
  accountNumberList: shape('account-numbers', 'AccountNumberListParams'),
  inboundAch: shape('inbound-ach-transfers', 'InboundACHTransfer'),
  inboundAchList: shape('inbound-ach-transfers', 'InboundACHTransferListParams'),
  inboundAchReturn: shape('inbound-ach-transfers', 'InboundACHTransferTransferReturnParams'),
  inboundWire: shape('inbound-wire-transfers', 'InboundWireTransfer'),
  inboundWireList: shape('inbound-wire-transfers', 'InboundWireTransferListParams'),
  inboundWireReverse: shape('inbound-wire-transfers', 'InboundWireTransferReverseParams'),
  ach: shape('ach-transfers', 'ACHTransfer'),
  achCreate: shape('ach-transfers', 'ACHTransferCreateParams'),
  achList: shape('ach-transfers', 'ACHTransferListParams'),
  wire: shape('wire-transfers', 'WireTransfer'),
  wireCreate: shape('wire-transfers', 'WireTransferCreateParams'),
  wireList: shape('wire-transfers', 'WireTransferListParams'),
  routingNumber: shape('routing-numbers', 'RoutingNumberListResponse'),
  routingNumberList: shape('routing-numbers', 'RoutingNumberListParams'),
  event: shape('events', 'Event'),
  eventList: shape('events', 'EventListParams'),
  simulateInboundAch: shape('simulations/inbound-ach-transfers', 'InboundACHTransferCreateParams'),
  simulateInboundWire: shape('simulations/inbound-wire-transfers', 'InboundWireTransferCreateParams'),
  simulateAchReturn: shape('simulations/ach-transfers', 'ACHTransferReturnParams'),
  simulateAchSettle: shape('simulations/ach-transfers', 'ACHTransferSettleParams'),
} as const;

export type IncreaseSimulator = Awaited<ReturnType<typeof startIncreaseSimulator>>;

export async function startIncreaseSimulator(options: {
  /** The subscription's secret; webhooks are signed with it. */
  webhookSecret: string;
  /** Where events are posted; none until set. */
  webhookUrl?: string;
  /** The instant objects are created at (the tests' clock). */
  now?: () => Date;
  /**
   * How many times a webhook answered other than 2xx is delivered again, with doubling pauses from 250 ms
   * (Increase retries failed deliveries: https://increase.com/documentation/webhooks); none by default.
   */
  webhookRetries?: number;
}) {
  const webhookRetries = options.webhookRetries ?? 0;
  const checker = createShapeChecker([...new Set(Object.values(SHAPES).map((s) => s.file))]);
  const now = options.now ?? (() => new Date());
  const signer = new Webhook(`whsec_${Buffer.from(options.webhookSecret).toString('base64')}`);
  const violations: string[] = [];
  const requests: { method: string; path: string; query: string; body: Json; key: string | null }[] = [];
  const accountNumbers = new Map<string, Increase.AccountNumber>();
  const inboundAch = new Map<string, Increase.InboundACHTransfer>();
  const inboundWires = new Map<string, Increase.InboundWireTransfer>();
  const achTransfers = new Map<string, Increase.ACHTransfer>();
  const wireTransfers = new Map<string, Increase.WireTransfer>();
  const events = new Map<string, Increase.Event>();
  const idempotency = new Map<string, { request: string; answer: Answer }>();
  /**
   * failNext: answer 500 without acting; loseAnswers: act, then drop the connection before answering;
   * stallAnswers: act, then never answer (the client's own timeout ends the wait); refuseNext: answer the
   * next creating POSTs 400 `invalid_parameters_error`, creating nothing.
   */
  const faults = {
    failNext: 0,
    loseAnswers: 0,
    stallAnswers: 0,
    refuseNext: 0,
    loseWebhooks: 0,
    duplicateWebhooks: 0,
    hideNextObjects: 0,
    holdWebhooks: false,
  };
  const hidden = new Set<string>();
  /** Deliveries kept back while `faults.holdWebhooks` is set, for `releaseWebhooks` to send in any order. */
  const held: (() => Promise<void>)[] = [];
  /** Deliveries under way (each leaves the set once answered for the last time). */
  const deliveries = new Set<Promise<unknown>>();
  const track = (delivery: Promise<unknown>) => {
    deliveries.add(delivery);
    void delivery.finally(() => deliveries.delete(delivery));
  };
  const allDelivered = async () => {
    while (deliveries.size > 0) await Promise.all([...deliveries]);
  };
  /** How the webhook receiver answered: by HTTP status, or by the error that stopped the delivery. */
  const webhookAnswers = new Map<string, number>();
  const count = (tally: Map<string, number>, key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
  const state = { webhookUrl: options.webhookUrl, sequence: 0 };
  /** Awaited after a request was carried out, before its answer is sent. */
  const hooks: { beforeAnswer?: (method: string, path: string) => Promise<void> | void } = {};

  const id = (prefix: string) => {
    state.sequence += 1;
    return `${prefix}_${state.sequence.toString(36).padStart(6, '0')}${randomBytes(6).toString('hex')}`;
  };
  const iso = () => now().toISOString();
  const today = () => iso().slice(0, 10);
  const notFound = (what: string): Answer => ({
    status: 404,
    body: { status: 404, type: 'object_not_found_error', title: `${what} could not be found.`, detail: null },
  });
  /** A request the object's state does not allow (Increase's `invalid_operation_error`, 409). */
  const refused = (detail: string): Answer => ({
    status: 409,
    body: { status: 409, type: 'invalid_operation_error', title: detail, detail: null },
  });
  const invalid = (detail: string): Answer => ({
    status: 400,
    body: { status: 400, type: 'invalid_parameters_error', title: detail, detail, errors: [] },
  });
  const ok = (body: unknown, shapeName: ShapeName, status = 200): Answer => ({
    status,
    body,
    shape: shapeName,
  });

  function record(category: Increase.Event['category'], objectId: string, objectType: string): void {
    const event: Increase.Event = {
      id: id('event'),
      associated_object_id: objectId,
      associated_object_type: objectType,
      category,
      created_at: iso(),
      type: 'event',
    };
    events.set(event.id, event);
    if (faults.hideNextObjects > 0) {
      faults.hideNextObjects -= 1;
      hidden.add(objectId);
    }
    deliver(event);
  }

  function deliver(event: Increase.Event): void {
    const url = state.webhookUrl;
    if (!url) return;
    if (faults.loseWebhooks > 0) {
      faults.loseWebhooks -= 1;
      return;
    }
    let copies = 1;
    if (faults.duplicateWebhooks > 0) {
      faults.duplicateWebhooks -= 1;
      copies = 2;
    }
    const body = JSON.stringify(event);
    /** One delivery; answered other than 2xx (or not at all), tried again as Increase does, if asked to. */
    const send = async (attempt: number): Promise<void> => {
      const messageId = `msg_${event.id}`;
      const at = now();
      const headers = {
        'content-type': 'application/json',
        'webhook-id': messageId,
        'webhook-timestamp': Math.floor(at.getTime() / 1000).toString(),
        'webhook-signature': signer.sign(messageId, at, body),
      };
      let outcome: string;
      try {
        const answer = await fetch(url, { method: 'POST', headers, body });
        await answer.arrayBuffer();
        outcome = String(answer.status);
        if (answer.ok) return void count(webhookAnswers, outcome);
      } catch (error) {
        outcome = error instanceof Error ? error.name : 'error';
      }
      count(webhookAnswers, outcome);
      if (attempt >= webhookRetries) return;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
      await send(attempt + 1);
    };
    for (let copy = 0; copy < copies; copy++) {
      if (faults.holdWebhooks) held.push(() => send(0));
      else track(send(0));
    }
  }

  function achOf(transferId: string) {
    return achTransfers.get(transferId);
  }

  // ---- objects ------------------------------------------------------------------------------------------

  function newAccountNumber(body: Json, key: string | null): Increase.AccountNumber {
    const inbound = body.inbound_ach as { debit_status?: 'allowed' | 'blocked' } | undefined;
    const checks = body.inbound_checks as { status?: 'allowed' | 'check_transfers_only' } | undefined;
    return {
      id: id('account_number'),
      account_id: String(body.account_id),
      // unique across simulators sharing a database, as a bank's numbers are unique
      account_number: `9${randomInt(100_000_000, 1_000_000_000)}${accountNumbers.size % 10}`,
      created_at: iso(),
      idempotency_key: key,
      inbound_ach: { debit_status: inbound?.debit_status ?? 'allowed' },
      inbound_checks: { status: checks?.status ?? 'check_transfers_only' },
      name: String(body.name),
      routing_number: SIMULATOR_ROUTING_NUMBER,
      status: 'active',
      type: 'account_number',
    };
  }

  function newInboundAch(number: Increase.AccountNumber, body: Json): Increase.InboundACHTransfer {
    const amount = Number(body.amount);
    const pending = typeof body.resolve_at === 'string';
    const declined = number.status !== 'active';
    const transfer: Increase.InboundACHTransfer = {
      id: id('inbound_ach_transfer'),
      acceptance: null,
      account_id: number.account_id,
      account_number_id: number.id,
      addenda: null,
      amount: Math.abs(amount),
      automatically_resolves_at: pending ? String(body.resolve_at) : iso(),
      created_at: iso(),
      decline: null,
      direction: amount >= 0 ? 'credit' : 'debit',
      effective_date: today(),
      international_addenda: null,
      notification_of_change: null,
      originator_company_descriptive_date: (body.company_descriptive_date as string | undefined) ?? null,
      originator_company_discretionary_data: (body.company_discretionary_data as string | undefined) ?? null,
      originator_company_entry_description:
        (body.company_entry_description as string | undefined) ?? 'PAYMENT',
      originator_company_id: (body.company_id as string | undefined) ?? '1234567890',
      originator_company_name: (body.company_name as string | undefined) ?? 'SANDBOX ORIGINATOR',
      originator_routing_number: '101050001',
      receiver_id_number: (body.receiver_id_number as string | undefined) ?? null,
      receiver_name: (body.receiver_name as string | undefined) ?? null,
      settlement: { settled_at: iso(), settlement_schedule: 'same_day' },
      standard_entry_class_code:
        (body.standard_entry_class_code as
          | Increase.InboundACHTransfer['standard_entry_class_code']
          | undefined) ?? 'corporate_credit_or_debit',
      status: declined ? 'declined' : pending ? 'pending' : 'accepted',
      trace_number: `10105000${String(state.sequence).padStart(7, '0')}`,
      transfer_return: null,
      type: 'inbound_ach_transfer',
    };
    if (declined) {
      transfer.decline = {
        declined_at: iso(),
        declined_transaction_id: id('declined_transaction'),
        reason: number.status === 'disabled' ? 'ach_route_disabled' : 'ach_route_canceled',
      };
    } else if (!pending) {
      transfer.acceptance = { accepted_at: iso(), transaction_id: id('transaction') };
    }
    return transfer;
  }

  function newInboundWire(number: Increase.AccountNumber, body: Json): Increase.InboundWireTransfer {
    const text = (name: string) => (body[name] as string | undefined) ?? null;
    const declined = number.status !== 'active';
    return {
      id: id('inbound_wire_transfer'),
      acceptance: declined ? null : { accepted_at: iso(), transaction_id: id('transaction') },
      account_id: number.account_id,
      account_number_id: number.id,
      amount: Number(body.amount),
      created_at: iso(),
      creditor_address_line1: text('creditor_address_line1'),
      creditor_address_line2: text('creditor_address_line2'),
      creditor_address_line3: text('creditor_address_line3'),
      creditor_name: text('creditor_name'),
      debtor_account_number: '987654321',
      debtor_address_line1: text('debtor_address_line1'),
      debtor_address_line2: text('debtor_address_line2'),
      debtor_address_line3: text('debtor_address_line3'),
      debtor_name: text('debtor_name') ?? 'SANDBOX DEBTOR',
      debtor_routing_number: '101050001',
      description: 'Inbound wire transfer',
      end_to_end_identification: text('end_to_end_identification'),
      input_message_accountability_data: `${today().replaceAll('-', '')}SANDBOX${state.sequence}`,
      instructing_agent_routing_number: text('instructing_agent_routing_number'),
      instruction_identification: text('instruction_identification'),
      purpose: text('purpose'),
      reversal: null,
      status: declined ? 'declined' : 'accepted',
      type: 'inbound_wire_transfer',
      unique_end_to_end_transaction_reference: text('unique_end_to_end_transaction_reference'),
      unstructured_remittance_information: text('unstructured_remittance_information'),
      wire_drawdown_request_id: text('wire_drawdown_request_id'),
    };
  }

  function newAch(body: Json, key: string | null): Increase.ACHTransfer {
    return {
      id: id('ach_transfer'),
      account_id: String(body.account_id),
      account_number: String(body.account_number ?? ''),
      acknowledgement: null,
      addenda: null,
      amount: Number(body.amount),
      approval: null,
      cancellation: null,
      company_descriptive_date: null,
      company_discretionary_data: null,
      company_entry_description: null,
      company_id: '1234987601',
      company_name: (body.company_name as string | undefined) ?? 'PONTE',
      created_at: iso(),
      created_by: { category: 'api_key', api_key: { description: null } },
      currency: 'USD',
      destination_account_holder:
        (body.destination_account_holder as Increase.ACHTransfer['destination_account_holder'] | undefined) ??
        'business',
      external_account_id: null,
      funding: (body.funding as Increase.ACHTransfer['funding'] | undefined) ?? 'checking',
      idempotency_key: key,
      inbound_funds_hold: null,
      individual_id: (body.individual_id as string | undefined) ?? null,
      individual_name: (body.individual_name as string | undefined) ?? null,
      network: 'ach',
      notifications_of_change: [],
      pending_transaction_id: id('pending_transaction'),
      preferred_effective_date: { date: null, settlement_schedule: 'same_day' },
      return: null,
      routing_number: String(body.routing_number ?? ''),
      settlement: null,
      // the SDK documents CCD as the default when none is sent
      standard_entry_class_code:
        (body.standard_entry_class_code as Increase.ACHTransfer['standard_entry_class_code'] | undefined) ??
        'corporate_credit_or_debit',
      statement_descriptor: String(body.statement_descriptor),
      status: 'pending_submission',
      submission: null,
      transaction_id: null,
      type: 'ach_transfer',
    };
  }

  function newWire(body: Json, key: string | null): Increase.WireTransfer {
    const creditor = body.creditor as { name: string; address?: { unstructured?: Json } };
    const lines = creditor.address?.unstructured;
    const remittance = body.remittance as Increase.WireTransfer.Remittance;
    return {
      id: id('wire_transfer'),
      account_id: String(body.account_id),
      account_number: String(body.account_number ?? ''),
      amount: Number(body.amount),
      approval: null,
      cancellation: null,
      created_at: iso(),
      created_by: { category: 'api_key', api_key: { description: null } },
      creditor: {
        name: creditor.name,
        address: lines
          ? {
              unstructured: {
                line1: (lines.line1 as string | undefined) ?? null,
                line2: (lines.line2 as string | undefined) ?? null,
                line3: (lines.line3 as string | undefined) ?? null,
              },
            }
          : null,
      },
      currency: 'USD',
      debtor: null,
      external_account_id: null,
      idempotency_key: key,
      inbound_wire_drawdown_request_id: null,
      network: 'wire',
      pending_transaction_id: id('pending_transaction'),
      remittance,
      reversal: null,
      routing_number: String(body.routing_number ?? ''),
      source_account_number_id: null,
      status: 'pending_creating',
      submission: null,
      transaction_id: null,
      type: 'wire_transfer',
      unique_end_to_end_transaction_reference: null,
    };
  }

  // ---- listings -----------------------------------------------------------------------------------------

  /** Increase's list envelope (`data`, `next_cursor`), newest first; `cursor` is the offset here. */
  function page<T extends { created_at: string; id: string }>(
    items: Iterable<T>,
    query: URLSearchParams,
    keep: (item: T) => boolean,
  ): Json {
    const after = query.get('created_at.after');
    const all = [...items]
      .filter((item) => !hidden.has(item.id))
      .filter((item) => (after ? item.created_at > after : true))
      .filter(keep)
      .reverse();
    const limit = Number(query.get('limit') ?? 100);
    const offset = Number(query.get('cursor') ?? 0);
    const data = all.slice(offset, offset + limit);
    return { data, next_cursor: offset + limit < all.length ? String(offset + limit) : null };
  }
  const byAccount = (query: URLSearchParams) => (item: { account_id: string }) =>
    !query.get('account_id') || item.account_id === query.get('account_id');
  const byKey = (query: URLSearchParams) => (item: { idempotency_key: string | null }) =>
    !query.get('idempotency_key') || item.idempotency_key === query.get('idempotency_key');

  /** `status.in`, as the SDK sends an array in a query: `status.in=a,b` (repeated keys read too). */
  const byStatus = (query: URLSearchParams) => (item: { status: string }) => {
    const wanted = query.getAll('status.in').flatMap((value) => value.split(','));
    return wanted.length === 0 || wanted.includes(item.status);
  };

  function readable<T>(map: Map<string, T>, objectId: string): T | undefined {
    if (hidden.has(objectId)) return undefined;
    return map.get(objectId);
  }

  // ---- routes -------------------------------------------------------------------------------------------

  const routes: Route[] = [
    {
      method: 'POST',
      path: /^\/account_numbers$/,
      body: SHAPES.accountNumberCreate,
      handle: (_m, body) => {
        if (body.account_id !== SIMULATOR_ACCOUNT_ID) return notFound('Account');
        return { status: 0, body };
      },
    },
    {
      method: 'GET',
      path: /^\/account_numbers\/([^/]+)$/,
      handle: (m) => {
        const found = accountNumbers.get(m[1] as string);
        return found ? ok(found, SHAPES.accountNumber) : notFound('Account Number');
      },
    },
    {
      method: 'PATCH',
      path: /^\/account_numbers\/([^/]+)$/,
      body: SHAPES.accountNumberUpdate,
      handle: (m, body) => {
        const found = accountNumbers.get(m[1] as string);
        if (!found) return notFound('Account Number');
        if (found.status === 'canceled') return refused('A canceled Account Number cannot be updated.');
        if (typeof body.name === 'string') found.name = body.name;
        const status = body.status as Increase.AccountNumber['status'] | undefined;
        if (status) found.status = status;
        record('account_number.updated', found.id, 'account_number');
        return ok(found, SHAPES.accountNumber);
      },
    },
    {
      method: 'GET',
      path: /^\/account_numbers$/,
      query: SHAPES.accountNumberList,
      handle: (_m, _b, query) =>
        ok(page(accountNumbers.values(), query, byAccount(query)), SHAPES.accountNumber),
    },
    {
      method: 'GET',
      path: /^\/inbound_ach_transfers\/([^/]+)$/,
      handle: (m) => {
        const found = readable(inboundAch, m[1] as string);
        return found ? ok(found, SHAPES.inboundAch) : notFound('Inbound ACH Transfer');
      },
    },
    {
      method: 'GET',
      path: /^\/inbound_ach_transfers$/,
      query: SHAPES.inboundAchList,
      handle: (_m, _b, query) => ok(page(inboundAch.values(), query, byAccount(query)), SHAPES.inboundAch),
    },
    {
      method: 'POST',
      path: /^\/inbound_ach_transfers\/([^/]+)\/transfer_return$/,
      body: SHAPES.inboundAchReturn,
      handle: (m, body) => {
        const found = inboundAch.get(m[1] as string);
        if (!found) return notFound('Inbound ACH Transfer');
        // https://increase.com/documentation/receiving-ach-transfers: a credit can be returned while it is
        // pending or once accepted; not twice, and not one that was declined
        if (found.status !== 'pending' && found.status !== 'accepted') {
          return refused(`An Inbound ACH Transfer that is ${found.status} cannot be returned.`);
        }
        found.status = 'returned';
        found.transfer_return = {
          reason: body.reason as Increase.InboundACHTransfer.TransferReturn['reason'],
          returned_at: iso(),
          transaction_id: id('transaction'),
        };
        record('inbound_ach_transfer.updated', found.id, 'inbound_ach_transfer');
        return ok(found, SHAPES.inboundAch);
      },
    },
    {
      method: 'GET',
      path: /^\/inbound_wire_transfers\/([^/]+)$/,
      handle: (m) => {
        const found = readable(inboundWires, m[1] as string);
        return found ? ok(found, SHAPES.inboundWire) : notFound('Inbound Wire Transfer');
      },
    },
    {
      method: 'GET',
      path: /^\/inbound_wire_transfers$/,
      query: SHAPES.inboundWireList,
      handle: (_m, _b, query) => ok(page(inboundWires.values(), query, byAccount(query)), SHAPES.inboundWire),
    },
    {
      method: 'POST',
      path: /^\/inbound_wire_transfers\/([^/]+)\/reverse$/,
      body: SHAPES.inboundWireReverse,
      handle: (m, body) => {
        const found = inboundWires.get(m[1] as string);
        if (!found) return notFound('Inbound Wire Transfer');
        if (found.status !== 'accepted') {
          return refused(`An Inbound Wire Transfer that is ${found.status} cannot be reversed.`);
        }
        found.status = 'reversed';
        found.reversal = {
          reason: body.reason as Increase.InboundWireTransfer.Reversal['reason'],
          reversed_at: iso(),
        };
        record('inbound_wire_transfer.updated', found.id, 'inbound_wire_transfer');
        return ok(found, SHAPES.inboundWire);
      },
    },
    {
      method: 'POST',
      path: /^\/ach_transfers$/,
      body: SHAPES.achCreate,
      handle: (_m, body) => ({ status: 0, body }),
    },
    {
      method: 'GET',
      path: /^\/ach_transfers\/([^/]+)$/,
      handle: (m) => {
        const found = readable(achTransfers, m[1] as string);
        return found ? ok(found, SHAPES.ach) : notFound('ACH Transfer');
      },
    },
    {
      method: 'GET',
      path: /^\/ach_transfers$/,
      query: SHAPES.achList,
      handle: (_m, _b, query) =>
        ok(
          page(
            achTransfers.values(),
            query,
            (t) => byAccount(query)(t) && byKey(query)(t) && byStatus(query)(t),
          ),
          SHAPES.ach,
        ),
    },
    {
      method: 'POST',
      path: /^\/wire_transfers$/,
      body: SHAPES.wireCreate,
      handle: (_m, body) => ({ status: 0, body }),
    },
    {
      method: 'GET',
      path: /^\/wire_transfers\/([^/]+)$/,
      handle: (m) => {
        const found = readable(wireTransfers, m[1] as string);
        return found ? ok(found, SHAPES.wire) : notFound('Wire Transfer');
      },
    },
    {
      method: 'GET',
      path: /^\/wire_transfers$/,
      query: SHAPES.wireList,
      handle: (_m, _b, query) =>
        ok(
          page(
            wireTransfers.values(),
            query,
            (t) => byAccount(query)(t) && byKey(query)(t) && byStatus(query)(t),
          ),
          SHAPES.wire,
        ),
    },
    {
      method: 'GET',
      path: /^\/routing_numbers$/,
      query: SHAPES.routingNumberList,
      handle: (_m, _b, query) => {
        const number = query.get('routing_number') ?? '';
        const name = BANKS[number];
        const data: Increase.RoutingNumberListResponse[] = name
          ? [
              {
                ach_transfers: 'supported',
                fednow_transfers: 'not_supported',
                name,
                real_time_payments_request_for_payment: 'not_supported',
                real_time_payments_transfers: 'not_supported',
                routing_number: number,
                type: 'routing_number',
                wire_transfers: 'supported',
              },
            ]
          : [];
        return ok({ data, next_cursor: null }, SHAPES.routingNumber);
      },
    },
    {
      method: 'GET',
      path: /^\/events\/([^/]+)$/,
      handle: (m) => {
        const found = events.get(m[1] as string);
        return found ? ok(found, SHAPES.event) : notFound('Event');
      },
    },
    {
      method: 'GET',
      path: /^\/events$/,
      query: SHAPES.eventList,
      handle: (_m, _b, query) =>
        ok(
          page(events.values(), query, () => true),
          SHAPES.event,
        ),
    },
    {
      method: 'POST',
      path: /^\/simulations\/inbound_ach_transfers$/,
      body: SHAPES.simulateInboundAch,
      handle: (_m, body) => {
        const number = accountNumbers.get(String(body.account_number_id));
        if (!number) return notFound('Account Number');
        const transfer = newInboundAch(number, body);
        inboundAch.set(transfer.id, transfer);
        record('inbound_ach_transfer.created', transfer.id, 'inbound_ach_transfer');
        return ok(transfer, SHAPES.inboundAch);
      },
    },
    {
      method: 'POST',
      path: /^\/simulations\/inbound_wire_transfers$/,
      body: SHAPES.simulateInboundWire,
      handle: (_m, body) => {
        const number = accountNumbers.get(String(body.account_number_id));
        if (!number) return notFound('Account Number');
        const transfer = newInboundWire(number, body);
        inboundWires.set(transfer.id, transfer);
        record('inbound_wire_transfer.created', transfer.id, 'inbound_wire_transfer');
        return ok(transfer, SHAPES.inboundWire);
      },
    },
    {
      method: 'POST',
      path: /^\/simulations\/ach_transfers\/([^/]+)\/submit$/,
      handle: (m) => {
        const transfer = achOf(m[1] as string);
        if (!transfer) return notFound('ACH Transfer');
        if (transfer.status !== 'pending_submission')
          return refused(`The ACH Transfer is ${transfer.status}.`);
        submitAch(transfer);
        return ok(transfer, SHAPES.ach);
      },
    },
    {
      method: 'POST',
      path: /^\/simulations\/ach_transfers\/([^/]+)\/settle$/,
      body: SHAPES.simulateAchSettle,
      handle: (m) => {
        const transfer = achOf(m[1] as string);
        if (!transfer) return notFound('ACH Transfer');
        if (transfer.status === 'pending_submission') submitAch(transfer);
        if (transfer.status !== 'submitted') return refused(`The ACH Transfer is ${transfer.status}.`);
        transfer.settlement = { settled_at: iso() };
        record('ach_transfer.updated', transfer.id, 'ach_transfer');
        return ok(transfer, SHAPES.ach);
      },
    },
    {
      method: 'POST',
      path: /^\/simulations\/ach_transfers\/([^/]+)\/return$/,
      body: SHAPES.simulateAchReturn,
      handle: (m, body) => {
        const transfer = achOf(m[1] as string);
        if (!transfer) return notFound('ACH Transfer');
        if (transfer.status === 'pending_submission') submitAch(transfer);
        if (transfer.status !== 'submitted') return refused(`The ACH Transfer is ${transfer.status}.`);
        // the simulation's reason defaults to `no_account` (R03) when none is given
        const reason =
          (body.reason as Increase.ACHTransfer.Return['return_reason_code'] | undefined) ?? 'no_account';
        transfer.status = 'returned';
        transfer.return = {
          addenda_information: null,
          created_at: iso(),
          raw_return_reason_code: '',
          return_reason_code: reason,
          trace_number: transfer.submission?.trace_number ?? '',
          transaction_id: id('transaction'),
          transfer_id: transfer.id,
        };
        record('ach_transfer.updated', transfer.id, 'ach_transfer');
        return ok(transfer, SHAPES.ach);
      },
    },
    {
      method: 'POST',
      path: /^\/simulations\/wire_transfers\/([^/]+)\/submit$/,
      handle: (m) => {
        const transfer = wireTransfers.get(m[1] as string);
        if (!transfer) return notFound('Wire Transfer');
        if (transfer.status !== 'pending_creating')
          return refused(`The Wire Transfer is ${transfer.status}.`);
        transfer.status = 'complete';
        transfer.submission = {
          input_message_accountability_data: `SANDBOX${state.sequence}`,
          submitted_at: iso(),
        };
        transfer.transaction_id = id('transaction');
        record('wire_transfer.updated', transfer.id, 'wire_transfer');
        return ok(transfer, SHAPES.wire);
      },
    },
    {
      method: 'POST',
      path: /^\/simulations\/wire_transfers\/([^/]+)\/reverse$/,
      handle: (m) => {
        const transfer = wireTransfers.get(m[1] as string);
        if (!transfer) return notFound('Wire Transfer');
        if (transfer.status !== 'complete') return refused(`The Wire Transfer is ${transfer.status}.`);
        transfer.status = 'reversed';
        transfer.reversal = {
          amount: transfer.amount,
          created_at: iso(),
          debtor_routing_number: transfer.routing_number,
          description: 'Sandbox reversal',
          input_cycle_date: today(),
          input_message_accountability_data: `SANDBOX${state.sequence}`,
          input_sequence_number: String(state.sequence),
          input_source: 'sandbox',
          instruction_identification: null,
          return_reason_additional_information: null,
          return_reason_code: null,
          return_reason_code_description: null,
          transaction_id: id('transaction'),
          wire_transfer_id: transfer.id,
        };
        record('wire_transfer.updated', transfer.id, 'wire_transfer');
        return ok(transfer, SHAPES.wire);
      },
    },
  ];

  function submitAch(transfer: Increase.ACHTransfer): void {
    transfer.status = 'submitted';
    transfer.submission = {
      administrative_returns_expected_by: iso(),
      effective_date: today(),
      expected_funds_settlement_at: iso(),
      expected_settlement_schedule: 'same_day',
      submitted_at: iso(),
      trace_number: `07492090${String(state.sequence).padStart(7, '0')}`,
    };
    transfer.transaction_id = id('transaction');
    record('ach_transfer.updated', transfer.id, 'ach_transfer');
  }

  /** The creating POSTs, with their idempotency key (answers repeat; a different body is a 409). */
  function create(path: string, body: Json, key: string | null): Answer {
    if (body.account_id !== SIMULATOR_ACCOUNT_ID) return notFound('Account');
    if (path === '/account_numbers') {
      const number = newAccountNumber(body, key);
      accountNumbers.set(number.id, number);
      record('account_number.created', number.id, 'account_number');
      return ok(number, SHAPES.accountNumber);
    }
    if (path === '/ach_transfers') {
      if (!body.routing_number || !body.account_number) {
        return invalid('Either external_account_id or account_number and routing_number is required.');
      }
      const transfer = newAch(body, key);
      achTransfers.set(transfer.id, transfer);
      record('ach_transfer.created', transfer.id, 'ach_transfer');
      return ok(transfer, SHAPES.ach);
    }
    const transfer = newWire(body, key);
    wireTransfers.set(transfer.id, transfer);
    record('wire_transfer.created', transfer.id, 'wire_transfer');
    return ok(transfer, SHAPES.wire);
  }

  function answer(method: string, url: URL, body: Json, key: string | null): Answer {
    const route = routes.find((r) => r.method === method && r.path.test(url.pathname));
    if (!route) {
      violations.push(`${method} ${url.pathname}: not a route of Increase's API the simulator knows`);
      return {
        status: 404,
        body: { status: 404, type: 'api_method_not_found_error', title: 'No such API method.', detail: null },
      };
    }
    const problems = [
      ...(route.body ? checker.body(route.body, body, 'request') : []),
      ...(route.query ? checker.query(route.query, url.searchParams) : []),
    ];
    if (problems.length > 0) {
      violations.push(...problems.map((p) => `${method} ${url.pathname} ${p}`));
      return invalid(problems.join('; '));
    }
    const match = url.pathname.match(route.path) as RegExpMatchArray;
    const handled = route.handle(match, body, url.searchParams);
    if (handled.status !== 0) return handled;
    if (faults.refuseNext > 0) {
      faults.refuseNext -= 1;
      return {
        status: 400,
        body: {
          status: 400,
          type: 'invalid_parameters_error',
          title: 'Invalid parameters.',
          detail: 'The destination account number is not valid for this routing number.',
          errors: [{ field: 'account_number', message: 'is not valid for this routing number' }],
        },
      };
    }
    // a creating POST: honour its idempotency key (https://increase.com/documentation/idempotency-keys)
    const request = JSON.stringify(body);
    if (key) {
      const seen = idempotency.get(`${url.pathname}#${key}`);
      if (seen) {
        if (seen.request !== request) {
          return {
            status: 409,
            body: {
              status: 409,
              type: 'idempotency_key_already_used_error',
              title: 'The idempotency key was already used with other parameters.',
              detail: null,
              resource_id: (seen.answer.body as { id?: string }).id ?? null,
            },
          };
        }
        return seen.answer;
      }
    }
    const created = create(url.pathname, body, key);
    if (key && created.status === 200)
      idempotency.set(`${url.pathname}#${key}`, { request, answer: created });
    return created;
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://simulator');
      const raw = await readBody(req);
      const method = req.method ?? 'GET';
      let body: Json = {};
      if (raw) {
        try {
          body = JSON.parse(raw) as Json;
        } catch {
          violations.push(`${method} ${url.pathname}: the body is not JSON`);
          return send(res, 400, invalid('The body is not JSON.').body);
        }
      }
      const header = req.headers['idempotency-key'];
      const idempotencyKey = typeof header === 'string' ? header : null;
      requests.push({ method, path: url.pathname, query: url.search, body, key: idempotencyKey });
      if (req.headers.authorization !== `Bearer ${SIMULATOR_API_KEY}`) {
        return send(res, 401, {
          status: 401,
          type: 'invalid_api_key_error',
          title: 'The API key is invalid.',
          detail: null,
          reason: req.headers.authorization ? 'no_credential' : 'no_header',
        });
      }
      if (faults.failNext > 0) {
        faults.failNext -= 1;
        return send(res, 500, {
          status: 500,
          type: 'internal_server_error',
          title: 'Internal server error',
          detail: null,
        });
      }
      const key = method === 'POST' ? idempotencyKey : null;
      const result = answer(method, url, body, key);
      if (result.shape && result.status === 200) {
        const list = Array.isArray((result.body as Json).data);
        const items = list ? ((result.body as Json).data as unknown[]) : [result.body];
        for (const item of items) {
          for (const problem of checker.body(result.shape, item, 'answer')) {
            violations.push(`answer to ${method} ${url.pathname} ${problem}`);
          }
        }
      }
      await hooks.beforeAnswer?.(method, url.pathname);
      if (faults.loseAnswers > 0) {
        faults.loseAnswers -= 1;
        res.socket?.destroy();
        return;
      }
      // carried out and left unanswered: the connection stays open until the client gives up on it
      if (faults.stallAnswers > 0) {
        faults.stallAnswers -= 1;
        return;
      }
      send(res, result.status, result.body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    violations,
    requests,
    faults,
    hooks,
    webhookAnswers,
    accountNumbers,
    inboundAch,
    inboundWires,
    achTransfers,
    wireTransfers,
    events,
    setWebhookUrl(url: string | undefined) {
      state.webhookUrl = url;
    },
    /** Sends the webhooks held back, newest first: events that arrive out of the order they happened in. */
    releaseWebhooks() {
      faults.holdWebhooks = false;
      for (const send of held.splice(0).reverse()) track(send());
    },
    /** Makes hidden objects readable again (the "event before its object" fault ends). */
    reveal() {
      hidden.clear();
    },
    /** Waits for every webhook posted so far to be answered. */
    async settled() {
      await allDelivered();
    },
    async close() {
      await allDelivered();
      // a request of Ponte's answered a moment ago keeps its connection in fetch's pool: not waited on
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
