import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/secrets.ts';
import { createProjectService } from '../../src/modules/projects/service.ts';
import { individualBody } from '../helpers/factories.ts';
import { client, startTestServer, type TestServer, usingPostgres } from '../helpers/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ workers: false, ownDatabase: true });
});
afterAll(() => server.close());

// On the run's shared PostgreSQL database other files have created projects already, so "a new
// database" exists only on the embedded one, where each file has its own.
describe.runIf(!usingPostgres())('first run on a new database', () => {
  it('creates the Default project with a working sandbox key and operator token, once', async () => {
    const projects = createProjectService(server.ctx);
    const setup = await projects.firstRun(true);
    expect(setup).not.toBeNull();
    expect(setup!.sandboxKey).toMatch(/^sk_sandbox_/);
    expect(setup!.operatorToken).toMatch(/^op_[0-9A-Za-z]{40}$/);

    const [project] = await server.ctx.db.query<{ name: string }>('SELECT name FROM projects WHERE id = $1', [
      setup!.projectId,
    ]);
    expect(project!.name).toBe('Default');
    // shown once: only hashes are stored
    const stored = await server.ctx.db.query<{ n: bigint }>(
      `SELECT (SELECT count(*) FROM api_keys WHERE key_hash = $1) + (SELECT count(*) FROM operators WHERE token_hash = $2) AS n`,
      [sha256Hex(setup!.sandboxKey), sha256Hex(setup!.operatorToken!)],
    );
    expect(stored[0]!.n).toBe(2n);

    const created = await client(server.sandbox, setup!.sandboxKey).post('/customers', individualBody());
    expect(created.statusCode).toBe(201);
    const operatorCall = await server.operator.inject({
      method: 'POST',
      url: '/operator/projects',
      payload: { name: 'Second partner' },
      headers: { authorization: `Bearer ${setup!.operatorToken}` },
    });
    expect(operatorCall.statusCode).toBe(201);

    expect(await projects.firstRun(true)).toBeNull();
  });
});
