import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOLDER_STATUSES, HOLDER_TRANSITIONS } from '../../src/modules/bank-accounts/holder-state.ts';
import { accountBody, selfBody } from '../bank-accounts/bodies.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { auditOf, manualClock, operatorClient } from './support.ts';

const clock = manualClock();
let server: TestServer;
let sandbox: Client;
let operator: Client;

beforeAll(async () => {
  server = await startTestServer({ clock });
  const tenant = await server.newTenant();
  sandbox = client(server.sandbox, tenant.sandboxKey);
  operator = operatorClient(server);
});
afterAll(() => server.close());

async function thirdPartyAccount(api = sandbox) {
  const customer = await approvedCustomer(api);
  const response = await api.post('/bank-accounts', accountBody(customer.id));
  if (response.statusCode !== 201) throw new Error(`bank account: ${response.statusCode} ${response.body}`);
  const account = response.json();
  expect(account.holder.verification.status).toBe('UNDER_VERIFICATION');
  return account;
}

const reviewUrl = (id: string) => `/operator/bank-accounts/${id}/holder-review`;
const DECISION = {
  APPROVED: { status: 'APPROVED' },
  FINAL_REJECTION: { status: 'FINAL_REJECTION', reviewComment: 'Holder appears on a sanctions list' },
} as const;

describe('POST /operator/bank-accounts/{id}/holder-review', () => {
  it('approves a third-party holder: the partner sees it, and the audit log records it', async () => {
    const account = await thirdPartyAccount();
    const at = clock.advance();
    const response = await operator.post(reviewUrl(account.id), DECISION.APPROVED);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: account.id,
      holder: { verification: { status: 'APPROVED', level: 'BASIC' } },
    });
    const seen = (await sandbox.get(`/bank-accounts/${account.id}`)).json();
    expect(seen).toEqual({
      ...account,
      holder: { ...account.holder, verification: { status: 'APPROVED', level: 'BASIC' } },
      updatedAt: at,
    });
    expect(await auditOf(server, account.id)).toEqual([
      expect.objectContaining({
        actor: 'bootstrap',
        action: 'bank_account.holder_reviewed',
        before: { holderVerificationStatus: 'UNDER_VERIFICATION' },
        after: { holderVerificationStatus: 'APPROVED', reviewComment: null },
        created_at: new Date(at),
      }),
    ]);
  });

  it('needs a comment to reject a holder', async () => {
    const account = await thirdPartyAccount();
    const response = await operator.post(reviewUrl(account.id), { status: 'FINAL_REJECTION' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { pointer: '/body/reviewComment', message: 'is required with FINAL_REJECTION' },
    ]);
    expect((await sandbox.get(`/bank-accounts/${account.id}`)).json().holder.verification.status).toBe(
      'UNDER_VERIFICATION',
    );
  });

  // Every decision from every holder status of HOLDER_TRANSITIONS.
  for (const from of HOLDER_STATUSES) {
    for (const to of ['APPROVED', 'FINAL_REJECTION'] as const) {
      const legal = HOLDER_TRANSITIONS[from].includes(to);
      it(`${from} → ${to}: ${legal ? 'decided' : '409, nothing written'}`, async () => {
        const account = await thirdPartyAccount();
        if (from !== 'UNDER_VERIFICATION') await operator.post(reviewUrl(account.id), DECISION[from]);
        const before = (await sandbox.get(`/bank-accounts/${account.id}`)).json();
        const audits = (await auditOf(server, account.id)).length;
        const response = await operator.post(reviewUrl(account.id), DECISION[to]);
        if (legal) {
          expect(response.statusCode).toBe(200);
          expect(response.json().holder.verification.status).toBe(to);
          expect(await auditOf(server, account.id)).toHaveLength(audits + 1);
        } else {
          expect(response.statusCode).toBe(409);
          expect(response.json().code).toBe('invalid_state_transition');
          expect((await sandbox.get(`/bank-accounts/${account.id}`)).json()).toEqual(before);
          expect(await auditOf(server, account.id)).toHaveLength(audits);
        }
      });
    }
  }

  it('answers 404 for a removed or unknown account', async () => {
    const account = await thirdPartyAccount();
    expect((await sandbox.delete(`/bank-accounts/${account.id}`)).statusCode).toBe(204);
    expect((await operator.post(reviewUrl(account.id), DECISION.APPROVED)).statusCode).toBe(404);
    expect(
      (await operator.post(reviewUrl('00000000-0000-4000-8000-000000000000'), DECISION.APPROVED)).statusCode,
    ).toBe(404);
  });
});

describe('GET /operator/bank-accounts', () => {
  it('lists the holders waiting for screening, oldest first, without the approved ones', async () => {
    const tenant = await server.newTenant('Holder partner');
    const api = client(server.sandbox, tenant.sandboxKey);
    const first = await thirdPartyAccount(api);
    clock.advance();
    const second = await thirdPartyAccount(api);
    const customer = await approvedCustomer(api);
    const own = (await api.post('/bank-accounts', selfBody(customer))).json();
    expect(own.holder.verification.status).toBe('APPROVED');
    const queue = (await operator.get(`/operator/bank-accounts?projectId=${tenant.projectId}`)).json();
    expect(queue.data.map((a: { id: string }) => a.id)).toEqual([first.id, second.id]);
    expect(queue.data[0]).toEqual({ ...first, projectId: tenant.projectId, environment: 'sandbox' });
    const approved = (
      await operator.get(`/operator/bank-accounts?projectId=${tenant.projectId}&holderStatus=APPROVED`)
    ).json();
    expect(approved.data.map((a: { id: string }) => a.id)).toEqual([own.id]);
    const selfOnly = (
      await operator.get(`/operator/bank-accounts?projectId=${tenant.projectId}&relationship=SELF`)
    ).json();
    expect(selfOnly.data).toEqual([]);
    expect((await operator.get(`/operator/bank-accounts/${first.id}`)).json()).toEqual(queue.data[0]);
  });
});
