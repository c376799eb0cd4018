import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_OUTCOMES } from '../../src/modules/verification-review/review.ts';
import {
  SAMPLE_FINAL_REJECTION,
  SAMPLE_TEMPORARY_REJECTION,
} from '../../src/modules/verifications/sandbox.ts';
import {
  VERIFICATION_STATUSES,
  VERIFICATION_TRANSITIONS,
  type VerificationStatus,
} from '../../src/modules/verifications/state.ts';
import { createCustomer } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer, usingPostgres } from '../helpers/server.ts';
import { auditOf, driveTo, eventsOf, idleSandboxCustomer, manualClock, operatorClient } from './support.ts';

const clock = manualClock();
let server: TestServer;
let sandbox: Client;
let production: Client;
let operator: Client;

beforeAll(async () => {
  server = await startTestServer({ clock });
  const tenant = await server.newTenant();
  sandbox = client(server.sandbox, tenant.sandboxKey);
  production = client(server.production, tenant.productionKey);
  operator = operatorClient(server);
});
afterAll(() => server.close());

const EMPTY_REASON = { rejectLabels: [], rejectSubLabels: [], documents: [] };
const SAMPLE: Partial<Record<VerificationStatus, unknown>> = {
  TEMPORARY_REJECTION: SAMPLE_TEMPORARY_REJECTION,
  FINAL_REJECTION: SAMPLE_FINAL_REJECTION,
};
const REASON = {
  rejectLabels: ['unsatisfactory_photos'],
  rejectSubLabels: ['badPhoto'],
  documents: [
    { type: 'PASSPORT', status: 'TEMPORARY_REJECTION', comment: 'Blurred', rejectLabels: ['badPhoto'] },
  ],
};
const isRejection = (status: VerificationStatus) => status.endsWith('REJECTION');

const readVerification = async (customer: { id: string; verification: { id: string } }) =>
  (await sandbox.get(`/customers/${customer.id}/verifications/${customer.verification.id}`)).json();

describe('POST /sandbox/customers/{id}/verification follows VERIFICATION_TRANSITIONS for every pair', () => {
  for (const from of VERIFICATION_STATUSES) {
    for (const to of VERIFICATION_STATUSES) {
      const legal = VERIFICATION_TRANSITIONS[from].includes(to);
      it(`${from} → ${to}: ${legal ? 'moves, stamps updatedAt and records the event' : '409, nothing changes'}`, async () => {
        const customer = await idleSandboxCustomer(sandbox);
        await driveTo(sandbox, customer.id, from);
        const before = await readVerification(customer);
        const eventsBefore = await eventsOf(server, customer.verification.id);
        const at = clock.advance();

        const response = await sandbox.post(`/sandbox/customers/${customer.id}/verification`, { status: to });

        if (legal) {
          expect(response.statusCode).toBe(200);
          const body = response.json();
          expect(body).toMatchObject({ id: customer.verification.id, customerId: customer.id, status: to });
          expect(body.statusReason).toEqual(SAMPLE[to] ?? EMPTY_REASON);
          expect(body.updatedAt).toBe(at);
          expect(body.createdAt).toBe(before.createdAt);
          expect(await readVerification(customer)).toEqual(body);
          const events = await eventsOf(server, customer.verification.id);
          expect(events).toHaveLength(eventsBefore.length + 1);
          expect(events.at(-1)).toMatchObject({ type: 'customer.verification.updated', data: body });
        } else {
          expect(response.statusCode).toBe(409);
          expect(response.json()).toMatchObject({ code: 'invalid_state_transition', status: 409 });
          expect(await readVerification(customer)).toEqual(before);
          expect(await eventsOf(server, customer.verification.id)).toEqual(eventsBefore);
        }
      });
    }
  }
});

