/**
 * Real resources of one tenant, created through the API, to fill the path parameters of every route
 * in the security suite. A route whose parameters cannot be filled fails the suite: add its fixture here.
 */
import { form, PDF } from '../compliance/files.ts';
import {
  approvedCustomer,
  businessBody,
  createCustomer,
  individualBody,
  validCnpj,
  validCpf,
} from '../helpers/factories.ts';
import { type Client, eventually } from '../helpers/server.ts';

export type Fixtures = Record<string, string>;

type Operation = { method: string; path: string };

async function created(api: Client, url: string, body: unknown): Promise<string | undefined> {
  const response = await api.post(url, body);
  return response.statusCode === 201 ? response.json().id : undefined;
}

/** Creates what the routes in `operations` can address, in the sandbox of one tenant. */
export async function createFixtures(api: Client, operations: Operation[]): Promise<Fixtures> {
  const has = (method: string, path: string) =>
    operations.some((o) => o.method === method && o.path === path);
  const taxId = validCpf('5');
  const customer = await approvedCustomer(api, individualBody({ taxId }));
  const fixtures: Fixtures = { customer: customer.id, verification: customer.verification.id };

  if (has('post', '/customers/{id}/documents')) {
    const id = await created(
      api,
      `/customers/${customer.id}/documents`,
      form({ file: { content: PDF, name: 'statement.pdf' } }),
    );
    if (id) fixtures.document = id;
  }
  if (has('post', '/customers/{id}/limit-requests')) {
    const id = await created(api, `/customers/${customer.id}/limit-requests`, {
      requested: { single: '100.00' },
    });
    if (id) fixtures.limitRequest = id;
  }
  if (has('post', '/bank-accounts')) {
    const id = await created(api, '/bank-accounts', {
      customerId: customer.id,
      name: 'Main account',
      rail: 'PIX',
      currency: 'BRL',
      identifier: { keyType: 'CPF', keyValue: taxId },
      holder: {
        type: 'INDIVIDUAL',
        relationship: 'SELF',
        legalName: 'Ana Souza',
        taxId,
        email: 'ana@example.com',
        address: {
          line1: 'Av. Paulista, 1000',
          city: 'São Paulo',
          state: 'SP',
          postalCode: '01310-100',
          country: 'BRA',
        },
      },
    });
    if (id) fixtures.bankAccount = id;
  }
  if (has('post', '/customers/{id}/accounts')) {
    const id = await created(api, `/customers/${customer.id}/accounts`, { currency: 'USD' });
    if (id) fixtures.account = id;
  }
  if (has('post', '/transactions/on-ramp')) {
    const id = await created(api, '/transactions/on-ramp', {
      customerId: customer.id,
      currency: 'BRL',
      amount: '10.00',
    });
    if (id) fixtures.transaction = id;
  }
  if (has('post', '/customers/{id}/associated-parties')) {
    const business = await createCustomer(api, businessBody({ taxId: validCnpj('1') }));
    fixtures.business = business.id;
    const id = await created(api, `/customers/${business.id}/associated-parties`, {
      type: 'INDIVIDUAL',
      role: 'REPRESENTATIVE',
      name: 'Rui Costa',
      taxId: validCpf('1'),
      email: 'rui@example.com',
      address: { line1: 'Rua A, 1', city: 'São Paulo', state: 'SP', postalCode: '01000-000', country: 'BRA' },
    });
    if (id) fixtures.associatedParty = id;
  }
  if (has('post', '/exchange-rates')) {
    const id = await created(api, '/exchange-rates', {
      type: 'LOCKED',
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      sourceAmount: '10.00',
    });
    if (id) fixtures.exchangeRate = id;
  }
  if (has('get', '/events/{id}')) {
    const events = (await api.get('/events?limit=1')).json().data as { eventId: string }[];
    if (events[0]) fixtures.event = events[0].eventId;
  }
  if (has('get', '/customers/{id}/wallets')) {
    const wallets = (await api.get(`/customers/${customer.id}/wallets`)).json().data as { address: string }[];
    if (wallets[0]) fixtures.walletAddress = wallets[0].address;
  }
  if (has('post', '/webhook-endpoints')) {
    const id = await created(api, '/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks' });
    if (id) {
      fixtures.webhookEndpoint = id;
      // an event after the endpoint exists gives it a delivery (to a closed port: it stays pending)
      await createCustomer(api, individualBody({ taxId: validCpf('1') }));
      const deliveries = await eventually(
        () => api.get(`/webhook-endpoints/${id}/deliveries`).then((r) => r.json().data as { id: string }[]),
        (data) => data.length > 0,
        20_000,
      );
      fixtures.delivery = deliveries[0]!.id;
    }
  }
  return fixtures;
}

/** Which fixture fills `{param}` of a path: by the collection the parameter follows. */
const PARAMS: [RegExp, string][] = [
  [/^\/customers\/\{id\}\/associated-parties/, 'business'],
  [/^\/(sandbox\/)?customers\/\{id\}/, 'customer'],
  [/^\/bank-accounts\/\{id\}/, 'bankAccount'],
  [/^\/(sandbox\/)?accounts\/\{id\}/, 'account'],
  [/^\/(sandbox\/)?transactions\/\{id\}/, 'transaction'],
  [/^\/webhook-endpoints\/\{id\}/, 'webhookEndpoint'],
  [/^\/(sandbox\/)?exchange-rates\/\{id\}/, 'exchangeRate'],
  [/^\/events\/\{id\}/, 'event'],
];
const NAMED: Record<string, string> = {
  verificationId: 'verification',
  limitRequestId: 'limitRequest',
  documentId: 'document',
  deliveryId: 'delivery',
  partyId: 'associatedParty',
  address: 'walletAddress',
};

/** The concrete URL for a templated path, or the names of the parameters no fixture fills. */
export function fillPath(path: string, fixtures: Fixtures): { url: string } | { missing: string[] } {
  const missing: string[] = [];
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const fixture = name === 'id' ? PARAMS.find(([pattern]) => pattern.test(path))?.[1] : NAMED[name];
    const value = fixture ? fixtures[fixture] : undefined;
    if (!value) missing.push(`${path}: {${name}}`);
    return value ?? '00000000-0000-4000-8000-000000000000';
  });
  return missing.length > 0 ? { missing } : { url };
}
