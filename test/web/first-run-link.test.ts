/** First run on a new database also invites the Default project's first dashboard admin, in one transaction. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectService } from '../../src/modules/projects/service.ts';
import { createWebUserService } from '../../src/modules/web-users/service.ts';
import { startTestServer, type TestServer, usingPostgres } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ workers: false, ownDatabase: true });
});
afterAll(() => server.close());

// Only the embedded database is new for this file (the shared PostgreSQL one has projects already).
describe.runIf(!usingPostgres())('first run', () => {
  it('prints a one-time sign-in link for the Default project first admin', async () => {
    const users = createWebUserService({ ...server.ctx, encryptionKey: server.ctx.instanceKeys.encryption });
    const setup = await createProjectService(server.ctx).firstRun(true, (tx, projectId) =>
      users.inviteIn(
        tx,
        { id: null, name: 'first-run' },
        { surface: 'dashboard', projectId, role: 'admin' },
        server.config.adminEmail,
      ),
    );
    expect(setup!.extra).toMatchObject({ email: 'admin@ponte.local', role: 'admin' });
    const token = setup!.extra!.inviteUrl.split('/').pop()!;
    const invited = await users.invitation('dashboard', token);
    expect(invited?.project_id).toBe(setup!.projectId);
    const accepted = await users.acceptInvite('dashboard', token, 'first admin password');
    expect(accepted.token).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(await users.invitation('dashboard', token)).toBeNull();
  });
});
