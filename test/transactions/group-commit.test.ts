/**
 * Concurrent on-ramp and off-ramp creations of different customers commit together (group commit): one
 * transaction locks their customers, reads what each decides on and writes every accepted one, each
 * answer stored under its own `Idempotency-Key` in that transaction. A refusal stays its own request's;
 * a batch whose transaction fails is run again one creation at a time.
 */
import { randomUUID } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable, Transaction, TxOptions } from '../../src/db/types.ts';
import { createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, eventually } from '../helpers/server.ts';
import { balances, customerWithAccount, fund, ledgerBalances, unbalanced } from '../off-ramp/support.ts';
import { approvedIndividual, type IsolatedServer, startIsolatedServer } from './support.ts';

let server: IsolatedServer;
let sandbox: Client;

beforeAll(async () => {
  // bursts of creations through one key: what is measured is the batches, not the per-key rate limit
  server = await startIsolatedServer({
    env: { PONTE_RATE_LIMIT_PER_SECOND: '1000000', PONTE_RATE_LIMIT_BURST: '1000000' },
  });
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(async () => {
  await server.close();
});

type Watch = {
  /** The statements of each database transaction begun while watching. */
  transactions: string[][];
  /** The parameters of each transaction's statements, in the same order. */
  params: (readonly unknown[] | undefined)[][];
  /** Requests whose route handler has started so far. */
  handled(): number;
  stop(): void;
};

/** Fastify announces each route handler's start here, just before calling it. */
const handlerStart = diagnostics.channel('tracing:fastify.request.handler:start');

/**
 * Watches the service's database: records each transaction's statements; holds every transaction at
 * its start until the handlers of `requests` requests have started (a handler hands its creation to the
 * batches before it first waits, so the creations behind them are then all waiting for a batch);
 * `failOnce` makes the first statement matching it fail.
 */
function watch(requests: number, failOnce?: RegExp): Watch {
  const db = server.ctx.db;
  const { transaction } = db;
  const transactions: string[][] = [];
  const params: (readonly unknown[] | undefined)[][] = [];
  let handled = 0;
  let open: () => void = () => {};
  const allHandled = new Promise<void>((resolve) => {
    open = resolve;
  });
  const onHandler = () => {
    if (++handled === requests) open();
  };
  handlerStart.subscribe(onHandler);
  let failed = false;
  const recorded = (
    tx: Queryable,
    statements: string[],
    values: (readonly unknown[] | undefined)[],
  ): Queryable => ({
    ...tx,
    query: (text, params) => {
      statements.push(text);
      values.push(params);
      if (failOnce && !failed && failOnce.test(text)) {
        failed = true;
        return Promise.reject(new Error('the batch statement failed'));
      }
      return tx.query(text, params);
    },
  });
  db.transaction = (<T>(work: (tx: Transaction) => Promise<T>, options?: TxOptions) =>
    allHandled.then(() =>
      transaction.call<Database, [(tx: Transaction) => Promise<T>, TxOptions | undefined], Promise<T>>(
        db,
        (tx) => {
          const statements: string[] = [];
          const values: (readonly unknown[] | undefined)[] = [];
          transactions.push(statements);
          params.push(values);
          return work({ ...tx, ...recorded(tx, statements, values) } as Transaction);
        },
        options,
      ),
    )) as Database['transaction'];
  return {
    transactions,
    params,
    handled: () => handled,
    stop() {
      handlerStart.unsubscribe(onHandler);
      db.transaction = transaction;
    },
  };
}

type Answer = Awaited<ReturnType<Client['post']>>;

/**
 * Sends `requests` with the database watched (see `watch`) and returns their answers, in order. From
 * index `laterFrom` on, a request is sent only once the handlers of those before it have started: those
 * beyond the batches that may run at once then wait for a batch, which the later ones join.
 */
async function sendWatched<R>(
  requests: readonly R[],
  send: (request: R) => Promise<Answer>,
  options: { laterFrom?: number; failOnce?: RegExp } = {},
): Promise<{ answers: Answer[]; watching: Watch }> {
  const laterFrom = options.laterFrom ?? requests.length;
  const watching = watch(requests.length, options.failOnce);
  try {
    const first = requests.slice(0, laterFrom).map(send);
    await eventually(
      async () => watching.handled(),
      (n) => n >= laterFrom,
    );
    const answers = await Promise.all([...first, ...requests.slice(laterFrom).map(send)]);
    return { answers, watching };
  } finally {
    watching.stop();
  }
}

const creations = (transactions: string[][]) =>
  transactions.filter((statements) => statements.some((text) => /INSERT INTO transactions/.test(text)));

const keyed = (api: Client, customerId: string, amount: string, key: string) =>
  api.post('/transactions/on-ramp', { customerId, currency: 'BRL', amount }, { 'idempotency-key': key });

describe('group commit of on-ramp creations', () => {
  it('creates concurrent on-ramps of different customers in shared transactions, each answered and replayed under its own key', async () => {
    const customers = await Promise.all(Array.from({ length: 12 }, () => approvedIndividual(sandbox)));
    const keys = customers.map(() => `batch-${randomUUID()}`);
    const { answers, watching } = await sendWatched([...customers.entries()], ([i, c]) =>
      keyed(sandbox, c.id, '100.00', keys[i]!),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(customers.map(() => 201));
    const bodies = answers.map((a) => a.json());
    expect(bodies.map((b) => b.customerId)).toEqual(customers.map((c) => c.id));
    expect(new Set(bodies.map((b) => b.id)).size).toBe(customers.length);

    // fewer transactions than creations: at least one wrote several, with every answer it committed
    const written = creations(watching.transactions);
    expect(written.length).toBeLessThan(customers.length);
    const shared = written.find((statements) =>
      statements.some((text) => /jsonb_populate_recordset/.test(text)),
    );
    expect(shared).toBeDefined();
    const answersStored = written
      .flat()
      .filter((text) => /UPDATE idempotency_keys SET response_status/.test(text)).length;
    expect(answersStored).toBe(customers.length);

    // each key replays its own answer and creates nothing more
    for (const [i, customer] of customers.entries()) {
      const again = await keyed(sandbox, customer.id, '100.00', keys[i]!);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(bodies[i]);
      const list = await sandbox.get(`/transactions?customerId=${customer.id}`);
      expect(list.json().data.map((t: { id: string }) => t.id)).toEqual([bodies[i].id]);
    }
    // one transaction.created event per creation
    const events = await server.ctx.db.query<{ resource_id: string }>(
      `SELECT resource_id FROM events WHERE type = 'transaction.created' AND resource_id = ANY($1::uuid[])`,
      [bodies.map((b) => b.id)],
    );
    expect(events.map((e) => e.resource_id).sort()).toEqual(bodies.map((b) => b.id).sort());
  });

  it('refuses an unknown customer, an unapproved one and one over its limit alone, in a batch whose other creations commit', async () => {
    const customers = await Promise.all(Array.from({ length: 10 }, () => approvedIndividual(sandbox)));
    // the sandbox never approves a tax ID ending in 1
    const unapproved = await createCustomer(sandbox, individualBody({ taxId: validCpf('1') }));
    const unknown = randomUUID();
    const requests = [
      ...customers.map((c) => ({ customerId: c.id, amount: '100.00', status: 201 })),
      { customerId: unknown, amount: '100.00', status: 404 },
      { customerId: unapproved.id, amount: '100.00', status: 409 },
      // above the single limit of an individual (7,500.00)
      { customerId: customers[0]!.id, amount: '8000.00', status: 422 },
    ];
    // the refusals join a batch of creations that commit
    const { answers, watching } = await sendWatched(
      requests,
      (r) => keyed(sandbox, r.customerId, r.amount, `refusal-${randomUUID()}`),
      { laterFrom: customers.length },
    );
    expect(answers.map((a) => a.statusCode)).toEqual(requests.map((r) => r.status));
    expect(answers[10]!.json().code).toBe('not_found');
    expect(answers[11]!.json().code).toBe('customer_not_approved');
    expect(answers[12]!.json().code).toBe('limit_exceeded');
    // the transaction that looked for the unknown customer wrote other creations and committed them
    const withUnknown = watching.params.findIndex((values) =>
      values.some((v) => Array.isArray(v?.[0]) && (v[0] as string[]).includes(unknown)),
    );
    expect(withUnknown).toBeGreaterThanOrEqual(0);
    expect(watching.transactions[withUnknown]!.some((text) => /jsonb_populate_recordset/.test(text))).toBe(
      true,
    );
    for (const customer of customers) {
      const list = await sandbox.get(`/transactions?customerId=${customer.id}`);
      expect(list.json().pagination.total).toBe(1);
    }
  });

  it('runs each creation of a batch whose transaction failed again in a transaction of its own', async () => {
    const customers = await Promise.all(Array.from({ length: 6 }, () => approvedIndividual(sandbox)));
    const { answers, watching } = await sendWatched(
      customers,
      (c) => keyed(sandbox, c.id, '100.00', `retry-${randomUUID()}`),
      { failOnce: /jsonb_populate_recordset/ },
    );
    expect(answers.map((a) => a.statusCode)).toEqual(customers.map(() => 201));
    const failedBatch = watching.transactions.find((statements) =>
      statements.some((text) => /jsonb_populate_recordset/.test(text)),
    );
    expect(failedBatch).toBeDefined();
    for (const customer of customers) {
      const list = await sandbox.get(`/transactions?customerId=${customer.id}`);
      expect(list.json().pagination.total).toBe(1);
    }
  });
});

describe('group commit of off-ramp creations', () => {
  it('reserves concurrent off-ramps of different customers in shared transactions, refusing insufficient funds and an unknown account alone', async () => {
    const funded = await Promise.all(Array.from({ length: 8 }, () => customerWithAccount(sandbox)));
    for (const { customer } of funded) await fund(sandbox, customer.id, '100.00');
    const before = await Promise.all(funded.map(({ customer }) => balances(sandbox, customer.id)));
    const [unknownAccount, unfunded] = await Promise.all([
      customerWithAccount(sandbox),
      customerWithAccount(sandbox),
    ]);
    const requests = [
      ...funded.map(({ customer, accountId }) => ({ customer, accountId, amount: '5.00', status: 201 })),
      // customers of their own: a batch takes one creation per customer
      { ...unknownAccount, accountId: randomUUID(), amount: '5.00', status: 404 },
      { ...unfunded, amount: '5.00', status: 422 },
    ];
    const send = (r: (typeof requests)[number]) =>
      sandbox.post(
        '/transactions/off-ramp',
        {
          customerId: r.customer.id,
          bankAccountId: r.accountId,
          sourceCurrency: 'USDC',
          sourceAmount: r.amount,
          purpose: 'PERSONAL_ACCOUNT',
        },
        { 'idempotency-key': `off-ramp-${randomUUID()}` },
      );
    // the refusals join a batch of reserves that commit
    const { answers, watching } = await sendWatched(requests, send, { laterFrom: funded.length });
    expect(answers.map((a) => a.statusCode)).toEqual(requests.map((r) => r.status));
    expect(answers[8]!.json().code).toBe('not_found');
    expect(answers[9]!.json().code).toBe('insufficient_funds');
    const written = creations(watching.transactions);
    expect(written.length).toBeLessThan(funded.length);
    // the batch that refused both wrote reserves for the others, each with its answer
    const refusing = watching.params.findIndex((values) =>
      values.some((v) =>
        v?.some((param) => Array.isArray(param) && (param as string[]).includes(requests[8]!.accountId)),
      ),
    );
    expect(refusing).toBeGreaterThanOrEqual(0);
    const batch = watching.transactions[refusing]!;
    expect(batch.some((text) => /INSERT INTO ledger_journals/.test(text))).toBe(true);
    expect(
      written.flat().filter((text) => /UPDATE idempotency_keys SET response_status/.test(text)).length,
    ).toBe(funded.length);
    expect(await unbalanced(server)).toEqual([]);
    for (const [i, { customer }] of funded.entries()) {
      const usdc = (await ledgerBalances(server, customer.id)).USDC!;
      expect(usdc).toBe(BigInt(before[i]!.USDC!.replace('.', '')) - 5_000000n);
    }
  });
});
