/**
 * An answer that carries a secret shown once (a webhook signing secret) says `Cache-Control: no-store`,
 * first time and replayed, and is replayed only within a short window (10 minutes); after it the retry
 * is refused as a reused key (422) and the stored answer is erased.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_REPLAY_WINDOW_MS, sweepIdempotencyKeys } from '../../src/http/idempotency-repo.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';

let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

let server: TestServer;
let sandbox: Client;

beforeAll(async () => {
  server = await startTestServer({ clock, workers: false });
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
}, 180_000);
afterAll(() => server.close());

describe('idempotent answers carrying a secret', () => {
  it('are no-store, replayed within 10 minutes only, then refused and erased', async () => {
    expect(SECRET_REPLAY_WINDOW_MS).toBe(10 * 60_000);
    const body = { url: 'https://93.184.215.14/hooks' };
    const headers = { 'idempotency-key': 'endpoint-with-secret-1' };
    const first = await sandbox.post('/webhook-endpoints', body, headers);
    expect(first.statusCode).toBe(201);
    expect(first.headers['cache-control']).toBe('no-store');
    const secret = first.json().secret as string;

    offsetMs = SECRET_REPLAY_WINDOW_MS - 60_000;
    const replayed = await sandbox.post('/webhook-endpoints', body, headers);
    expect(replayed.statusCode).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.headers['cache-control']).toBe('no-store');
    expect(replayed.json().secret).toBe(secret);

    offsetMs = SECRET_REPLAY_WINDOW_MS + 1_000;
    const late = await sandbox.post('/webhook-endpoints', body, headers);
    expect(late.statusCode).toBe(422);
    expect(late.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(late.json().code).toBe('idempotency_key_reused');
    expect(late.body).not.toContain(secret);
    // still one endpoint: the late retry did not create another
    expect((await sandbox.get('/webhook-endpoints')).json().pagination.total).toBe(1);

    await sweepIdempotencyKeys(server.ctx.db, clock());
    const [row] = await server.ctx.db.query<{ response_body: string | null }>(
      "SELECT response_body FROM idempotency_keys WHERE key = 'endpoint-with-secret-1'",
    );
    expect(row!.response_body).toBe('');
    const afterSweep = await sandbox.post('/webhook-endpoints', body, headers);
    expect(afterSweep.statusCode).toBe(422);
  });

  it('other answers stay replayable for 24 hours', async () => {
    const start = offsetMs;
    const headers = { 'idempotency-key': 'customer-list-safe-1' };
    const body = {
      type: 'INDIVIDUAL',
      name: 'Ana Souza',
      taxId: 'X-123',
      country: 'USA',
      email: 'ana@example.com',
    };
    const first = await sandbox.post('/customers', body, headers);
    offsetMs = start + 23 * 3600_000;
    const replayed = await sandbox.post('/customers', body, headers);
    expect(replayed.statusCode).toBe(first.statusCode);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
  });
});
