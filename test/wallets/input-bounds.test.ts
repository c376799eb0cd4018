/**
 * Inputs beyond what the service can hold are refused with 400 and a pointer, changing nothing: a
 * transfer's metadata nested thousands deep (a recursive walk would exhaust the stack) or nested at all, and a sandbox
 * deposit larger than a movement can be.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_DEPTH } from '../../src/http/validation.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { fund, totalOf, walletOn } from './support.ts';

let server: TestServer;
let sandbox: Client;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = (await server.newTenant()).sandboxKey;
  sandbox = client(server.sandbox, key);
});
afterAll(() => server.close());

/** `{"a":{"a":…1…}}`, `levels` objects deep, as text (built without recursion). */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

function postRaw(url: string, body: string, headers: Record<string, string> = {}) {
  return server.sandbox.inject({
    method: 'POST',
    url,
    payload: body,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
  });
}

describe('transfer metadata nested too deep', () => {
  it('answers 400 with a pointer into the metadata for 5,000 levels, with or without an Idempotency-Key', async () => {
    const [a, b] = [await approvedCustomer(sandbox), await approvedCustomer(sandbox)];
    await fund(sandbox, a.id, '10.000000');
    const body = `{"currency":"USDC","from":"${a.id}","to":"${b.id}","amount":"1.000000","metadata":${nested(5_000)}}`;
    const keyed: Record<string, string>[] = [{}, { 'idempotency-key': `deep-${a.id}` }];
    for (const headers of keyed) {
      const answer = await postRaw('/transactions/transfer', body, headers);
      expect(answer.statusCode).toBe(400);
      const problem = answer.json();
      expect(problem.code).toBe('invalid_request');
      expect(problem.errors).toHaveLength(1);
      expect(problem.errors[0].pointer).toMatch(/^\/body\/metadata(\/a)+$/);
      expect(problem.errors[0].message).toContain(`${MAX_INPUT_DEPTH} levels`);
    }
    expect(await totalOf(sandbox, a.id, 'USDC')).toBe('10.000000');
    expect(await totalOf(sandbox, b.id, 'USDC')).toBe('0.000000');
  });

  it('refuses a nested value as every resource does: metadata is strings, one level deep', async () => {
    const [a, b] = [await approvedCustomer(sandbox), await approvedCustomer(sandbox)];
    await fund(sandbox, a.id, '10.000000');
    const answer = await postRaw(
      '/transactions/transfer',
      `{"currency":"USDC","from":"${a.id}","to":"${b.id}","amount":"1.000000","metadata":${nested(3)}}`,
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json().errors[0].pointer).toMatch(/^\/body\/metadata\/a/);
    expect(await totalOf(sandbox, a.id, 'USDC')).toBe('10.000000');

    const flat = await postRaw(
      '/transactions/transfer',
      `{"currency":"USDC","from":"${a.id}","to":"${b.id}","amount":"1.000000","metadata":{"order":"A-1"}}`,
    );
    expect(flat.statusCode).toBe(201);
    expect(flat.json().metadata).toEqual({ order: 'A-1' });
  });
});

describe('POST /sandbox/wallets/{address}/deposit beyond what a movement holds', () => {
  it('answers 400 at /body/amount for 9999999999999.99, crediting nothing', async () => {
    const customer = await approvedCustomer(sandbox);
    const wallet = await walletOn(sandbox, customer.id, 'ETHEREUM');
    const answer = await sandbox.post(`/sandbox/wallets/${wallet.address}/deposit`, {
      currency: 'USDC',
      amount: '9999999999999.99',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().errors).toEqual([
      { pointer: '/body/amount', message: 'must be at most 9223372036854.775807' },
    ]);
    expect(await totalOf(sandbox, customer.id, 'USDC')).toBe('0.000000');
  });

  it('credits the largest amount a movement holds', async () => {
    const customer = await approvedCustomer(sandbox);
    const wallet = await walletOn(sandbox, customer.id, 'ETHEREUM');
    const answer = await sandbox.post(`/sandbox/wallets/${wallet.address}/deposit`, {
      currency: 'USDC',
      amount: '9223372036854.775807',
    });
    expect(answer.statusCode).toBe(201);
    // above the Travel Rule threshold: credited once the originator is known
    expect(answer.json().status).toBe('AWAITING_TRAVEL_RULE');
    const supplied = await sandbox.post(`/transactions/${answer.json().id}/travel-rule`, {
      originator: { name: 'Treasury Ltd' },
      walletType: 'SELF_HOSTED',
    });
    expect(supplied.statusCode).toBe(200);
    expect(await totalOf(sandbox, customer.id, 'USDC')).toBe('9223372036854.775807');
  });

  it('answers a transfer above that amount 400 at /body/amount', async () => {
    const [a, b] = [await approvedCustomer(sandbox), await approvedCustomer(sandbox)];
    const answer = await sandbox.post('/transactions/transfer', {
      currency: 'USDC',
      from: a.id,
      to: b.id,
      amount: '9999999999999.99',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().errors).toEqual([
      { pointer: '/body/amount', message: 'must be at most 9223372036854.775807' },
    ]);
  });
});
