import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessBody, createCustomer, validCnpj, validCpf } from '../helpers/factories.ts';
import { type Client, eventually, startTestApi, type TestApi, type TestServer } from '../helpers/server.ts';
import { addParty, customerOf, personParty, representative, upload } from './support.ts';

let api: TestApi;
let server: TestServer;
let sandbox: Client;

beforeAll(async () => {
  api = await startTestApi();
  ({ server, sandbox } = api);
});
afterAll(() => server.close());

type Requirement = { name: string; status: string; associatedPartyId?: string };
const requirement = (customer: { requirements: Requirement[] }, name: string) =>
  customer.requirements.find((item) => item.name === name);

const partyStatus = (customerId: string, partyId: string) =>
  sandbox
    .get(`/customers/${customerId}/associated-parties/${partyId}`)
    .then((r) => r.json().verification.status);

describe('sandbox associated parties', () => {
  it("decides each party's verification from its taxId's last digit, as for customers", async () => {
    const company = await createCustomer(sandbox, businessBody({ taxId: validCnpj('1') }));
    const outcomes: [string, string][] = [
      ['5', 'APPROVED'],
      ['2', 'TEMPORARY_REJECTION'],
      ['3', 'FINAL_REJECTION'],
    ];
    for (const [digit, expected] of outcomes) {
      const party = await addParty(sandbox, company.id, representative({ taxId: validCpf(digit) }));
      await eventually(
        () => partyStatus(company.id, party.id),
        (status) => status === expected,
      );
    }
    const idle = await addParty(sandbox, company.id, representative({ taxId: validCpf('1') }));
    // the worker has had its turn once the company's own outcome (also '1': none) was applied
    await eventually(
      () =>
        server.ctx.db.query<{ due: Date | null }>(
          'SELECT sandbox_due_at AS due FROM verifications WHERE associated_party_id = $1',
          [idle.id],
        ),
      (rows) => rows[0]!.due === null,
    );
    expect(await partyStatus(company.id, idle.id)).toBe('NOT_STARTED');
  });

  it('a business the sandbox approves waits for a representative, its REPRESENTATIVE requirement NOT_SENT', async () => {
    const company = await createCustomer(sandbox, businessBody({ taxId: validCnpj('5') }));
    // the simulated review approves the company's own documents; the company then waits for its parties
    const waiting = await eventually(
      () => customerOf(sandbox, company.id),
      (customer) => requirement(customer, 'COMPANY_DOCUMENT')?.status === 'APPROVED',
    );
    expect(waiting.verification.status).toBe('UNDER_VERIFICATION');
    expect(requirement(waiting, 'REPRESENTATIVE')).toEqual({ name: 'REPRESENTATIVE', status: 'NOT_SENT' });
    const onRamp = await sandbox.post('/transactions/on-ramp', {
      customerId: company.id,
      currency: 'BRL',
      amount: '10.00',
    });
    expect(onRamp.statusCode).toBe(409);
    expect(onRamp.json().code).toBe('customer_not_approved');

    const rep = await addParty(sandbox, company.id, representative({ taxId: validCpf('5') }));
    const approved = await eventually(
      () => customerOf(sandbox, company.id),
      (customer) => customer.verification.status === 'APPROVED',
    );
    expect(requirement(approved, 'REPRESENTATIVE')).toEqual({
      name: 'REPRESENTATIVE',
      status: 'APPROVED',
      associatedPartyId: rep.id,
    });
  });

  it('a sandbox business waits for an unverified UBO, whose party can still be removed', async () => {
    const company = await createCustomer(sandbox, businessBody({ taxId: validCnpj('5') }));
    const ubo = await addParty(sandbox, company.id, personParty({ taxId: validCpf('1') }));
    const rep = await addParty(sandbox, company.id, representative({ taxId: validCpf('5') }));
    await eventually(
      () => partyStatus(company.id, rep.id),
      (status) => status === 'APPROVED',
    );
    const waiting = await eventually(
      () => customerOf(sandbox, company.id),
      (customer) => requirement(customer, 'COMPANY_DOCUMENT')?.status === 'APPROVED',
    );
    expect(waiting.verification.status).toBe('UNDER_VERIFICATION');
    expect(await partyStatus(company.id, ubo.id)).toBe('NOT_STARTED');
    const removed = await sandbox.delete(`/customers/${company.id}/associated-parties/${ubo.id}`);
    expect(removed.statusCode).toBe(204);
    // nothing stands in the way any more: the removal settles the company
    expect((await customerOf(sandbox, company.id)).verification.status).toBe('APPROVED');
  });

  it("a UBO's simulated FINAL_REJECTION sends a sandbox business to TEMPORARY_REJECTION, naming it", async () => {
    const company = await createCustomer(sandbox, businessBody({ taxId: validCnpj('5') }));
    // the company's own simulated review comes first, before the partner declares its parties
    await eventually(
      () => customerOf(sandbox, company.id),
      (customer) => requirement(customer, 'COMPANY_DOCUMENT')?.status === 'APPROVED',
    );
    const ubo = await addParty(sandbox, company.id, personParty({ taxId: validCpf('3') }));
    await addParty(sandbox, company.id, representative({ taxId: validCpf('5') }));
    const back = await eventually(
      () => customerOf(sandbox, company.id),
      (customer) => customer.verification.status === 'TEMPORARY_REJECTION',
    );
    expect(requirement(back, 'COMPANY_DOCUMENT')?.status).toBe('SENT');
    const verification = (
      await sandbox.get(`/customers/${company.id}/verifications/${company.verification.id}`)
    ).json();
    expect(verification.statusReason.documents[0].comment).toContain(ubo.id);
  });

  it('walks a company with two UBOs and a representative to APPROVED (the README walkthrough)', async () => {
    const company = await createCustomer(sandbox, businessBody({ taxId: validCnpj('1') }));
    const parties = [
      await addParty(
        sandbox,
        company.id,
        personParty({ name: 'Ana', taxId: validCpf('5'), ownershipPercentage: 50 }),
      ),
      await addParty(
        sandbox,
        company.id,
        personParty({ name: 'Bia', taxId: validCpf('6'), ownershipPercentage: 30 }),
      ),
      await addParty(sandbox, company.id, representative({ taxId: validCpf('7') })),
    ];
    for (const party of parties) {
      await eventually(
        () => partyStatus(company.id, party.id),
        (status) => status === 'APPROVED',
      );
    }
    const link = (await sandbox.post(`/customers/${company.id}/tos`, {})).json();
    expect(
      (await server.sandbox.inject({ method: 'POST', url: new URL(link.url).pathname })).statusCode,
    ).toBe(200);
    const uploaded = await upload(server.sandbox, api.tenant.sandboxKey, company.id, {
      type: 'ARTICLES_OF_INCORPORATION',
    });
    expect(uploaded.statusCode).toBe(201);
    const submitted = await sandbox.post(
      `/customers/${company.id}/verifications/${company.verification.id}/submit`,
      {},
    );
    expect(submitted.json().status).toBe('UNDER_VERIFICATION');
    const approved = await sandbox.post(`/sandbox/customers/${company.id}/verification`, {
      status: 'APPROVED',
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().status).toBe('APPROVED');
    const onRamp = await sandbox.post('/transactions/on-ramp', {
      customerId: company.id,
      currency: 'BRL',
      amount: '1500.00',
    });
    expect(onRamp.statusCode).toBe(201);
  });

  it("a party's simulated FINAL_REJECTION sends the company under review back, naming the party", async () => {
    const company = await createCustomer(sandbox, businessBody({ taxId: validCnpj('1') }));
    await sandbox.post(`/sandbox/customers/${company.id}/verification`, { status: 'UNDER_VERIFICATION' });
    const party = await addParty(sandbox, company.id, personParty({ taxId: validCpf('3') }));
    const back = await eventually(
      () =>
        sandbox
          .get(`/customers/${company.id}/verifications/${company.verification.id}`)
          .then((r) => r.json()),
      (verification) => verification.status === 'TEMPORARY_REJECTION',
    );
    expect(back.statusReason.documents[0].comment).toContain(party.id);
  });
});
