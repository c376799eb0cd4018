import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf } from '../compliance/support.ts';
import { businessBody, createCustomer, individualBody, validCnpj } from '../helpers/factories.ts';
import { type Client, startTestApi, type TestServer } from '../helpers/server.ts';
import { addParty, companyParty, personParty, representative } from './support.ts';

let server: TestServer;
let production: Client;
let sandbox: Client;

beforeAll(async () => {
  ({ server, production, sandbox } = await startTestApi());
});
afterAll(() => server.close());

const business = () => createCustomer(production, businessBody({ taxId: validCnpj() }));
const partyCount = async (customerId: string) =>
  (
    await server.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM associated_parties WHERE customer_id = $1',
      [customerId],
    )
  )[0]!.n;

describe('POST /customers/{id}/associated-parties', () => {
  it('creates an INDIVIDUAL party with its own NOT_STARTED verification and hosted link, and the event', async () => {
    const customer = await business();
    const response = await production.post(
      `/customers/${customer.id}/associated-parties`,
      personParty({ taxId: '52998224725', ownershipPercentage: 33.33 }),
    );
    expect(response.statusCode).toBe(201);
    const party = response.json();
    expect(party).toMatchObject({
      customerId: customer.id,
      type: 'INDIVIDUAL',
      role: 'UBO',
      taxId: '529.982.247-25',
      ownershipPercentage: 33.33,
      effectiveOwnership: '33.33',
      verification: { status: 'NOT_STARTED', level: 'STANDARD' },
    });
    expect(party.verification.link).toMatch(/^http:\/\/localhost:8080\/verify\//);
    expect(party.verification.id).not.toBe(customer.verification.id);
    const events = await eventsOf(server, party.id);
    expect(events).toEqual([expect.objectContaining({ type: 'associated_party.created', data: party })]);
    // the hosted link opens the party's own page
    const page = await server.production.inject({
      method: 'GET',
      url: new URL(party.verification.link).pathname,
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Hello, Maria');
  });

  it('creates a BUSINESS party without a verification, and chains ownership through it (parentId)', async () => {
    const customer = await business();
    const holding = await addParty(production, customer.id, companyParty({ ownershipPercentage: 60 }));
    expect(holding).not.toHaveProperty('verification');
    const owner = await addParty(
      production,
      customer.id,
      personParty({ parentId: holding.id, ownershipPercentage: 50, role: 'SHAREHOLDER' }),
    );
    expect(owner).toMatchObject({
      parentId: holding.id,
      ownershipPercentage: 50,
      effectiveOwnership: '30.00',
    });
  });

  it('refuses an INDIVIDUAL customer with 422 customer_not_business, writing nothing', async () => {
    const person = await createCustomer(production, individualBody());
    const response = await production.post(`/customers/${person.id}/associated-parties`, personParty());
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('customer_not_business');
    expect(await partyCount(person.id)).toBe(0);
  });

  it('refuses direct ownership summing above 100 with 422 ownership_exceeded, per direct owner', async () => {
    const customer = await business();
    await addParty(production, customer.id, personParty({ ownershipPercentage: 60 }));
    const holding = await addParty(production, customer.id, companyParty({ ownershipPercentage: 40 }));
    const over = await production.post(
      `/customers/${customer.id}/associated-parties`,
      personParty({ ownershipPercentage: 0.01 }),
    );
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ code: 'ownership_exceeded' });
    expect(over.json().detail).toContain('100.01%');
    // the holding's own owners are another sum
    await addParty(production, customer.id, personParty({ parentId: holding.id, ownershipPercentage: 100 }));
    const overHolding = await production.post(
      `/customers/${customer.id}/associated-parties`,
      personParty({ parentId: holding.id, ownershipPercentage: 1 }),
    );
    expect(overHolding.statusCode).toBe(422);
    expect(await partyCount(customer.id)).toBe(3);
  });

  it('refuses a cycle of parents (a company owning, through others, a company that owns it) with 422', async () => {
    const customer = await business();
    const holding = await addParty(production, customer.id, companyParty());
    const self = await production.post(
      `/customers/${customer.id}/associated-parties`,
      companyParty({ taxId: customer.taxId, parentId: holding.id, ownershipPercentage: 10 }),
    );
    expect(self.statusCode).toBe(422);
    expect(self.json().code).toBe('ownership_cycle');
    const holdingAgain = await production.post(
      `/customers/${customer.id}/associated-parties`,
      companyParty({ taxId: holding.taxId as string, parentId: holding.id, ownershipPercentage: 10 }),
    );
    expect(holdingAgain.statusCode).toBe(422);
    expect(await partyCount(customer.id)).toBe(1);
  });

  it('validates tax ids (CPF/CNPJ for BRA), ownership (0 < p ≤ 100, two decimals) and the fields of each type', async () => {
    const customer = await business();
    const cases: [Record<string, unknown>, string][] = [
      [personParty({ taxId: '123.456.789-00' }), '/body/taxId'],
      [companyParty({ taxId: '52998224725' }), '/body/taxId'],
      [personParty({ ownershipPercentage: 12.345 }), '/body/ownershipPercentage'],
      [personParty({ ownershipPercentage: 0 }), '/body/ownershipPercentage'],
      [personParty({ ownershipPercentage: 100.01 }), '/body/ownershipPercentage'],
      [personParty({ ownershipPercentage: undefined }), '/body/ownershipPercentage'],
      [representative({ ownershipPercentage: 10 }), '/body/ownershipPercentage'],
      [personParty({ incorporationDate: '2010-01-01' }), '/body/incorporationDate'],
      [companyParty({ birthDate: '2010-01-01' }), '/body/birthDate'],
      [personParty({ parentId: '00000000-0000-4000-8000-000000000000' }), '/body/parentId'],
    ];
    for (const [body, pointer] of cases) {
      const response = await production.post(`/customers/${customer.id}/associated-parties`, body);
      expect(response.statusCode, pointer).toBe(400);
      expect(response.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    // a parent must be a company that owns a share
    const person = await addParty(production, customer.id, personParty({ ownershipPercentage: 10 }));
    const underPerson = await production.post(
      `/customers/${customer.id}/associated-parties`,
      personParty({ parentId: person.id, ownershipPercentage: 10 }),
    );
    expect(underPerson.statusCode).toBe(400);
    // a foreign tax id is taken as given
    const foreign = await production.post(
      `/customers/${customer.id}/associated-parties`,
      personParty({ taxId: 'X1234567', address: { ...personParty().address, country: 'USA' } }),
    );
    expect(foreign.statusCode).toBe(201);
    expect(await partyCount(customer.id)).toBe(2);
  });

  it("answers 404 for another tenant's customer and an unknown one", async () => {
    const customer = await business();
    expect(
      (await sandbox.post(`/customers/${customer.id}/associated-parties`, personParty())).statusCode,
    ).toBe(404);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(
      (await production.post(`/customers/${unknown}/associated-parties`, personParty())).statusCode,
    ).toBe(404);
    expect((await production.get(`/customers/${unknown}/associated-parties`)).statusCode).toBe(404);
  });
});

describe('GET /customers/{id}/associated-parties', () => {
  it('lists the parties newest first, and reads one', async () => {
    const customer = await business();
    const first = await addParty(production, customer.id, personParty({ ownershipPercentage: 30 }));
    const second = await addParty(production, customer.id, representative());
    const list = (await production.get(`/customers/${customer.id}/associated-parties`)).json();
    expect(list.data.map((p: { id: string }) => p.id)).toEqual([second.id, first.id]);
    expect(list.pagination).toMatchObject({ total: 2, page: 1, hasNextPage: false });
    const one = await production.get(`/customers/${customer.id}/associated-parties/${first.id}`);
    expect(one.json()).toEqual(first);
    const other = await business();
    expect((await production.get(`/customers/${other.id}/associated-parties/${first.id}`)).statusCode).toBe(
      404,
    );
  });
});

describe('DELETE /customers/{id}/associated-parties/{partyId}', () => {
  it('removes a party (204, then 404), and refuses one that owns others with 409', async () => {
    const customer = await business();
    const holding = await addParty(production, customer.id, companyParty());
    const owner = await addParty(production, customer.id, personParty({ parentId: holding.id }));
    const refused = await production.delete(`/customers/${customer.id}/associated-parties/${holding.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('conflict');
    const removed = await production.delete(`/customers/${customer.id}/associated-parties/${owner.id}`);
    expect(removed.statusCode).toBe(204);
    expect(
      (await production.get(`/customers/${customer.id}/associated-parties/${owner.id}`)).statusCode,
    ).toBe(404);
    expect(
      (await production.delete(`/customers/${customer.id}/associated-parties/${owner.id}`)).statusCode,
    ).toBe(404);
  });

  it('refuses with 409 customer_approved once the customer is APPROVED', async () => {
    const customer = await business();
    const party = await addParty(production, customer.id, representative());
    await server.ctx.db.query("UPDATE verifications SET status = 'APPROVED' WHERE customer_id = $1", [
      customer.id,
    ]);
    const response = await production.delete(`/customers/${customer.id}/associated-parties/${party.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('customer_approved');
    expect(
      (await production.get(`/customers/${customer.id}/associated-parties/${party.id}`)).statusCode,
    ).toBe(200);
  });
});
