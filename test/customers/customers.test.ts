import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessBody, createCustomer, individualBody, validCnpj, validCpf } from '../helpers/factories.ts';
import { type Client, client, startTestApi, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let sandbox: Client;
let production: Client;

beforeAll(async () => {
  ({ server, sandbox, production } = await startTestApi());
});
afterAll(() => server.close());

describe('POST /customers', () => {
  it('creates an INDIVIDUAL customer with a NOT_STARTED STANDARD verification and a link', async () => {
    const response = await production.post('/customers', individualBody({ taxId: '52998224725' }));
    expect(response.statusCode).toBe(201);
    const customer = response.json();
    expect(customer).toMatchObject({
      type: 'INDIVIDUAL',
      name: 'Ana Souza',
      taxId: '529.982.247-25',
      country: 'BRA',
      email: 'ana@example.com',
      birthDate: '1990-04-12',
      verification: { status: 'NOT_STARTED', level: 'STANDARD' },
    });
    expect(customer.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(customer.verification.link).toMatch(/^http:\/\/localhost:8080\/verify\/[\w-]+\.[\w-]+$/);
    expect(customer.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(customer.incorporationDate).toBeUndefined();
  });

  it('creates a BUSINESS customer and stores the CNPJ formatted', async () => {
    const raw = validCnpj().replace(/[./-]/g, '');
    const customer = await createCustomer(production, businessBody({ taxId: raw }));
    expect(customer.taxId).toMatch(/^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/);
    expect(customer.taxId.replace(/[./-]/g, '')).toBe(raw);
    expect(customer.incorporationDate).toBe('2019-05-14');
  });

  it('accepts the alphanumeric CNPJ', async () => {
    const customer = await createCustomer(production, businessBody({ taxId: '12ABC34501DE35' }));
    expect(customer.taxId).toBe('12.ABC.345/01DE-35');
  });

  it('verifies CPF and CNPJ check digits for BRA', async () => {
    const badCpf = await production.post('/customers', individualBody({ taxId: '529.982.247-26' }));
    expect(badCpf.statusCode).toBe(400);
    expect(badCpf.json().errors).toEqual([{ pointer: '/body/taxId', message: 'is not a valid CPF' }]);
    const badCnpj = await production.post('/customers', businessBody({ taxId: '12.ABC.345/01DE-36' }));
    expect(badCnpj.statusCode).toBe(400);
    expect(badCnpj.json().errors).toEqual([{ pointer: '/body/taxId', message: 'is not a valid CNPJ' }]);
    const cnpjForIndividual = await production.post('/customers', individualBody({ taxId: validCnpj() }));
    expect(cnpjForIndividual.statusCode).toBe(400);
  });

  it('takes foreign tax ids as given for other countries', async () => {
    const customer = await createCustomer(
      production,
      individualBody({ country: 'USA', taxId: '123-45-6789', birthDate: undefined }),
    );
    expect(customer.taxId).toBe('123-45-6789');
  });

  it('refuses the same taxId twice in a project environment with 409 customer_exists naming the customer', async () => {
    const taxId = validCpf();
    const first = await createCustomer(production, individualBody({ taxId }));
    const again = await production.post('/customers', individualBody({ taxId: taxId.replace(/\D/g, '') }));
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('customer_exists');
    expect(again.json().customerId).toBe(first.id);
    expect(again.json().detail).toContain(first.id);
    // the other environment of the same project is a separate space
    expect((await sandbox.post('/customers', individualBody({ taxId }))).statusCode).toBe(201);
  });

  it('refuses concurrent duplicates: exactly one is created', async () => {
    const body = individualBody({ taxId: validCpf() });
    const answers = await Promise.all(Array.from({ length: 5 }, () => production.post('/customers', body)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it('reports one error per problem with a JSON pointer, and writes nothing', async () => {
    const before = (await production.get('/customers?limit=1')).json().pagination.total;
    const response = await production.post('/customers', {
      type: 'PERSON',
      taxId: 7,
      country: 'XXX',
      email: 'not-an-email',
      nickname: 'x',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = response.json();
    expect(problem).toMatchObject({ status: 400, code: 'invalid_request', title: 'Invalid request' });
    expect(problem.requestId).toBe(response.headers['x-request-id']);
    const pointers = problem.errors.map((e: { pointer: string }) => e.pointer).sort();
    expect(pointers).toEqual(['/body/email', '/body/name', '/body/nickname', '/body/taxId', '/body/type']);
    expect((await production.get('/customers?limit=1')).json().pagination.total).toBe(before);
  });

  it('refuses an unknown country code, dates of the wrong customer type and future dates', async () => {
    const country = await production.post('/customers', individualBody({ country: 'XXX' }));
    expect(country.json().errors).toEqual([
      { pointer: '/body/country', message: 'is not an ISO 3166-1 alpha-3 code' },
    ]);
    const wrongDate = await production.post(
      '/customers',
      individualBody({ incorporationDate: '2010-01-01' }),
    );
    expect(wrongDate.json().errors[0].pointer).toBe('/body/incorporationDate');
    const future = await production.post('/customers', individualBody({ birthDate: '2999-01-01' }));
    expect(future.json().errors[0]).toEqual({
      pointer: '/body/birthDate',
      message: 'must not be in the future',
    });
    const impossible = await production.post('/customers', individualBody({ birthDate: '2001-02-30' }));
    expect(impossible.statusCode).toBe(400);
  });

  it('answers malformed JSON and a wrong content type as problems', async () => {
    const malformed = await server.production.inject({
      method: 'POST',
      url: '/customers',
      payload: '{"type":',
      headers: {
        authorization: `Bearer ${(await server.newTenant()).productionKey}`,
        'content-type': 'application/json',
      },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('invalid_request');
    const text = await server.production.inject({
      method: 'POST',
      url: '/customers',
      payload: 'hello',
      headers: {
        authorization: `Bearer ${(await server.newTenant()).productionKey}`,
        'content-type': 'text/plain',
      },
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe('unsupported_media_type');
  });
});

describe('GET /customers/{id}', () => {
  it('reads a customer', async () => {
    const created = await createCustomer(production);
    const response = await production.get(`/customers/${created.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(created);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const missing = await production.get('/customers/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
    const malformed = await production.get('/customers/123');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors).toEqual([{ pointer: '/path/id', message: 'must be a valid UUID' }]);
  });
});

describe('GET /customers', () => {
  it('lists newest first with exact pagination', async () => {
    const tenant = await server.newTenant();
    const api = client(server.production, tenant.productionKey);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createCustomer(api)).id);
    const first = (await api.get('/customers?limit=2')).json();
    expect(first.data.map((c: { id: string }) => c.id)).toEqual([ids[4], ids[3]]);
    expect(first.pagination).toEqual({ size: 2, total: 5, hasNextPage: true, page: 1, nextCursor: '2' });
    const last = (await api.get('/customers?limit=2&cursor=3')).json();
    expect(last.data.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect(last.pagination).toEqual({ size: 2, total: 5, hasNextPage: false, page: 3, nextCursor: null });
    const past = (await api.get('/customers?limit=2&page=9')).json();
    expect(past.data).toEqual([]);
  });

  it('answers pages asked for together each with its own tenant’s customers and total', async () => {
    const tenants = [await server.newTenant(), await server.newTenant()];
    const apis = tenants.map((tenant) => client(server.production, tenant.productionKey));
    const created: string[][] = [[], []];
    for (let i = 0; i < 3; i++) created[0]!.push((await createCustomer(apis[0]!)).id);
    for (let i = 0; i < 2; i++) created[1]!.push((await createCustomer(apis[1]!)).id);
    const sandboxApi = client(server.sandbox, tenants[0]!.sandboxKey);
    const asks = [
      ...Array.from({ length: 8 }, (_, i) => ({ api: apis[i % 2]!, ids: [...created[i % 2]!].reverse() })),
      ...Array.from({ length: 4 }, () => ({ api: sandboxApi, ids: [] as string[] })),
    ];
    const answers = await Promise.all(asks.map(({ api }) => api.get('/customers')));
    answers.forEach((answer, index) => {
      const page = answer.json();
      expect(page.data.map((c: { id: string }) => c.id)).toEqual(asks[index]!.ids);
      expect(page.pagination.total).toBe(asks[index]!.ids.length);
    });
  });

  it('keeps pagination.total exact from a count the database maintains, per environment, under concurrent creations and refusals', async () => {
    const tenant = await server.newTenant();
    const api = client(server.production, tenant.productionKey);
    const sandboxApi = client(server.sandbox, tenant.sandboxKey);
    expect((await api.get('/customers?limit=1')).json().pagination.total).toBe(0);
    const taxId = validCpf();
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, () => api.post('/customers', individualBody())),
      // the same taxId twice: one is refused, and the count takes only the one created
      api.post('/customers', individualBody({ taxId })),
      api.post('/customers', individualBody({ taxId })),
      sandboxApi.post('/customers', individualBody()),
    ]);
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(14);
    expect((await api.get('/customers?limit=1')).json().pagination.total).toBe(13);
    expect((await sandboxApi.get('/customers?limit=1')).json().pagination.total).toBe(1);
    const [counted] = await server.ctx.db.query<{ n: bigint }>(
      "SELECT count(*) AS n FROM customers WHERE project_id = $1 AND environment = 'production'",
      [tenant.projectId],
    );
    expect(counted!.n).toBe(13n);
  });

  it('refuses to move a customer to another project or environment, which its count depends on', async () => {
    const customer = await createCustomer(production);
    await expect(
      server.ctx.db.query("UPDATE customers SET environment = 'sandbox' WHERE id = $1", [customer.id]),
    ).rejects.toThrow(/cannot change its project or environment/);
  });
});
