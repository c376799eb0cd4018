import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  approvedCustomer,
  type CustomerView,
  createCustomer,
  individualBody,
  validCpf,
} from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { accountBody, selfBody } from './bodies.ts';

let server: TestServer;
let projectId: string;
let sandbox: Client;
let production: Client;
let customer: CustomerView;

beforeAll(async () => {
  server = await startTestServer();
  const tenant = await server.newTenant();
  projectId = tenant.projectId;
  sandbox = client(server.sandbox, tenant.sandboxKey);
  production = client(server.production, tenant.productionKey);
  customer = await createCustomer(production);
});
afterAll(() => server.close());

/** Bank accounts and their creation events stored for the test project. */
async function stored(): Promise<{ accounts: bigint; events: bigint }> {
  const rows = await server.ctx.db.query<{ accounts: bigint; events: bigint }>(
    `SELECT (SELECT count(*) FROM bank_accounts WHERE project_id = $1) AS accounts,
            (SELECT count(*) FROM events WHERE project_id = $1 AND type = 'bank_account.created') AS events`,
    [projectId],
  );
  return rows[0]!;
}

describe('holder relationship and verification', () => {
  it('refuses SELF when the holder taxId is not the customer taxId, at /body/holder/taxId', async () => {
    const response = await production.post(
      '/bank-accounts',
      accountBody(customer.id, { holder: { relationship: 'SELF' } }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      {
        pointer: '/body/holder/taxId',
        message: "must be the customer's taxId when the relationship is SELF",
      },
    ]);
  });

  it('compares the SELF taxId with punctuation removed', async () => {
    const response = await production.post(
      '/bank-accounts',
      selfBody(customer, { holder: { taxId: customer.taxId.replace(/[^0-9A-Z]/g, '') } }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json().holder.taxId).toBe(customer.taxId);
  });

  it('approves the holder (APPROVED, BASIC) for SELF of an approved sandbox customer', async () => {
    const approved = await approvedCustomer(sandbox, individualBody());
    const account = (await sandbox.post('/bank-accounts', selfBody(approved))).json();
    expect(account.holder.relationship).toBe('SELF');
    expect(account.holder.verification).toEqual({ status: 'APPROVED', level: 'BASIC' });
  });

  it('leaves the holder UNDER_VERIFICATION for SELF of a production customer not yet verified', async () => {
    const fresh = await createCustomer(production, individualBody());
    expect(fresh.verification.status).toBe('NOT_STARTED');
    const account = (await production.post('/bank-accounts', selfBody(fresh))).json();
    expect(account.holder.verification).toEqual({ status: 'UNDER_VERIFICATION', level: 'BASIC' });
  });

  it('leaves a THIRD_PARTY holder UNDER_VERIFICATION even for an approved customer', async () => {
    const approved = await approvedCustomer(sandbox, individualBody());
    const account = (await sandbox.post('/bank-accounts', accountBody(approved.id))).json();
    expect(account.holder.relationship).toBe('THIRD_PARTY');
    expect(account.holder.verification).toEqual({ status: 'UNDER_VERIFICATION', level: 'BASIC' });
  });
});

describe('the owning customer', () => {
  it('answers 404 for an unknown customer, one of another project and one of the other environment', async () => {
    const other = await server.newTenant('Other partner');
    const foreign = await createCustomer(client(server.production, other.productionKey));
    const sandboxOwn = await createCustomer(sandbox);
    for (const customerId of ['00000000-0000-4000-8000-000000000000', foreign.id, sandboxOwn.id]) {
      const response = await production.post('/bank-accounts', accountBody(customerId));
      expect(response.statusCode, customerId).toBe(404);
      expect(response.json().code).toBe('not_found');
    }
    // the same customer of another project, held by the customer themself, is just as unknown
    const selfOfForeign = await production.post('/bank-accounts', selfBody(foreign));
    expect(selfOfForeign.statusCode).toBe(404);
  });
});

describe('refused requests', () => {
  it('refuses unknown fields at every level, one error per field', async () => {
    const body = accountBody(customer.id, {
      nickname: 'x',
      identifier: { bank: '001' },
      holder: { phone: '+5511987654321' },
      address: { line2: 'apto 5' },
    });
    const response = await production.post('/bank-accounts', body);
    expect(response.statusCode).toBe(400);
    expect(
      response
        .json()
        .errors.map((e: { pointer: string }) => e.pointer)
        .sort(),
    ).toEqual([
      '/body/holder/address/line2',
      '/body/holder/phone',
      '/body/identifier/bank',
      '/body/nickname',
    ]);
  });

  it('refuses other rails, currencies, relationships and missing fields', async () => {
    const response = await production.post('/bank-accounts', {
      ...accountBody(customer.id, { rail: 'TED', currency: 'USD', holder: { relationship: 'FRIEND' } }),
      name: undefined,
    });
    expect(response.statusCode).toBe(400);
    expect(
      response
        .json()
        .errors.map((e: { pointer: string }) => e.pointer)
        .sort(),
    ).toEqual(['/body/currency', '/body/holder/relationship', '/body/name', '/body/rail']);
  });

  it('writes nothing (no account, no event) on any 400', async () => {
    const before = await stored();
    const refused = [
      accountBody(customer.id, { identifier: { keyType: 'EMAIL', keyValue: 'not-an-email' } }),
      accountBody(customer.id, { holder: { relationship: 'SELF' } }),
      accountBody(customer.id, { holder: { taxId: '000.000.000-00' } }),
      accountBody(customer.id, { address: { postalCode: '123' } }),
      accountBody(customer.id, { name: '   ' }),
      accountBody(customer.id, { extra: true }),
      accountBody('not-a-uuid'),
    ];
    for (const body of refused) {
      const response = await production.post('/bank-accounts', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await stored()).toEqual(before);
  });
});

describe('database invariants', () => {
  it('refuses a PIX key or holder taxId stored in any but its canonical form, whoever writes it', async () => {
    const insert = (keyType: string, keyValue: string, holderTaxId: string) =>
      server.ctx.db.query(
        `INSERT INTO bank_accounts (id, customer_id, project_id, environment, name, type, rail, currency,
           key_type, key_value, holder_type, holder_relationship, holder_legal_name, holder_tax_id,
           holder_email, holder_address, holder_verification_status, holder_verification_level,
           created_at, updated_at)
         VALUES (gen_random_uuid(), $1, $2, 'production', 'x', 'EXTERNAL', 'PIX', 'BRL', $3, $4,
           'INDIVIDUAL', 'THIRD_PARTY', 'x', $5, 'x@example.com', '{}', 'UNDER_VERIFICATION', 'BASIC',
           now(), now())`,
        [customer.id, projectId, keyType, keyValue, holderTaxId],
      );
    const cpf = validCpf();
    for (const [keyType, keyValue, taxId] of [
      ['PHONE', '11987654321', cpf],
      ['EMAIL', 'Ana@Example.com', cpf],
      ['CPF', cpf.replace(/\D/g, ''), cpf],
      ['EVP', '0190A0B2-3C4D-7E5F-8A9B-0C1D2E3F4A5B', cpf],
      ['EMAIL', 'ana@example.com', cpf.replace(/\D/g, '')],
    ]) {
      await expect(
        insert(keyType!, keyValue!, taxId!),
        `${keyType} ${keyValue} ${taxId}`,
      ).rejects.toMatchObject({
        code: '23514',
      });
    }
  });
});
