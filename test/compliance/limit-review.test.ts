import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LIMIT_REQUEST_TRANSITIONS,
  REVIEW_DECISION_NAMES,
  REVIEW_DECISIONS,
} from '../../src/modules/limit-requests/review.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer, usingPostgres } from '../helpers/server.ts';
import { form, PDF } from './files.ts';
import { auditOf, eventsOf, manualClock, operatorClient } from './support.ts';

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

type Amounts = { single?: string; daily?: string; monthly?: string };

async function openRequest(
  requested: Amounts = { single: '10000.00', daily: '20000.00', monthly: '40000.00' },
  api = sandbox,
) {
  const customer = await approvedCustomer(api);
  const response = await api.post(`/customers/${customer.id}/limit-requests`, { requested });
  if (response.statusCode !== 201) throw new Error(`limit request: ${response.statusCode} ${response.body}`);
  return { customer, request: response.json() };
}

const reviewUrl = (id: string) => `/operator/limit-requests/${id}/review`;
const readRequest = async (customerId: string, id: string) =>
  (await sandbox.get(`/customers/${customerId}/limit-requests/${id}`)).json();

/** A valid body for each decision, for a request of the default amounts. */
const VALID: Record<string, object> = {
  APPROVE: { decision: 'APPROVE' },
  PARTIALLY_APPROVE: {
    decision: 'PARTIALLY_APPROVE',
    approved: { single: '10000.00', daily: '15000.00', monthly: '30000.00' },
    reviewComment: 'Income supports a lower daily limit',
  },
  REJECT: { decision: 'REJECT', reviewComment: 'Statement does not support the amounts' },
};

