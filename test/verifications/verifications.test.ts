import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessBody, createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, eventually, startTestApi, type TestServer } from '../helpers/server.ts';
import { addParty, representative } from './support.ts';

let server: TestServer;
let sandbox: Client;
let production: Client;

beforeAll(async () => {
  ({ server, sandbox, production } = await startTestApi());
});
afterAll(() => server.close());

const readVerification = (api: Client, customerId: string, verificationId: string) =>
  api.get(`/customers/${customerId}/verifications/${verificationId}`);

describe('GET /customers/{id}/verifications/{verificationId}', () => {
  it('answers the seed fields plus id, createdAt and updatedAt', async () => {
    const customer = await createCustomer(production);
    const response = await readVerification(production, customer.id, customer.verification.id);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(
      ['createdAt', 'customerId', 'id', 'level', 'status', 'statusReason', 'updatedAt'].sort(),
    );
    expect(body).toMatchObject({
      id: customer.verification.id,
      customerId: customer.id,
      status: 'NOT_STARTED',
      level: 'STANDARD',
      statusReason: { rejectLabels: [], rejectSubLabels: [], documents: [] },
    });
  });

  it('answers 404 when the verification belongs to another customer or tenant', async () => {
    const one = await createCustomer(production);
    const two = await createCustomer(production);
    expect((await readVerification(production, two.id, one.verification.id)).statusCode).toBe(404);
    const other = client(server.production, (await server.newTenant()).productionKey);
    expect((await readVerification(other, one.id, one.verification.id)).statusCode).toBe(404);
  });

  it("reads an associated party's verification under its customer, as its submission accepts it", async () => {
    const company = await createCustomer(production, businessBody());
    const party = await addParty(production, company.id, representative());
    const response = await readVerification(production, company.id, party.verification!.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: party.verification!.id,
      customerId: company.id,
      associatedPartyId: party.id,
      status: 'NOT_STARTED',
      level: 'STANDARD',
    });
    // the same answer as the submission's own refusal reads: the verification is found under its customer
    const submitted = await production.post(
      `/customers/${company.id}/verifications/${party.verification!.id}/submit`,
      {},
    );
    expect(submitted.json().code).toBe('requirements_not_met');
    const other = await createCustomer(production, businessBody());
    expect((await readVerification(production, other.id, party.verification!.id)).statusCode).toBe(404);
    const tenant = client(server.production, (await server.newTenant()).productionKey);
    expect((await readVerification(tenant, company.id, party.verification!.id)).statusCode).toBe(404);
  });

  it('production customers stay NOT_STARTED: no simulated outcome outside the sandbox', async () => {
    const customer = await createCustomer(production, individualBody({ taxId: validCpf('5') }));
    // a sandbox customer created after it settles; by then the production one would have too
    const probe = await createCustomer(sandbox, individualBody({ taxId: validCpf('5') }));
    await eventually(
      () => readVerification(sandbox, probe.id, probe.verification.id).then((r) => r.json()),
      (v) => v.status === 'APPROVED',
    );
    expect((await readVerification(production, customer.id, customer.verification.id)).json().status).toBe(
      'NOT_STARTED',
    );
  });
});

describe('sandbox verification outcome by the last digit of the taxId', () => {
  const settle = async (lastDigit: string, expected: string) => {
    const customer = await createCustomer(sandbox, individualBody({ taxId: validCpf(lastDigit) }));
    const started = Date.now();
    const verification = await eventually(
      () => readVerification(sandbox, customer.id, customer.verification.id).then((r) => r.json()),
      (v) => v.status === expected,
      2_000,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    return { customer, verification };
  };

  it('any other digit is APPROVED, through UNDER_VERIFICATION, with the same events as production', async () => {
    const { customer, verification } = await settle('7', 'APPROVED');
    expect(verification.statusReason).toEqual({ rejectLabels: [], rejectSubLabels: [], documents: [] });
    const events = await server.ctx.db.query<{ type: string; data: { status: string } }>(
      'SELECT type, data FROM events WHERE resource_id IN ($1, $2) ORDER BY seq',
      [customer.id, customer.verification.id],
    );
    expect(events.map((e) => [e.type, e.data.status ?? null])).toEqual([
      ['customer.created', null],
      ['customer.verification.updated', 'UNDER_VERIFICATION'],
      ['customer.verification.updated', 'APPROVED'],
    ]);
    expect((await sandbox.get(`/customers/${customer.id}`)).json().verification.status).toBe('APPROVED');
  });

  it('2 is TEMPORARY_REJECTION with sample labels and a PASSPORT finding', async () => {
    const { verification } = await settle('2', 'TEMPORARY_REJECTION');
    expect(verification.statusReason.rejectLabels).toEqual(['screenshot', 'unsatisfactory_photos']);
    expect(verification.statusReason.rejectSubLabels).toEqual(['proofOfAddress_listOfDocs', 'badPhoto']);
    expect(verification.statusReason.documents).toEqual([
      expect.objectContaining({
        type: 'PASSPORT',
        status: 'TEMPORARY_REJECTION',
        rejectLabels: ['screenshot'],
      }),
    ]);
  });

  it('3 is FINAL_REJECTION', async () => {
    const { verification } = await settle('3', 'FINAL_REJECTION');
    expect(verification.statusReason.rejectLabels.length).toBeGreaterThan(0);
  });

  it('1 stays NOT_STARTED', async () => {
    const customer = await createCustomer(sandbox, individualBody({ taxId: validCpf('1') }));
    const after = await createCustomer(sandbox, individualBody({ taxId: validCpf('8') }));
    await eventually(
      () => readVerification(sandbox, after.id, after.verification.id).then((r) => r.json()),
      (v) => v.status === 'APPROVED',
    );
    const rows = await server.ctx.db.query<{ sandbox_due_at: Date | null }>(
      'SELECT sandbox_due_at FROM verifications WHERE id = $1',
      [customer.verification.id],
    );
    expect(rows[0]!.sandbox_due_at).toBeNull();
    expect((await readVerification(sandbox, customer.id, customer.verification.id)).json().status).toBe(
      'NOT_STARTED',
    );
  });
});
