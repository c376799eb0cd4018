/**
 * Every request body in the API document has a valid example, and the reference's "Test Request" sends
 * a body the API accepts: each example validates against its own operation's schema, and each, sent to
 * the sandbox with the ids of resources this test created in place of the example's, answers 2xx.
 */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_IDS } from '../../src/http/openapi/request-examples.ts';
import { approvedCustomer, createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, eventually, startTestServer, type TestServer } from '../helpers/server.ts';
import { walletOn } from '../wallets/support.ts';

type Media = { schema?: unknown; examples?: Record<string, { summary?: string; value: unknown }> };
type Document = {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, Media> } }>>;
};
type Found = { route: string; name: string; value: Record<string, unknown>; schema: string };

/** Bodies the reference cannot send as a JSON example: a file upload is a form the reference builds. */
const WITHOUT_JSON_EXAMPLE = new Set(['POST /customers/{id}/documents']);

let server: TestServer;
let sandbox: Client;
const documents = {} as Record<'sandbox' | 'production', Document>;

beforeAll(async () => {
  // The webhook example's address is the partner's own: here one on this machine stands in for it.
  server = await startTestServer({ env: { PONTE_SANDBOX_WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
  for (const environment of ['sandbox', 'production'] as const) {
    documents[environment] = (await server.app(environment).inject({ url: '/openapi.json' })).json();
  }
});
afterAll(() => server.close());

const pointerSegment = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function bodies(document: Document) {
  const out: { route: string; media: Record<string, Media>; path: string; method: string }[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation.requestBody?.content) {
        out.push({
          route: `${method.toUpperCase()} ${path}`,
          media: operation.requestBody.content,
          path,
          method,
        });
      }
    }
  }
  return out;
}

function examples(document: Document): Found[] {
  return bodies(document).flatMap(({ route, media, path, method }) =>
    Object.entries(media['application/json']?.examples ?? {}).map(([name, example]) => ({
      route,
      name,
      value: example.value as Record<string, unknown>,
      schema: `doc#/paths/${pointerSegment(path)}/${method}/requestBody/content/application~1json/schema`,
    })),
  );
}

describe('request body examples', () => {
  it('every operation with a JSON request body has at least one example', () => {
    for (const document of Object.values(documents)) {
      const missing = bodies(document)
        .filter(
          ({ route, media }) => !WITHOUT_JSON_EXAMPLE.has(route) && !media['application/json']?.examples,
        )
        .map(({ route }) => route);
      expect(missing).toEqual([]);
    }
  });

  it('each example validates against the schema of its own operation', () => {
    for (const document of Object.values(documents)) {
      const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
      const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
      ajv.addSchema(document as object, 'doc');
      const found = examples(document);
      expect(found.length).toBeGreaterThan(15);
      const invalid = found.flatMap((example) => {
        const validate = ajv.getSchema(example.schema)!;
        return validate(example.value)
          ? []
          : [`${example.route} ${example.name}: ${ajv.errorsText(validate.errors)}`];
      });
      expect(invalid).toEqual([]);
    }
  });

  it('the production document shows the same examples as the sandbox for the operations both serve', () => {
    const sandboxExamples = new Map(
      examples(documents.sandbox).map((e) => [`${e.route} ${e.name}`, e.value]),
    );
    for (const example of examples(documents.production)) {
      expect(example.value).toEqual(sandboxExamples.get(`${example.route} ${example.name}`));
    }
  });

  it('each example is accepted by the sandbox, sent with the ids of resources created first', async () => {
    const found = new Map(examples(documents.sandbox).map((e) => [`${e.route} ${e.name}`, e]));
    const sent = new Set<string>();

    /** Sends one example to `path`, its example ids replaced by `ids`; answers the parsed 2xx body. */
    async function send(route: string, name: string, path: string, ids: Record<string, string> = {}) {
      const example = found.get(`${route} ${name}`);
      if (!example) throw new Error(`no example ${name} of ${route} in the document`);
      let text = JSON.stringify(example.value);
      for (const [placeholder, real] of Object.entries(ids)) text = text.replaceAll(placeholder, real);
      const answer = await sandbox.post(path, JSON.parse(text));
      expect([route, name, answer.statusCode, answer.body]).toEqual([
        route,
        name,
        expect.toSatisfy((status: number) => status >= 200 && status < 300),
        answer.body,
      ]);
      sent.add(`${route} ${name}`);
      return answer.json();
    }
    const status = (id: string, wanted: string) =>
      eventually(
        () => sandbox.get(`/transactions/${id}`).then((r) => r.json()),
        (t) => t.status === wanted,
        15_000,
      );

    // Customers: the person the money examples use, and the company the parties belong to.
    const person = await send('POST /customers', 'individual', '/customers');
    const company = await send('POST /customers', 'business', '/customers');
    await eventually(
      () => sandbox.get(`/customers/${person.id}`).then((r) => r.json()),
      (c) => c.verification.status === 'APPROVED',
      15_000,
    );
    const other = await approvedCustomer(sandbox);
    const ids = { [EXAMPLE_IDS.customerId]: person.id, [EXAMPLE_IDS.otherCustomerId]: other.id };

    await send(
      'POST /customers/{id}/associated-parties',
      'ubo',
      `/customers/${company.id}/associated-parties`,
    );
    await send(
      'POST /customers/{id}/associated-parties',
      'representative',
      `/customers/${company.id}/associated-parties`,
    );
    await send('POST /customers/{id}/tos', 'redirect', `/customers/${company.id}/tos`);
    await send('POST /customers/{id}/limit-requests', 'limits', `/customers/${person.id}/limit-requests`);
    const usdAccounts = [];
    for (const name of ['usdc', 'usdtOnTron']) {
      usdAccounts.push(await send('POST /customers/{id}/accounts', name, `/customers/${person.id}/accounts`));
    }
    for (const name of ['approved', 'rejected']) {
      const undecided = await createCustomer(sandbox, individualBody({ taxId: validCpf('1') }));
      const path = `/sandbox/customers/${undecided.id}/verification`;
      await send('POST /sandbox/customers/{id}/verification', 'review', path);
      await send('POST /sandbox/customers/{id}/verification', name, path);
    }
    const account = await send('POST /bank-accounts', 'own', '/bank-accounts', ids);
    ids[EXAMPLE_IDS.bankAccountId] = account.id;
    await send('POST /bank-accounts', 'ach', '/bank-accounts', ids);

    // Money in: an on-ramp paid in the sandbox, a stablecoin deposit, and one large enough to need the
    // Travel Rule's originator before it is credited.
    const onRamp = await send('POST /transactions/on-ramp', 'amount', '/transactions/on-ramp', ids);
    await send(
      'POST /sandbox/transactions/{id}/deposit',
      'exact',
      `/sandbox/transactions/${onRamp.id}/deposit`,
    );
    await status(onRamp.id, 'SUCCESS');
    const wallet = await walletOn(sandbox, person.id, 'ETHEREUM');
    await send(
      'POST /sandbox/wallets/{address}/deposit',
      'usdc',
      `/sandbox/wallets/${wallet.address}/deposit`,
    );
    const large = await sandbox.post(`/sandbox/wallets/${wallet.address}/deposit`, {
      currency: 'USDC',
      amount: '5000.000000',
      blockchain: 'ETHEREUM',
      from: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
    });
    expect(large.statusCode).toBe(201);
    const deposit = await status(large.json().id, 'AWAITING_TRAVEL_RULE');
    await send('POST /transactions/{id}/travel-rule', 'hosted', `/transactions/${deposit.id}/travel-rule`);
    await status(deposit.id, 'SUCCESS');
    for (const name of ['ach', 'wire']) {
      const path = `/sandbox/accounts/${usdAccounts[0].id}/deposit`;
      const dollars = await send('POST /sandbox/accounts/{id}/deposit', name, path);
      expect(dollars.outcome).toBe('APPLIED');
      await status(dollars.transaction.id, 'SUCCESS');
    }

    // Quotes, and the ramps that use one.
    await send('POST /exchange-rates', 'floating', '/exchange-rates');
    const buy = await sandbox.post('/exchange-rates', {
      type: 'LOCKED',
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      sourceAmount: '1500.00',
      timeLock: '1m',
    });
    await send('POST /transactions/on-ramp', 'quote', '/transactions/on-ramp', {
      ...ids,
      [EXAMPLE_IDS.exchangeRateId]: buy.json().id,
    });
    const sell = await send('POST /exchange-rates', 'locked', '/exchange-rates');
    await send('POST /transactions/off-ramp', 'quote', '/transactions/off-ramp', {
      ...ids,
      [EXAMPLE_IDS.exchangeRateId]: sell.id,
    });
    const offRamp = await send('POST /transactions/off-ramp', 'amount', '/transactions/off-ramp', ids);
    await status(offRamp.id, 'SUCCESS');
    await send(
      'POST /sandbox/transactions/{id}/return',
      'closed',
      `/sandbox/transactions/${offRamp.id}/return`,
    );

    await send('POST /transactions/transfer', 'customer', '/transactions/transfer', ids);
    await send('POST /transactions/transfer', 'external', '/transactions/transfer', ids);

    const endpoint = await send('POST /webhook-endpoints', 'endpoint', '/webhook-endpoints', {
      'https://partner.example/ponte/webhooks': 'http://127.0.0.1:9/ponte/webhooks',
    });
    await send(
      'POST /webhook-endpoints/{id}/rotate-secret',
      'overlap',
      `/webhook-endpoints/${endpoint.id}/rotate-secret`,
    );

    expect([...found.keys()].filter((key) => !sent.has(key))).toEqual([]);
  }, 90_000);
});