describe('POST /sandbox/customers/{id}/verification', () => {
  it('stores the statusReason given with a rejection', async () => {
    const customer = await idleSandboxCustomer(sandbox);
    await driveTo(sandbox, customer.id, 'UNDER_VERIFICATION');
    const response = await sandbox.post(`/sandbox/customers/${customer.id}/verification`, {
      status: 'TEMPORARY_REJECTION',
      statusReason: REASON,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().statusReason).toEqual(REASON);
  });

  it('refuses a statusReason with APPROVED and a rejection reason without labels, with 400', async () => {
    const customer = await idleSandboxCustomer(sandbox);
    await driveTo(sandbox, customer.id, 'UNDER_VERIFICATION');
    const approved = await sandbox.post(`/sandbox/customers/${customer.id}/verification`, {
      status: 'APPROVED',
      statusReason: REASON,
    });
    expect(approved.statusCode).toBe(400);
    expect(approved.json().errors).toEqual([{ pointer: '/body/statusReason', message: expect.any(String) }]);
    const unlabelled = await sandbox.post(`/sandbox/customers/${customer.id}/verification`, {
      status: 'FINAL_REJECTION',
      statusReason: { rejectLabels: [] },
    });
    expect(unlabelled.statusCode).toBe(400);
    expect(unlabelled.json().errors[0].pointer).toBe('/body/statusReason/rejectLabels');
    expect((await readVerification(customer)).status).toBe('UNDER_VERIFICATION');
  });

  it("answers 404 for another tenant's customer and an unknown one, and does not exist in production", async () => {
    const customer = await idleSandboxCustomer(sandbox);
    const other = client(server.sandbox, (await server.newTenant()).sandboxKey);
    const foreign = await other.post(`/sandbox/customers/${customer.id}/verification`, {
      status: 'UNDER_VERIFICATION',
    });
    expect(foreign.statusCode).toBe(404);
    const unknown = await sandbox.post(
      '/sandbox/customers/00000000-0000-4000-8000-000000000000/verification',
      {
        status: 'UNDER_VERIFICATION',
      },
    );
    expect(unknown.statusCode).toBe(404);
    const live = await createCustomer(production);
    const inProduction = await production.post(`/sandbox/customers/${live.id}/verification`, {
      status: 'UNDER_VERIFICATION',
    });
    expect(inProduction.statusCode).toBe(404);
    expect((await readVerification(customer)).status).toBe('NOT_STARTED');
  });

  it('refuses an unknown status with 400', async () => {
    const customer = await idleSandboxCustomer(sandbox);
    const response = await sandbox.post(`/sandbox/customers/${customer.id}/verification`, { status: 'DONE' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { pointer: '/body/status', message: expect.stringMatching(/^must be one of/) },
    ]);
  });
});

describe('POST /operator/verifications/{id}/review', () => {
  for (const from of VERIFICATION_STATUSES) {
    for (const to of REVIEW_OUTCOMES) {
      const legal = VERIFICATION_TRANSITIONS[from].includes(to);
      it(`${from} → ${to}: ${legal ? 'decides, with the event and an audit row' : '409, nothing written'}`, async () => {
        const customer = await idleSandboxCustomer(sandbox);
        await driveTo(sandbox, customer.id, from);
        const before = await readVerification(customer);
        const eventsBefore = await eventsOf(server, customer.verification.id);
        const at = clock.advance();
        const statusReason = isRejection(to) ? REASON : undefined;

        const response = await operator.post(`/operator/verifications/${customer.verification.id}/review`, {
          status: to,
          ...(statusReason ? { statusReason } : {}),
        });

        const audit = await auditOf(server, customer.verification.id);
        if (legal) {
          expect(response.statusCode).toBe(200);
          const body = response.json();
          expect(body).toMatchObject({
            status: to,
            statusReason: statusReason ?? EMPTY_REASON,
            updatedAt: at,
          });
          expect(await readVerification(customer)).toEqual(body);
          expect((await eventsOf(server, customer.verification.id)).at(-1)).toMatchObject({
            type: 'customer.verification.updated',
            data: body,
          });
          expect(audit).toEqual([
            {
              actor: 'bootstrap',
              action: 'verification.reviewed',
              resource_type: 'verification',
              resource_id: customer.verification.id,
              before: { status: from },
              after: { status: to, statusReason: statusReason ?? EMPTY_REASON },
              created_at: new Date(at),
            },
          ]);
        } else {
          expect(response.statusCode).toBe(409);
          expect(response.json().code).toBe('invalid_state_transition');
          expect(await readVerification(customer)).toEqual(before);
          expect(await eventsOf(server, customer.verification.id)).toEqual(eventsBefore);
          expect(audit).toEqual([]);
        }
      });
    }
  }

  it('needs a statusReason with at least one reject label for a rejection', async () => {
    const customer = await idleSandboxCustomer(sandbox);
    await driveTo(sandbox, customer.id, 'UNDER_VERIFICATION');
    const url = `/operator/verifications/${customer.verification.id}/review`;
    for (const status of ['TEMPORARY_REJECTION', 'FINAL_REJECTION']) {
      const missing = await operator.post(url, { status });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors).toEqual([
        { pointer: '/body/statusReason', message: `is required for ${status}` },
      ]);
      const noLabel = await operator.post(url, {
        status,
        statusReason: { rejectLabels: [], documents: REASON.documents },
      });
      expect(noLabel.statusCode).toBe(400);
      expect(noLabel.json().errors[0].pointer).toBe('/body/statusReason/rejectLabels');
    }
    const approvedWithReason = await operator.post(url, { status: 'APPROVED', statusReason: REASON });
    expect(approvedWithReason.statusCode).toBe(400);
    const notAnOutcome = await operator.post(url, { status: 'NOT_STARTED' });
    expect(notAnOutcome.statusCode).toBe(400);
    expect(notAnOutcome.json().errors[0].pointer).toBe('/body/status');
    expect((await readVerification(customer)).status).toBe('UNDER_VERIFICATION');
    expect(await auditOf(server, customer.verification.id)).toEqual([]);
  });

  it('names the operator account that decided in the audit log', async () => {
    const created = (await operator.post('/operator/operators', { name: 'Carla Compliance' })).json();
    const carla = operatorClient(server, created.token);
    const customer = await idleSandboxCustomer(sandbox);
    await driveTo(sandbox, customer.id, 'UNDER_VERIFICATION');
    const review = await carla.post(`/operator/verifications/${customer.verification.id}/review`, {
      status: 'APPROVED',
    });
    expect(review.statusCode).toBe(200);
    const log = (await operator.get(`/operator/audit-log?resourceId=${customer.verification.id}`)).json();
    expect(log.data).toEqual([
      expect.objectContaining({
        actor: { id: created.id, name: 'Carla Compliance' },
        action: 'verification.reviewed',
        resourceType: 'verification',
        before: { status: 'UNDER_VERIFICATION' },
        after: { status: 'APPROVED', statusReason: EMPTY_REASON },
      }),
    ]);
  });

  it('answers 404 for an unknown verification and 401 without an operator token', async () => {
    const unknown = await operator.post(
      '/operator/verifications/00000000-0000-4000-8000-000000000000/review',
      {
        status: 'APPROVED',
      },
    );
    expect(unknown.statusCode).toBe(404);
    const customer = await idleSandboxCustomer(sandbox);
    const anonymous = await server.operator.inject({
      method: 'POST',
      url: `/operator/verifications/${customer.verification.id}/review`,
      payload: { status: 'APPROVED' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  describe.runIf(usingPostgres())('under contention', () => {
    it('two operators deciding the same verification at once: exactly one wins, the other gets 409', async () => {
      const customer = await idleSandboxCustomer(sandbox);
      await driveTo(sandbox, customer.id, 'UNDER_VERIFICATION');
      const url = `/operator/verifications/${customer.verification.id}/review`;
      const answers = await Promise.all([
        operator.post(url, { status: 'APPROVED' }),
        operator.post(url, { status: 'FINAL_REJECTION', statusReason: REASON }),
        operator.post(url, { status: 'TEMPORARY_REJECTION', statusReason: REASON }),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
      const winner = answers.find((a) => a.statusCode === 200)!.json();
      expect(await readVerification(customer)).toEqual(winner);
      const reviewed = (await eventsOf(server, customer.verification.id)).filter(
        (e) => e.data.status === winner.status,
      );
      expect(reviewed).toHaveLength(1);
      expect(await auditOf(server, customer.verification.id)).toHaveLength(1);
    });
  });
});

describe('GET /operator/verifications', () => {
  it('lists a status longest waiting first, paged, with the customer', async () => {
    const tenant = await server.newTenant('Queue partner');
    const api = client(server.sandbox, tenant.sandboxKey);
    const customers = [];
    for (let i = 0; i < 3; i++) {
      const customer = await idleSandboxCustomer(api, { name: `Cliente ${i}` });
      clock.advance();
      await driveTo(api, customer.id, 'UNDER_VERIFICATION');
      customers.push(customer);
    }
    // the oldest leaves the queue; a newer one is still waiting
    await operator.post(`/operator/verifications/${customers[0]!.verification.id}/review`, {
      status: 'APPROVED',
    });
    const query = `projectId=${tenant.projectId}&limit=1`;
    const first = (await operator.get(`/operator/verifications?${query}`)).json();
    expect(first.data.map((v: { id: string }) => v.id)).toEqual([customers[1]!.verification.id]);
    expect(first.pagination).toEqual({ size: 1, total: 2, hasNextPage: true, page: 1, nextCursor: '2' });
    expect(first.data[0]).toMatchObject({
      status: 'UNDER_VERIFICATION',
      projectId: tenant.projectId,
      environment: 'sandbox',
      customer: { id: customers[1]!.id, type: 'INDIVIDUAL', name: 'Cliente 1', taxId: customers[1]!.taxId },
    });
    const second = (await operator.get(`/operator/verifications?${query}&page=2`)).json();
    expect(second.data.map((v: { id: string }) => v.id)).toEqual([customers[2]!.verification.id]);
    const approved = (
      await operator.get(`/operator/verifications?projectId=${tenant.projectId}&status=APPROVED`)
    ).json();
    expect(approved.data.map((v: { id: string }) => v.id)).toEqual([customers[0]!.verification.id]);
    const production = (
      await operator.get(`/operator/verifications?projectId=${tenant.projectId}&environment=production`)
    ).json();
    expect(production.pagination.total).toBe(0);
  });

  it('refuses an unknown status filter with 400', async () => {
    const response = await operator.get('/operator/verifications?status=WAITING');
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].pointer).toBe('/query/status');
  });
});
