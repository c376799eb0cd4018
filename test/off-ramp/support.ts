/** Helpers for money-out tests: funded customers, their PIX accounts, off-ramps and ledger reads. */
import { expect } from 'vitest';
import { accountBody, selfBody } from '../bank-accounts/bodies.ts';
import { approvedCustomer, type CustomerView, individualBody } from '../helpers/factories.ts';
import { type Client, eventually, type TestServer } from '../helpers/server.ts';
import { createOnRamp } from '../transactions/support.ts';

export type Funded = { customer: CustomerView; accountId: string };

/** An approved customer with a SELF PIX account. */
export async function customerWithAccount(api: Client): Promise<Funded> {
  const customer = await approvedCustomer(api, individualBody());
  const response = await api.post('/bank-accounts', selfBody(customer));
  if (response.statusCode !== 201) throw new Error(`bank account: ${response.statusCode} ${response.body}`);
  return { customer, accountId: response.json().id };
}

/** A third-party account of the customer, still UNDER_VERIFICATION. */
export async function thirdPartyAccount(api: Client, customerId: string): Promise<string> {
  const response = await api.post('/bank-accounts', accountBody(customerId));
  if (response.statusCode !== 201) throw new Error(`bank account: ${response.statusCode} ${response.body}`);
  return response.json().id;
}

/** Brings BRL in through a sandbox on-ramp and waits for SUCCESS; returns the stablecoin credited. */
export async function fund(api: Client, customerId: string, amount: string, targetCurrency = 'USDC') {
  const created = await createOnRamp(api, customerId, amount, { targetCurrency });
  const response = await api.post(`/sandbox/transactions/${created.id}/deposit`, {});
  if (response.statusCode !== 200) throw new Error(`deposit: ${response.statusCode} ${response.body}`);
  const done = response.json();
  expect(done.status).toBe('SUCCESS');
  return done.receipt.targetAmount as string;
}

export async function balances(api: Client, customerId: string): Promise<Record<string, string>> {
  const body = (await api.get(`/customers/${customerId}/balances`)).json();
  return Object.fromEntries(
    body.balances.map((b: { currency: string; amount: string }) => [b.currency, b.amount]),
  );
}

export function offRamp(api: Client, body: Record<string, unknown>, headers?: Record<string, string>) {
  return api.post('/transactions/off-ramp', { purpose: 'PERSONAL_ACCOUNT', ...body }, headers);
}

/** Waits until the transaction reaches a final status (or `until`). */
export async function settled(api: Client, id: string, until = ['SUCCESS', 'FAILED', 'RETURNED']) {
  return eventually(
    () => api.get(`/transactions/${id}`).then((r) => r.json()),
    (t) => until.includes(t.status),
    10_000,
  );
}

/** The ledger's own sum of a customer's entries per currency, as the platform owes it (negated). */
export async function ledgerBalances(
  server: TestServer,
  customerId: string,
): Promise<Record<string, bigint>> {
  const rows = await server.ctx.db.query<{ currency: string; total: string }>(
    `SELECT currency, (-sum(amount))::text AS total FROM ledger_entries WHERE customer_id = $1 GROUP BY currency`,
    [customerId],
  );
  return Object.fromEntries(rows.map((r) => [r.currency, BigInt(r.total)]));
}

/** Journals that do not sum to zero in some currency (always none). */
export async function unbalanced(server: TestServer) {
  return server.ctx.db.query(
    'SELECT journal_id, currency FROM ledger_entries GROUP BY journal_id, currency HAVING sum(amount) <> 0',
  );
}

export async function eventTypes(server: TestServer, resourceId: string): Promise<string[]> {
  const rows = await server.ctx.db.query<{ type: string }>(
    'SELECT type FROM events WHERE resource_id = $1 ORDER BY created_at, id',
    [resourceId],
  );
  return rows.map((r) => r.type);
}

export async function operatorPost(server: TestServer, url: string, payload: object) {
  return server.operator.inject({
    method: 'POST',
    url,
    payload,
    headers: { authorization: `Bearer ${server.operatorToken}` },
  });
}
