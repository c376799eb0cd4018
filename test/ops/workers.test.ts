/**
 * API-only processes: with `PONTE_WORKERS=false` a process serves the APIs and runs no background job;
 * a worker process over the same database carries the work on.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startConfiguredWorkers } from '../../src/workers/index.ts';
import { createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { client, eventually } from '../helpers/server.ts';
import { type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';

let server: IsolatedServer | undefined;
afterAll(async () => {
  await server?.close();
});

describe('PONTE_WORKERS', () => {
  it('is on by default, and takes true or false only', () => {
    expect(loadConfig({}).workers).toBe(true);
    expect(loadConfig({ PONTE_WORKERS: 'false' }).workers).toBe(false);
    expect(loadConfig({ PONTE_WORKERS: 'true' }).workers).toBe(true);
    expect(() => loadConfig({ PONTE_WORKERS: 'sometimes' })).toThrow(/PONTE_WORKERS must be true or false/);
  });

  it('an API-only process runs no background job: a sandbox verification stays unsettled until a worker process runs', async () => {
    // A database of its own: on PostgreSQL, other files' workers would settle the verification.
    server = await startIsolatedServer({ env: { PONTE_WORKERS: 'false' } });
    const tenant = await server.newTenant();
    const sandbox = client(server.sandbox, tenant.sandboxKey);
    const customer = await createCustomer(sandbox, individualBody({ taxId: validCpf('5') }));
    const status = async () =>
      (await sandbox.get(`/customers/${customer.id}/verifications/${customer.verification.id}`)).json()
        .status as string;

    // The outcome is due at once and the sandbox worker looks every 200 ms: five of its intervals pass.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await status()).toBe('NOT_STARTED');
    const [due] = await server.ctx.db.query<{ sandbox_due_at: Date | null }>(
      'SELECT sandbox_due_at FROM verifications WHERE id = $1',
      [customer.verification.id],
    );
    expect(due!.sandbox_due_at).not.toBeNull();

    // A worker process over the same database: the same context, configured with its workers on.
    const worker = startConfiguredWorkers(
      { ...server.ctx, config: { ...server.config, workers: true } },
      { error() {} },
    );
    expect(worker).toBeDefined();
    try {
      expect(await eventually(status, (value) => value === 'APPROVED')).toBe('APPROVED');
    } finally {
      await worker?.stop();
    }
  });
});

describe('PONTE_WORKER_MAX_IDLE_MS', () => {
  it('defaults to 10 s on PostgreSQL and 30 s on the embedded database, where every look costs the process itself', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/ponte' }).workerMaxIdleMs).toBe(10_000);
    expect(loadConfig({}).workerMaxIdleMs).toBe(30_000);
    expect(loadConfig({ PONTE_WORKER_MAX_IDLE_MS: '5000' }).workerMaxIdleMs).toBe(5_000);
  });
});