describe('POST /operator/limit-requests/{id}/review', () => {
  it('APPROVE grants the requested amounts, stamps updatedAt, records the event and the audit row', async () => {
    const { customer, request } = await openRequest({ single: '10000.00', monthly: '40000.00' });
    const at = clock.advance(60_000);
    const response = await operator.post(reviewUrl(request.id), { decision: 'APPROVE' });
    expect(response.statusCode).toBe(200);
    const reviewed = response.json();
    expect(reviewed).toEqual({
      ...request,
      status: 'APPROVED',
      approved: { single: '10000.00', daily: null, monthly: '40000.00' },
      reviewComment: null,
      updatedAt: at,
    });
    expect(await readRequest(customer.id, request.id)).toEqual(reviewed);
    expect((await eventsOf(server, request.id)).map((e) => [e.type, e.data])).toEqual([
      ['limit_request.created', request],
      ['limit_request.reviewed', reviewed],
    ]);
    expect(await auditOf(server, request.id)).toEqual([
      {
        actor: 'bootstrap',
        action: 'limit_request.reviewed',
        resource_type: 'limit_request',
        resource_id: request.id,
        before: { status: 'IN_REVIEW' },
        after: { decision: 'APPROVE', status: 'APPROVED', approved: reviewed.approved, reviewComment: null },
        created_at: new Date(at),
      },
    ]);
  });

  it('APPROVE keeps a comment when one is given, and accepts approved amounts equal to the requested ones', async () => {
    const { request } = await openRequest({ daily: '20000.00' });
    const response = await operator.post(reviewUrl(request.id), {
      decision: 'APPROVE',
      approved: { daily: '20000' },
      reviewComment: 'Salary slips attached',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      approved: { daily: '20000.00' },
      reviewComment: 'Salary slips attached',
    });
  });

  it('APPROVE with other amounts than the requested ones is refused with 400', async () => {
    const { request } = await openRequest({ daily: '20000.00' });
    const response = await operator.post(reviewUrl(request.id), {
      decision: 'APPROVE',
      approved: { daily: '15000.00' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].pointer).toBe('/body/approved');
  });

  it('PARTIALLY_APPROVE grants lower amounts for the requested limits, with the comment', async () => {
    const { customer, request } = await openRequest();
    const at = clock.advance();
    const response = await operator.post(reviewUrl(request.id), VALID.PARTIALLY_APPROVE);
    expect(response.statusCode).toBe(200);
    const reviewed = response.json();
    expect(reviewed).toMatchObject({
      status: 'PARTIALLY_APPROVED',
      approved: { single: '10000.00', daily: '15000.00', monthly: '30000.00' },
      reviewComment: 'Income supports a lower daily limit',
      updatedAt: at,
    });
    expect(await readRequest(customer.id, request.id)).toEqual(reviewed);
  });

  it('PARTIALLY_APPROVE refuses, each with its pointer: no comment, no amounts, an amount above the request, an amount not requested, a requested limit left out, nothing lower, amounts out of order', async () => {
    const { customer, request } = await openRequest({ single: '10000.00', daily: '20000.00' });
    const cases: [object, string[]][] = [
      [{ approved: { single: '9000.00', daily: '20000.00' } }, ['/body/reviewComment']],
      [{ reviewComment: 'x' }, ['/body/approved']],
      [
        { approved: { single: '11000.00', daily: '15000.00' }, reviewComment: 'x' },
        ['/body/approved/single'],
      ],
      [
        { approved: { single: '9000.00', daily: '20000.00', monthly: '30000.00' }, reviewComment: 'x' },
        ['/body/approved/monthly'],
      ],
      [{ approved: { single: '9000.00' }, reviewComment: 'x' }, ['/body/approved/daily']],
      [{ approved: { single: '10000.00', daily: '20000.00' }, reviewComment: 'x' }, ['/body/approved']],
      [{ approved: { single: '9000.00', daily: '8000.00' }, reviewComment: 'x' }, ['/body/approved/single']],
      [{ approved: { single: '0.00', daily: '8000.00' }, reviewComment: 'x' }, ['/body/approved/single']],
      [{ approved: { single: '9000.00', daily: '15000.00' }, reviewComment: '   ' }, ['/body/reviewComment']],
    ];
    for (const [body, pointers] of cases) {
      const response = await operator.post(reviewUrl(request.id), { decision: 'PARTIALLY_APPROVE', ...body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        response.json().errors.map((e: { pointer: string }) => e.pointer),
        JSON.stringify(body),
      ).toEqual(pointers);
    }
    expect(await readRequest(customer.id, request.id)).toEqual(request);
    expect(await auditOf(server, request.id)).toEqual([]);
  });

  it('REJECT leaves approved null and needs a comment', async () => {
    const { customer, request } = await openRequest();
    const noComment = await operator.post(reviewUrl(request.id), { decision: 'REJECT' });
    expect(noComment.statusCode).toBe(400);
    expect(noComment.json().errors).toEqual([
      { pointer: '/body/reviewComment', message: 'is required with REJECT' },
    ]);
    const withAmounts = await operator.post(reviewUrl(request.id), {
      ...VALID.REJECT,
      approved: { single: '5000.00' },
    });
    expect(withAmounts.statusCode).toBe(400);
    expect(withAmounts.json().errors[0].pointer).toBe('/body/approved');
    const at = clock.advance();
    const response = await operator.post(reviewUrl(request.id), VALID.REJECT);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'REJECTED',
      approved: { single: null, daily: null, monthly: null },
      reviewComment: 'Statement does not support the amounts',
      updatedAt: at,
    });
    expect(await readRequest(customer.id, request.id)).toEqual(response.json());
  });

  // Every decision from every state of LIMIT_REQUEST_TRANSITIONS: only IN_REVIEW moves.
  for (const [from, decisionThatGotThere] of [
    ['APPROVED', 'APPROVE'],
    ['PARTIALLY_APPROVED', 'PARTIALLY_APPROVE'],
    ['REJECTED', 'REJECT'],
  ] as const) {
    for (const decision of REVIEW_DECISION_NAMES) {
      const legal = LIMIT_REQUEST_TRANSITIONS[from].includes(REVIEW_DECISIONS[decision].status);
      it(`${decision} of a request already ${from}: ${legal ? 'moves' : '409, nothing written'}`, async () => {
        const { customer, request } = await openRequest();
        await operator.post(reviewUrl(request.id), VALID[decisionThatGotThere]);
        const before = await readRequest(customer.id, request.id);
        expect(before.status).toBe(from);
        const response = await operator.post(reviewUrl(request.id), VALID[decision]);
        expect(response.statusCode).toBe(409);
        expect(response.json().code).toBe('invalid_state_transition');
        expect(await readRequest(customer.id, request.id)).toEqual(before);
        expect(await eventsOf(server, request.id)).toHaveLength(2);
        expect(await auditOf(server, request.id)).toHaveLength(1);
      });
    }
  }

  it('answers 404 for an unknown request, 400 for an unknown decision and 401 without a token', async () => {
    const unknown = await operator.post(reviewUrl('00000000-0000-4000-8000-000000000000'), VALID.APPROVE);
    expect(unknown.statusCode).toBe(404);
    const { request } = await openRequest();
    const badDecision = await operator.post(reviewUrl(request.id), { decision: 'MAYBE' });
    expect(badDecision.statusCode).toBe(400);
    expect(badDecision.json().errors[0].pointer).toBe('/body/decision');
    const anonymous = await server.operator.inject({
      method: 'POST',
      url: reviewUrl(request.id),
      payload: VALID.APPROVE,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('a grant becomes the limit in force of the customer', async () => {
    const { customer, request } = await openRequest({ daily: '18000.00' });
    await operator.post(reviewUrl(request.id), VALID.APPROVE);
    const limits = (await sandbox.get(`/customers/${customer.id}?includeTransactionLimits=true`)).json()
      .transactionLimits;
    expect(limits).toEqual({
      single: { max: '7500.00' },
      daily: { max: '18000.00', used: '0.00', remaining: '18000.00' },
      monthly: { max: '15000.00', used: '0.00', remaining: '15000.00' },
    });
  });

  describe.runIf(usingPostgres())('under contention', () => {
    it('operators reviewing the same request at the same moment: exactly one wins, the others get 409', async () => {
      const { customer, request } = await openRequest();
      const second = operatorClient(
        server,
        (await operator.post('/operator/operators', { name: 'Second' })).json().token,
      );
      const answers = await Promise.all([
        operator.post(reviewUrl(request.id), VALID.APPROVE),
        second.post(reviewUrl(request.id), VALID.REJECT),
        operator.post(reviewUrl(request.id), VALID.PARTIALLY_APPROVE),
        second.post(reviewUrl(request.id), VALID.APPROVE),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409]);
      const winner = answers.find((a) => a.statusCode === 200)!.json();
      expect(await readRequest(customer.id, request.id)).toEqual(winner);
      const events = await eventsOf(server, request.id);
      expect(events.filter((e) => e.type === 'limit_request.reviewed').map((e) => e.data)).toEqual([winner]);
      const audit = await auditOf(server, request.id);
      expect(audit).toHaveLength(1);
      expect(audit[0]!.after).toMatchObject({ status: winner.status });
    });
  });
});

describe('GET /operator/limit-requests', () => {
  it('lists the requests IN_REVIEW oldest first, paged, across customers of a project', async () => {
    const tenant = await server.newTenant('Queue partner');
    const api = client(server.sandbox, tenant.sandboxKey);
    const opened = [];
    for (let i = 0; i < 3; i++) {
      clock.advance();
      opened.push(await openRequest({ single: `${8000 + i}.00` }, api));
    }
    await operator.post(reviewUrl(opened[1]!.request.id), VALID.REJECT);
    const first = (
      await operator.get(`/operator/limit-requests?projectId=${tenant.projectId}&limit=1`)
    ).json();
    expect(first.data.map((r: { id: string }) => r.id)).toEqual([opened[0]!.request.id]);
    expect(first.pagination).toEqual({ size: 1, total: 2, hasNextPage: true, page: 1, nextCursor: '2' });
    expect(first.data[0]).toEqual({
      ...opened[0]!.request,
      projectId: tenant.projectId,
      environment: 'sandbox',
      customer: { id: opened[0]!.customer.id, type: 'INDIVIDUAL', name: 'Ana Souza' },
    });
    const second = (
      await operator.get(`/operator/limit-requests?projectId=${tenant.projectId}&limit=1&page=2`)
    ).json();
    expect(second.data.map((r: { id: string }) => r.id)).toEqual([opened[2]!.request.id]);
    const rejected = (
      await operator.get(`/operator/limit-requests?projectId=${tenant.projectId}&status=REJECTED`)
    ).json();
    expect(rejected.data.map((r: { id: string }) => r.id)).toEqual([opened[1]!.request.id]);
  });

  it("shows one request with the customer's limits in force and its supporting document", async () => {
    const customer = await approvedCustomer(sandbox);
    const document = (
      await sandbox.post(
        `/customers/${customer.id}/documents`,
        form({ file: { content: PDF, name: 'extrato.pdf' } }),
      )
    ).json();
    const request = (
      await sandbox.post(`/customers/${customer.id}/limit-requests`, {
        requested: { monthly: '50000.00' },
        supportingDocumentType: 'LIMIT_REQUEST_BANK_STATEMENT',
        supportingDocumentId: document.id,
      })
    ).json();
    const detail = (await operator.get(`/operator/limit-requests/${request.id}`)).json();
    expect(detail).toMatchObject({
      ...request,
      limitsInForce: { single: '7500.00', daily: '15000.00', monthly: '15000.00' },
      supportingDocument: { id: document.id, fileName: 'extrato.pdf', contentType: 'application/pdf' },
    });
    expect(
      (await operator.get('/operator/limit-requests/00000000-0000-4000-8000-000000000000')).statusCode,
    ).toBe(404);
  });
});
