/**
 * A compliance hold stops money at the moment it would leave, not only at creation (PRODUCT.md,
 * "Screening and the Travel Rule"): a refund of a held customer is refused like every other movement; a
 * payout or refund accepted before the hold waits, its reserve kept, until the case is decided
 * (confirmed: FAILED, reserve released; cleared: it proceeds).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenSubject } from '../../src/modules/screening/service.ts';
import { type Client, client, type TestServer } from '../helpers/server.ts';
import { importFixture, OFAC_DIR } from '../screening/support.ts';
import { createOnRamp, type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';
import { balances, customerWithAccount } from './support.ts';

let server: IsolatedServer;
let sandbox: Client;
let projectId: string;

beforeAll(async () => {
  server = await startIsolatedServer();
  const tenant = await server.newTenant();
  projectId = tenant.projectId;
  sandbox = client(server.sandbox, tenant.sandboxKey);
  await importFixture(server, 'ofac-sdn', OFAC_DIR);
});
afterAll(async () => {
  await server.close();
});

/** OFAC fixture entry 90004. */
const LISTED = {
  name: 'João Carlos dos Santos da Silva',
  kind: 'INDIVIDUAL',
  birthDate: '1975-02-02',
} as const;

/**
 * Puts a customer on hold the way a re-screening does when a new list version names it: a case opened
 * under the customer's row lock, with its event. Returns the case's id.
 */
async function putOnHold(
  target: TestServer,
  tenant: { projectId: string; environment: 'sandbox' | 'production' },
  customerId: string,
): Promise<string> {
  const opened = await target.ctx.db.transaction((tx) =>
    screenSubject(
      tx,
      { type: 'CUSTOMER', id: customerId, customerId, tenant, party: { ...LISTED, country: 'BRA' } },
      target.config.screening.threshold,
      target.ctx.clock(),
    ),
  );
  if (!opened) throw new Error('the listed name opened no case');
  return opened.row.id;
}

async function _decide(target: TestServer, caseId: string, decision: 'CLEAR' | 'CONFIRM') {
  const response = await target.operator.inject({
    method: 'POST',
    url: `/operator/screening/cases/${caseId}/decision`,
    payload: { decision, comment: 'reviewed against the list entry' },
    headers: { authorization: `Bearer ${target.operatorToken}` },
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** A sandbox on-ramp whose deposit was paid short: its BRL is held for refund in the customer's balance. */
async function heldDeposit(customerId: string, requested: string, paid: string) {
  const created = await createOnRamp(sandbox, customerId, requested);
  const failed = (await sandbox.post(`/sandbox/transactions/${created.id}/deposit`, { amount: paid })).json();
  expect(failed.status).toBe('FAILED');
  return failed;
}

const journalCount = async () =>
  Number((await server.ctx.db.query<{ n: bigint }>('SELECT count(*) AS n FROM ledger_journals'))[0]!.n);

describe('compliance holds on money already on its way out', () => {
  it('refuses a refund of a customer on compliance hold with 409 compliance_hold, changing nothing', async () => {
    const { customer } = await customerWithAccount(sandbox);
    const failed = await heldDeposit(customer.id, '30.00', '20.00');
    await putOnHold(server, { projectId, environment: 'sandbox' }, customer.id);
    const journals = await journalCount();
    const response = await sandbox.post(`/transactions/${failed.id}/refund`, {});
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'compliance_hold', subjectType: 'CUSTOMER' });
    expect((await sandbox.get(`/transactions/${failed.id}`)).json().refund).toBeNull();
    expect((await balances(sandbox, customer.id)).BRL).toBe('20.00');
    expect(await journalCount()).toBe(journals);
    const payouts = await server.ctx.db.query('SELECT 1 FROM pix_payouts WHERE transaction_id = $1', [
      failed.id,
    ]);
    expect(payouts).toEqual([]);
  });
});
