import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedCustomer, businessBody, createCustomer, validCnpj, validCpf } from '../helpers/factories.ts';
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

  it('approves a business that declared no parties as before (no sandbox flow gains a step)', async () => {
    const company = await approvedCustomer(sandbox, businessBody({ taxId: validCnpj('5') }));
    expect((await customerOf(sandbox, company.id)).verification.status).toBe('APPROVED');
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
