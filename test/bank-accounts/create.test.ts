import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  approvedCustomer,
  businessBody,
  type CustomerView,
  createCustomer,
  validCnpj,
  validCpf,
} from '../helpers/factories.ts';
import { type Client, startTestApi, type TestServer } from '../helpers/server.ts';
import { ACCOUNT_KEYS, accountBody, selfBody } from './bodies.ts';

let server: TestServer;
let sandbox: Client;
let production: Client;
let customer: CustomerView;

beforeAll(async () => {
  ({ server, sandbox, production } = await startTestApi());
  customer = await createCustomer(production);
});
afterAll(() => server.close());

async function keyValueStored(keyType: string, keyValue: string): Promise<string> {
  const response = await production.post(
    '/bank-accounts',
    accountBody(customer.id, { identifier: { keyType, keyValue } }),
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json().identifier.keyValue;
}

async function keyValueErrors(keyType: string, keyValue: string) {
  const response = await production.post(
    '/bank-accounts',
    accountBody(customer.id, { identifier: { keyType, keyValue } }),
  );
  expect(response.statusCode).toBe(400);
  expect(response.json().code).toBe('invalid_request');
  return response.json().errors;
}

describe('POST /bank-accounts', () => {
  it("registers the customer's own PIX account with a CNPJ key, as an EXTERNAL account of seed 2.4's shape", async () => {
    const business = await approvedCustomer(sandbox, businessBody());
    const response = await sandbox.post(
      '/bank-accounts',
      selfBody(business, { identifier: { keyValue: business.taxId.replace(/[^0-9A-Z]/g, '') } }),
    );
    expect(response.statusCode).toBe(201);
    const account = response.json();
    expect(Object.keys(account).sort()).toEqual(ACCOUNT_KEYS);
    expect(account).toMatchObject({
      customerId: business.id,
      name: 'Conta principal',
      type: 'EXTERNAL',
      rail: 'PIX',
      currency: 'BRL',
      identifier: { keyType: 'CNPJ', keyValue: business.taxId },
      holder: {
        type: 'BUSINESS',
        relationship: 'SELF',
        legalName: 'Loja Exemplo Ltda',
        taxId: business.taxId,
        incorporationDate: '2019-05-14',
        email: 'financeiro@loja.example',
        address: {
          line1: 'Avenida Paulista, 1000',
          city: 'São Paulo',
          state: 'SP',
          postalCode: '01310-100',
          country: 'BRA',
        },
        verification: { status: 'APPROVED', level: 'BASIC' },
      },
    });
    expect(account.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(account.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(account.updatedAt).toBe(account.createdAt);
    expect((await sandbox.get(`/bank-accounts/${account.id}`)).json()).toEqual(account);
  });

  it('records bank_account.created in the same write, with the account as the API answers it', async () => {
    const account = (await production.post('/bank-accounts', accountBody(customer.id))).json();
    const events = await server.ctx.db.query<{ type: string; resource_type: string; data: unknown }>(
      'SELECT type, resource_type, data FROM events WHERE resource_id = $1',
      [account.id],
    );
    expect(events).toEqual([{ type: 'bank_account.created', resource_type: 'bank_account', data: account }]);
  });

  it('stores a CPF key punctuated', async () => {
    const cpf = validCpf();
    expect(await keyValueStored('CPF', cpf.replace(/[^0-9A-Z]/g, ''))).toBe(cpf);
    expect(await keyValueStored('CPF', cpf)).toBe(cpf);
  });

  it('stores a CNPJ key punctuated, the alphanumeric CNPJ in upper case', async () => {
    const cnpj = validCnpj();
    expect(await keyValueStored('CNPJ', cnpj.replace(/[^0-9A-Z]/g, ''))).toBe(cnpj);
    expect(await keyValueStored('CNPJ', '12abc34501de35')).toBe('12.ABC.345/01DE-35');
  });

  it('stores an EMAIL key in lower case', async () => {
    expect(await keyValueStored('EMAIL', ' Bruno.Lima@Example.COM.BR ')).toBe('bruno.lima@example.com.br');
  });

  it('stores a PHONE key in E.164, from the international or the national form', async () => {
    for (const value of ['+5511987654321', '(11) 98765-4321', '+55 11 98765-4321', '11987654321'])
      expect(await keyValueStored('PHONE', value), value).toBe('+5511987654321');
  });

  it('stores an EVP key in lower case', async () => {
    expect(await keyValueStored('EVP', '0190A0B2-3C4D-7E5F-8A9B-0C1D2E3F4A5B')).toBe(
      '0190a0b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b',
    );
  });

  it('refuses a key that is not valid for its keyType with a 400 at /body/identifier/keyValue', async () => {
    const invalid: [string, string][] = [
      ['CPF', '529.982.247-26'],
      ['CPF', '11.222.333/0001-81'],
      ['CNPJ', '11.222.333/0001-82'],
      ['CNPJ', '529.982.247-25'],
      ['EMAIL', 'bruno@example'],
      ['EMAIL', `${'b'.repeat(64)}@exampless.com`],
      ['PHONE', '+14155552671'],
      ['PHONE', '(11) 3333-4444'],
      ['PHONE', '98765-4321'],
      ['EVP', '0190a0b23c4d7e5f8a9b0c1d2e3f4a5b'],
      ['EVP', 'bruno@example.com'],
    ];
    for (const [keyType, keyValue] of invalid) {
      const errors = await keyValueErrors(keyType, keyValue);
      expect(errors, `${keyType} ${keyValue}`).toHaveLength(1);
      expect(errors[0].pointer).toBe('/body/identifier/keyValue');
      expect(errors[0].message).toMatch(/^must be /);
    }
  });

  it('refuses an unknown keyType at /body/identifier/keyType', async () => {
    const response = await production.post(
      '/bank-accounts',
      accountBody(customer.id, { identifier: { keyType: 'IBAN' } }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((e: { pointer: string }) => e.pointer)).toEqual([
      '/body/identifier/keyType',
    ]);
  });

  it('requires a CPF for an INDIVIDUAL holder and a CNPJ for a BUSINESS holder, stored punctuated', async () => {
    const cnpjForIndividual = await production.post(
      '/bank-accounts',
      accountBody(customer.id, { holder: { taxId: validCnpj() } }),
    );
    expect(cnpjForIndividual.statusCode).toBe(400);
    expect(cnpjForIndividual.json().errors).toEqual([
      { pointer: '/body/holder/taxId', message: 'must be a valid CPF for an INDIVIDUAL holder' },
    ]);
    const cpfForBusiness = await production.post(
      '/bank-accounts',
      accountBody(customer.id, { holder: { type: 'BUSINESS', taxId: validCpf() } }),
    );
    expect(cpfForBusiness.json().errors).toEqual([
      { pointer: '/body/holder/taxId', message: 'must be a valid CNPJ for a BUSINESS holder' },
    ]);
    const cnpj = validCnpj();
    const business = await production.post(
      '/bank-accounts',
      accountBody(customer.id, { holder: { type: 'BUSINESS', taxId: cnpj.replace(/[^0-9A-Z]/g, '') } }),
    );
    expect(business.statusCode).toBe(201);
    expect(business.json().holder.taxId).toBe(cnpj);
  });

  it('takes incorporationDate only for BUSINESS holders and omits it when the holder has none', async () => {
    const individual = await production.post(
      '/bank-accounts',
      accountBody(customer.id, { holder: { incorporationDate: '2019-05-14' } }),
    );
    expect(individual.statusCode).toBe(400);
    expect(individual.json().errors).toEqual([
      { pointer: '/body/holder/incorporationDate', message: 'is only for BUSINESS holders' },
    ]);
    const future = await production.post(
      '/bank-accounts',
      accountBody(customer.id, {
        holder: { type: 'BUSINESS', taxId: validCnpj(), incorporationDate: '2999-01-01' },
      }),
    );
    expect(future.json().errors[0].pointer).toBe('/body/holder/incorporationDate');
    const without = (await production.post('/bank-accounts', accountBody(customer.id))).json();
    expect('incorporationDate' in without.holder).toBe(false);
  });

  it('checks a Brazilian address: UF state code and CEP, stored as 01310-100', async () => {
    const ok = await production.post(
      '/bank-accounts',
      accountBody(customer.id, { address: { state: 'rj', postalCode: '20040002' } }),
    );
    expect(ok.statusCode).toBe(201);
    expect(ok.json().holder.address).toMatchObject({ state: 'RJ', postalCode: '20040-002' });
    const bad = await production.post(
      '/bank-accounts',
      accountBody(customer.id, { address: { state: 'São Paulo', postalCode: '0131-0100' } }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([
      { pointer: '/body/holder/address/state', message: 'must be a Brazilian state code (UF), such as SP' },
      { pointer: '/body/holder/address/postalCode', message: 'must be a CEP of 8 digits, such as 01310-100' },
    ]);
  });

  it('takes a foreign address as given and refuses an unknown country code', async () => {
    const foreign = await production.post(
      '/bank-accounts',
      accountBody(customer.id, {
        address: {
          line1: 'Rua Augusta 10',
          city: 'Lisboa',
          state: 'Lisboa',
          postalCode: '1100-053',
          country: 'PRT',
        },
      }),
    );
    expect(foreign.statusCode).toBe(201);
    expect(foreign.json().holder.address).toEqual({
      line1: 'Rua Augusta 10',
      city: 'Lisboa',
      state: 'Lisboa',
      postalCode: '1100-053',
      country: 'PRT',
    });
    const unknown = await production.post(
      '/bank-accounts',
      accountBody(customer.id, { address: { country: 'XXX' } }),
    );
    expect(unknown.json().errors).toEqual([
      { pointer: '/body/holder/address/country', message: 'is not an ISO 3166-1 alpha-3 code' },
    ]);
    const alpha2 = await production.post(
      '/bank-accounts',
      accountBody(customer.id, { address: { country: 'BR' } }),
    );
    expect(alpha2.json().errors[0].pointer).toBe('/body/holder/address/country');
  });
});
