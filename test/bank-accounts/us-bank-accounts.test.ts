/**
 * Bank accounts that pay US dollars: rail ACH or WIRE, currency USD, identified by an ABA routing number,
 * an account number and its type, held by someone with a US or a foreign address. PIX accounts keep their
 * rules; a body that mixes the two is refused with pointers at the fields in question.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../../src/app.ts';
import { createHolderReviewService } from '../../src/modules/bank-accounts/holder-review.ts';
import { createWebUserService } from '../../src/modules/web-users/service.ts';
import * as holderPage from '../../src/web/pages/console/holder.ts';
import * as holdersPage from '../../src/web/pages/console/holders.ts';
import { accountIdentifier } from '../../src/web/pages/shared/bank-account.ts';
import { approvedCustomer, type CustomerView, createCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, startTestApi, type TestApi } from '../helpers/server.ts';
import { importFixture, OFAC_DIR } from '../screening/support.ts';
import { ACCOUNT_KEYS, accountBody } from './bodies.ts';

let api: TestApi;
let sandbox: Client;
let production: Client;
let customer: CustomerView;

beforeAll(async () => {
  // its own database: the sanctions lists imported here must not screen other files' people
  api = await startTestApi({ ownDatabase: true });
  ({ sandbox, production } = api);
  await importFixture(api.server, 'ofac-sdn', OFAC_DIR);
  customer = await createCustomer(production);
});
afterAll(() => api.server.close());

const db = () => api.server.ctx.db;

/** JPMorgan Chase's and the Federal Reserve Bank of Boston's routing numbers: valid check digits. */
const CHASE = '021000021';
const FED_BOSTON = '011000015';

const US_ADDRESS = {
  line1: '350 Fifth Avenue',
  city: 'New York',
  state: 'NY',
  postalCode: '10118',
  country: 'USA',
};

type Overrides = {
  identifier?: Record<string, unknown>;
  holder?: Record<string, unknown>;
  address?: Record<string, unknown>;
  [field: string]: unknown;
};

/** A valid ACH account of a third-party business with a US address, with nested overrides. */
function usBody(customerId: string, overrides: Overrides = {}) {
  const { identifier, holder, address, ...top } = overrides;
  return {
    customerId,
    name: 'Supplier in New York',
    rail: 'ACH',
    currency: 'USD',
    identifier: {
      routingNumber: CHASE,
      accountNumber: '000123456789',
      accountType: 'CHECKING',
      ...identifier,
    },
    holder: {
      type: 'BUSINESS',
      relationship: 'THIRD_PARTY',
      legalName: 'Hudson Supply LLC',
      taxId: '12-3456789',
      email: 'billing@hudsonsupply.example',
      address: { ...US_ADDRESS, ...address },
      ...holder,
    },
    ...top,
  };
}

const pointers = (response: { json(): { errors?: { pointer: string }[] } }) =>
  (response.json().errors ?? []).map((e) => e.pointer).sort();

async function refused(body: unknown) {
  const response = await production.post('/bank-accounts', body);
  expect(response.statusCode, response.body).toBe(400);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.json().code).toBe('invalid_request');
  return response;
}

describe('POST /bank-accounts with rail ACH or WIRE', () => {
  it('registers an ACH account: USD, the US identifier, the holder as given, and bank_account.created', async () => {
    const response = await production.post(
      '/bank-accounts',
      usBody(customer.id, { identifier: { accountNumber: ' 0001-2345 6789 ' } }),
    );
    expect(response.statusCode, response.body).toBe(201);
    const account = response.json();
    expect(Object.keys(account).sort()).toEqual(ACCOUNT_KEYS);
    expect(account).toEqual({
      id: expect.any(String),
      customerId: customer.id,
      name: 'Supplier in New York',
      type: 'EXTERNAL',
      rail: 'ACH',
      currency: 'USD',
      identifier: { routingNumber: CHASE, accountNumber: '000123456789', accountType: 'CHECKING' },
      holder: {
        type: 'BUSINESS',
        relationship: 'THIRD_PARTY',
        legalName: 'Hudson Supply LLC',
        taxId: '12-3456789',
        email: 'billing@hudsonsupply.example',
        address: US_ADDRESS,
        verification: { status: 'UNDER_VERIFICATION', level: 'BASIC' },
      },
      metadata: {},
      createdAt: expect.any(String),
      updatedAt: account.createdAt,
    });
    const events = await db().query<{ type: string; resource_type: string; data: unknown }>(
      'SELECT type, resource_type, data FROM events WHERE resource_id = $1',
      [account.id],
    );
    expect(events).toEqual([{ type: 'bank_account.created', resource_type: 'bank_account', data: account }]);
    const [row] = await db().query<Record<string, unknown>>(
      `SELECT rail, currency, key_type, key_value, routing_number, account_number, account_type, holder_tax_id
         FROM bank_accounts WHERE id = $1`,
      [account.id],
    );
    expect(row).toEqual({
      rail: 'ACH',
      currency: 'USD',
      key_type: null,
      key_value: null,
      routing_number: CHASE,
      account_number: '000123456789',
      account_type: 'CHECKING',
      holder_tax_id: '12-3456789',
    });
  });

  it('registers a WIRE account to a savings account of up to 34 characters, the holder without a taxId', async () => {
    const long = 'ab12-cd34-ef56-gh78-ij90-kl12-mn34-op56-qr'; // 34 letters and digits without hyphens
    const response = await production.post(
      '/bank-accounts',
      usBody(customer.id, {
        rail: 'WIRE',
        identifier: { routingNumber: FED_BOSTON, accountNumber: long, accountType: 'SAVINGS' },
        holder: { type: 'INDIVIDUAL', legalName: 'Mary Smith', taxId: undefined },
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    const account = response.json();
    expect(account).toMatchObject({
      rail: 'WIRE',
      currency: 'USD',
      identifier: {
        routingNumber: FED_BOSTON,
        accountNumber: 'AB12CD34EF56GH78IJ90KL12MN34OP56QR',
        accountType: 'SAVINGS',
      },
    });
    expect(account.identifier.accountNumber).toBe(long.replace(/-/g, '').toUpperCase());
    expect('taxId' in account.holder).toBe(false);
    const [event] = await db().query<{ type: string; data: unknown }>(
      'SELECT type, data FROM events WHERE resource_id = $1',
      [account.id],
    );
    expect(event).toEqual({ type: 'bank_account.created', data: account });
  });

  it('accepts a foreign (non-US) holder address and a taxId as written, trimmed', async () => {
    const response = await production.post(
      '/bank-accounts',
      usBody(customer.id, {
        holder: { taxId: '  GB 123 4567 89  ' },
        address: {
          line1: '10 Downing Street',
          city: 'London',
          state: 'England',
          postalCode: 'SW1A 2AA',
          country: 'GBR',
        },
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().holder).toMatchObject({
      taxId: 'GB 123 4567 89',
      address: { state: 'England', postalCode: 'SW1A 2AA', country: 'GBR' },
    });
  });

  it('normalises a US address: state in upper case, ZIP+4 hyphenated', async () => {
    const response = await production.post(
      '/bank-accounts',
      usBody(customer.id, { address: { state: 'ca', postalCode: '941051234' } }),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().holder.address).toMatchObject({ state: 'CA', postalCode: '94105-1234' });
  });
});

describe('refused US accounts', () => {
  it('refuses a routing number whose check digit is wrong, at /body/identifier/routingNumber', async () => {
    const response = await refused(usBody(customer.id, { identifier: { routingNumber: '021000022' } }));
    expect(response.json().errors).toEqual([
      {
        pointer: '/body/identifier/routingNumber',
        message: 'must be an ABA routing number: its check digit is wrong',
      },
    ]);
    for (const routingNumber of ['02100002', '0210000210', '02100002A', '991000021']) {
      const other = await refused(usBody(customer.id, { identifier: { routingNumber } }));
      expect(pointers(other), routingNumber).toEqual(['/body/identifier/routingNumber']);
    }
  });

  it('refuses an ACH account number longer than 17 characters, which a WIRE account may have', async () => {
    const eighteen = '123456789012345678';
    const response = await refused(usBody(customer.id, { identifier: { accountNumber: eighteen } }));
    expect(response.json().errors).toEqual([
      {
        pointer: '/body/identifier/accountNumber',
        message: 'must be a US account number: letters and digits, at most 17 for ACH',
      },
    ]);
    const wire = await production.post(
      '/bank-accounts',
      usBody(customer.id, { rail: 'WIRE', identifier: { accountNumber: eighteen } }),
    );
    expect(wire.statusCode, wire.body).toBe(201);
    const odd = await refused(usBody(customer.id, { identifier: { accountNumber: '1234/5678' } }));
    expect(pointers(odd)).toEqual(['/body/identifier/accountNumber']);
    const type = await refused(usBody(customer.id, { identifier: { accountType: 'MONEY_MARKET' } }));
    expect(pointers(type)).toEqual(['/body/identifier/accountType']);
  });

  it('refuses a rail and a currency that do not go together, at /body/currency', async () => {
    const achInBrl = await refused(usBody(customer.id, { currency: 'BRL' }));
    expect(achInBrl.json().errors).toEqual([{ pointer: '/body/currency', message: 'must be USD' }]);
    const wireInBrl = await refused(usBody(customer.id, { rail: 'WIRE', currency: 'BRL' }));
    expect(pointers(wireInBrl)).toEqual(['/body/currency']);
    const pixInUsd = await refused(accountBody(customer.id, { currency: 'USD' }));
    expect(pixInUsd.json().errors).toEqual([{ pointer: '/body/currency', message: 'must be BRL' }]);
    const euro = await refused(usBody(customer.id, { currency: 'EUR' }));
    expect(pointers(euro)).toEqual(['/body/currency']);
  });

  it("refuses one rail's identifier on the other rail, pointing at each field", async () => {
    const pixKeyOnAch = await refused(
      usBody(customer.id, { identifier: { keyType: 'CPF', keyValue: customer.taxId } }),
    );
    expect(pointers(pixKeyOnAch)).toEqual(['/body/identifier/keyType', '/body/identifier/keyValue']);
    const onlyPixKeyOnAch = await refused({
      ...usBody(customer.id),
      identifier: { keyType: 'CPF', keyValue: customer.taxId },
    });
    expect(pointers(onlyPixKeyOnAch)).toEqual([
      '/body/identifier/accountNumber',
      '/body/identifier/accountType',
      '/body/identifier/keyType',
      '/body/identifier/keyValue',
      '/body/identifier/routingNumber',
    ]);
    const usOnPix = await refused({
      ...accountBody(customer.id),
      identifier: { routingNumber: CHASE, accountNumber: '000123456789', accountType: 'CHECKING' },
    });
    expect(pointers(usOnPix)).toEqual([
      '/body/identifier/accountNumber',
      '/body/identifier/accountType',
      '/body/identifier/keyType',
      '/body/identifier/keyValue',
      '/body/identifier/routingNumber',
    ]);
    const routingOnPix = await refused(accountBody(customer.id, { identifier: { routingNumber: CHASE } }));
    expect(routingOnPix.json().errors).toEqual([
      { pointer: '/body/identifier/routingNumber', message: 'is not a known field' },
    ]);
  });

  it('still requires the CPF or CNPJ of a PIX holder, and no taxId rule of PIX applies to USD', async () => {
    const pixWithoutTaxId = await refused(accountBody(customer.id, { holder: { taxId: undefined } }));
    expect(pixWithoutTaxId.json().errors).toEqual([
      { pointer: '/body/holder/taxId', message: 'is required' },
    ]);
    const blank = await refused(usBody(customer.id, { holder: { taxId: '   ' } }));
    expect(blank.json().errors).toEqual([{ pointer: '/body/holder/taxId', message: 'must not be blank' }]);
    const tooLong = await refused(usBody(customer.id, { holder: { taxId: '1'.repeat(33) } }));
    expect(pointers(tooLong)).toEqual(['/body/holder/taxId']);
  });

  it('requires a USPS state code and a ZIP code for a USA address', async () => {
    const bad = await refused(usBody(customer.id, { address: { state: 'New York', postalCode: '1011' } }));
    expect(bad.json().errors).toEqual([
      { pointer: '/body/holder/address/state', message: 'must be a US state code (USPS), such as NY' },
      {
        pointer: '/body/holder/address/postalCode',
        message: 'must be a ZIP code, such as 10001 or 10001-2345',
      },
    ]);
    for (const postalCode of ['10118-12', '1011A', '10118 1234 5']) {
      const other = await refused(usBody(customer.id, { address: { postalCode } }));
      expect(pointers(other), postalCode).toEqual(['/body/holder/address/postalCode']);
    }
    const zz = await refused(usBody(customer.id, { address: { state: 'ZZ' } }));
    expect(pointers(zz)).toEqual(['/body/holder/address/state']);
    // a Brazilian address keeps its own rules on a USD account
    const brazil = await refused(usBody(customer.id, { address: { state: 'NY', country: 'BRA' } }));
    expect(pointers(brazil)).toEqual(['/body/holder/address/postalCode', '/body/holder/address/state']);
  });

  it('writes nothing on any of these 400s', async () => {
    const count = async () =>
      (
        await db().query<{ n: bigint }>(
          "SELECT count(*) AS n FROM bank_accounts WHERE customer_id = $1 AND rail <> 'PIX'",
          [customer.id],
        )
      )[0]!.n;
    const before = await count();
    await refused(usBody(customer.id, { identifier: { routingNumber: '021000022' } }));
    await refused(usBody(customer.id, { currency: 'BRL' }));
    await refused(usBody(customer.id, { address: { postalCode: 'ABCDE' } }));
    expect(await count()).toBe(before);
  });
});

describe('the holder of a USD account', () => {
  it("SELF: a taxId given must be the customer's (compared without punctuation); none is accepted", async () => {
    const mismatch = await refused(
      usBody(customer.id, { holder: { type: 'INDIVIDUAL', relationship: 'SELF', taxId: '123-45-6789' } }),
    );
    expect(mismatch.json().errors).toEqual([
      {
        pointer: '/body/holder/taxId',
        message: "must be the customer's taxId when the relationship is SELF",
      },
    ]);
    const same = await production.post(
      '/bank-accounts',
      usBody(customer.id, {
        holder: { type: 'INDIVIDUAL', relationship: 'SELF', taxId: customer.taxId.replace(/\D/g, '') },
      }),
    );
    expect(same.statusCode, same.body).toBe(201);
    const none = await production.post(
      '/bank-accounts',
      usBody(customer.id, { holder: { type: 'INDIVIDUAL', relationship: 'SELF', taxId: undefined } }),
    );
    expect(none.statusCode, none.body).toBe(201);
    expect(none.json().holder.relationship).toBe('SELF');
  });

  it('SELF of an approved customer is APPROVED at once, as for PIX', async () => {
    const approved = await approvedCustomer(sandbox, individualBody());
    const response = await sandbox.post(
      '/bank-accounts',
      usBody(approved.id, { holder: { type: 'INDIVIDUAL', relationship: 'SELF', taxId: approved.taxId } }),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().holder.verification).toEqual({ status: 'APPROVED', level: 'BASIC' });
  });

  it('THIRD_PARTY waits UNDER_VERIFICATION and is screened like a PIX holder: a possible match opens a case', async () => {
    const approved = await approvedCustomer(sandbox, individualBody({ name: 'Rafael Nogueira' }));
    const listed = await sandbox.post(
      '/bank-accounts',
      usBody(approved.id, {
        holder: { type: 'INDIVIDUAL', legalName: 'María José Méndez Guerrero', taxId: undefined },
      }),
    );
    expect(listed.statusCode, listed.body).toBe(201);
    const account = listed.json();
    expect(account.holder.verification).toEqual({ status: 'UNDER_VERIFICATION', level: 'BASIC' });
    const cases = await api.operator.get(`/operator/screening/cases?subjectId=${account.id}&status=OPEN`);
    expect(cases.statusCode).toBe(200);
    const [found] = cases.json().data;
    expect(found).toMatchObject({ subjectType: 'BANK_ACCOUNT_HOLDER', customerId: approved.id });
    expect(found.matches[0].sourceUid).toBe('90006');

    const clear = (await sandbox.post('/bank-accounts', usBody(approved.id))).json();
    expect(clear.holder.verification.status).toBe('UNDER_VERIFICATION');
    const none = await api.operator.get(`/operator/screening/cases?subjectId=${clear.id}&status=OPEN`);
    expect(none.json().data).toEqual([]);
  });

  it('an operator approves a USD holder; the review pages show routing and account number and no taxId', async () => {
    const approved = await approvedCustomer(sandbox, individualBody());
    const account = (
      await sandbox.post('/bank-accounts', usBody(approved.id, { holder: { taxId: undefined } }))
    ).json();
    const review = createHolderReviewService(api.server.ctx);
    const detail = holderPage.view('csrf', await review.get(account.id)).safe;
    expect(detail).toContain(`ACH routing ${CHASE} · account 000123456789`);
    expect(detail).toContain('none given');
    expect(detail).not.toContain('undefined');
    const queue = holdersPage.view(await holdersPage.load(review, { status: 'UNDER_VERIFICATION' })).safe;
    expect(queue).not.toContain('undefined');
    expect(queue).toContain('routing');

    const decided = await api.operator.post(`/operator/bank-accounts/${account.id}/holder-review`, {
      status: 'APPROVED',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json()).toMatchObject({
      identifier: account.identifier,
      holder: { verification: { status: 'APPROVED' } },
    });
    expect('taxId' in decided.json().holder).toBe(false);
  });

  it("the dashboard's customer page lists a USD account by routing and account number beside a PIX one", async () => {
    const owner = await approvedCustomer(sandbox, individualBody());
    await sandbox.post('/bank-accounts', accountBody(owner.id));
    const created = await sandbox.post('/bank-accounts', usBody(owner.id, { holder: { taxId: undefined } }));
    expect(created.statusCode, created.body).toBe(201);
    const dashboard = await buildDashboardApp(api.server.ctx);
    try {
      const users = createWebUserService({
        ...api.server.ctx,
        encryptionKey: api.server.ctx.instanceKeys.encryption,
      });
      const email = `user-${randomUUID()}@partner.example`;
      const invited = await users.invite(
        { id: null, name: 'test' },
        { surface: 'dashboard', projectId: api.tenant.projectId, role: 'admin' },
        email,
      );
      const password = 'a long enough password';
      await users.acceptInvite('dashboard', invited.inviteUrl.split('/').pop()!, password);
      const signedIn = await dashboard.inject({
        method: 'POST',
        url: '/sign-in',
        payload: new URLSearchParams({ email, password, next: '/' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      const cookie = signedIn.cookies.find((c) => c.name === 'ponte_dashboard_session')!;
      const page = await dashboard.inject({
        method: 'GET',
        url: `/sandbox/customers/${owner.id}`,
        cookies: { [cookie.name]: cookie.value },
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`ACH routing ${CHASE} · account 000123456789`);
      expect(page.body).toContain(`PIX CPF `);
      expect(page.body).not.toContain('undefined');
    } finally {
      await dashboard.close();
    }
  });

  it('pages name a PIX account by its key and a US account by its routing and account number', () => {
    expect(
      accountIdentifier({ rail: 'PIX', identifier: { keyType: 'CPF', keyValue: '529.982.247-25' } }).safe,
    ).toBe('<code>PIX CPF 529.982.247-25</code>');
    expect(
      accountIdentifier({
        rail: 'WIRE',
        identifier: { routingNumber: CHASE, accountNumber: '42', accountType: 'SAVINGS' },
      }).safe,
    ).toBe(`<code>WIRE routing ${CHASE} · account 42</code> (SAVINGS)`);
  });
});

describe('reading and removing USD accounts', () => {
  it('reads, lists beside PIX accounts, and removes a USD account', async () => {
    const owner = await createCustomer(production, individualBody());
    const pix = (await production.post('/bank-accounts', accountBody(owner.id))).json();
    const ach = (await production.post('/bank-accounts', usBody(owner.id))).json();
    const wire = (await production.post('/bank-accounts', usBody(owner.id, { rail: 'WIRE' }))).json();
    expect((await production.get(`/bank-accounts/${ach.id}`)).json()).toEqual(ach);
    const listed = (await production.get(`/bank-accounts?customerId=${owner.id}`)).json();
    expect(listed.data).toEqual([wire, ach, pix]);
    expect(listed.data.map((a: { rail: string; currency: string }) => `${a.rail}/${a.currency}`)).toEqual([
      'WIRE/USD',
      'ACH/USD',
      'PIX/BRL',
    ]);
    expect((await production.delete(`/bank-accounts/${ach.id}`)).statusCode).toBe(204);
    expect((await production.get(`/bank-accounts/${ach.id}`)).statusCode).toBe(404);
    expect((await production.get(`/bank-accounts?customerId=${owner.id}`)).json().data).toEqual([wire, pix]);
  });
});

describe('database invariants of the rails', () => {
  const insert = (columns: Record<string, unknown>) => {
    const row: Record<string, unknown> = {
      rail: 'PIX',
      currency: 'BRL',
      key_type: 'EMAIL',
      key_value: 'ana@example.com',
      routing_number: null,
      account_number: null,
      account_type: null,
      holder_tax_id: '529.982.247-25',
      ...columns,
    };
    const names = Object.keys(row);
    return db().query(
      `INSERT INTO bank_accounts (id, customer_id, project_id, environment, name, type, ${names.join(', ')},
         holder_type, holder_relationship, holder_legal_name, holder_email, holder_address,
         holder_verification_status, holder_verification_level, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, $2, 'production', 'x', 'EXTERNAL', ${names.map((_, i) => `$${i + 3}`).join(', ')},
         'INDIVIDUAL', 'THIRD_PARTY', 'x', 'x@example.com', '{}', 'UNDER_VERIFICATION', 'BASIC', now(), now())`,
      [customer.id, api.tenant.projectId, ...Object.values(row)],
    );
  };
  const US = {
    rail: 'ACH',
    currency: 'USD',
    key_type: null,
    key_value: null,
    routing_number: CHASE,
    account_number: '000123456789',
    account_type: 'CHECKING',
    holder_tax_id: null,
  };

  it('accepts a well-formed row of each rail', async () => {
    await insert({});
    await insert(US);
    await insert({ ...US, rail: 'WIRE', holder_tax_id: 'EIN 12-3456789' });
  });

  it('refuses a PIX row without its key or taxId, or with US fields; a US row with a key or without its US fields', async () => {
    const bad: Record<string, unknown>[] = [
      { key_type: null, key_value: null },
      { key_value: null },
      { holder_tax_id: null },
      { currency: 'USD' },
      { routing_number: CHASE },
      { ...US, currency: 'BRL' },
      { ...US, key_type: 'EMAIL', key_value: 'ana@example.com' },
      { ...US, routing_number: null },
      { ...US, routing_number: '02100002' },
      { ...US, account_number: null },
      { ...US, account_number: '123456789012345678' },
      { ...US, account_type: null },
      { ...US, account_type: 'MONEY_MARKET' },
      { ...US, rail: 'SWIFT' },
    ];
    for (const columns of bad) {
      await expect(insert(columns), JSON.stringify(columns)).rejects.toMatchObject({ code: '23514' });
    }
  });
});
