/**
 * What a form shows once after its redirect (a new key, a signing secret, an invitation link): sealed at
 * rest, taken once, by the session that made it and the page of its kind only, and gone after ten minutes
 * or with the session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlashes, FLASH_TTL_MS } from '../../src/modules/web-users/flashes.ts';
import { createWebUserService } from '../../src/modules/web-users/service.ts';
import { closeSession, resolveSession, type Session } from '../../src/modules/web-users/sessions.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { manualClock } from '../webhooks/support.ts';

let server: TestServer;
let projectId: string;

beforeAll(async () => {
  server = await startTestServer({ workers: false });
  projectId = (await server.newTenant('Flash')).projectId;
});
afterAll(() => server.close());

async function signedIn(email: string): Promise<Session> {
  const users = createWebUserService({ ...server.ctx, encryptionKey: server.ctx.instanceKeys.encryption });
  const invited = await users.invite(
    { id: null, name: 'test' },
    { surface: 'dashboard', projectId, role: 'admin' },
    email,
  );
  const accepted = await users.acceptInvite(
    'dashboard',
    invited.inviteUrl.split('/').pop()!,
    'a long password here',
  );
  return (await resolveSession(server.ctx.db, server.ctx.clock, accepted.token))!;
}

describe('flashes shown once after a redirect', () => {
  it('a flash is sealed at rest, taken once, and only by its session and kind', async () => {
    const time = manualClock();
    const flashes = createFlashes({
      ...server.ctx,
      clock: time.clock,
      encryptionKey: server.ctx.instanceKeys.encryption,
    });
    const ana = await signedIn('ana@flash.example');
    const bia = await signedIn('bia@flash.example');
    const id = await flashes.put(ana, 'api-key', { key: 'sk_sandbox_secretvalue', name: 'x' });
    const stored = await server.ctx.db.query<{ sealed: string }>(
      'SELECT sealed FROM web_flashes WHERE id = $1',
      [id],
    );
    expect(stored[0]!.sealed).not.toContain('secretvalue');
    expect(await flashes.take(bia, 'api-key', id)).toBeNull();
    expect(await flashes.take(ana, 'invitation', id)).toBeNull();
    expect(await flashes.take(ana, 'api-key', 'not-an-id')).toBeNull();
    expect(await flashes.take(ana, 'api-key', id)).toEqual({ key: 'sk_sandbox_secretvalue', name: 'x' });
    expect(await flashes.take(ana, 'api-key', id)).toBeNull();
  });

  it('a flash not taken within ten minutes is gone, and so is one whose session ended', async () => {
    const time = manualClock();
    const flashes = createFlashes({
      ...server.ctx,
      clock: time.clock,
      encryptionKey: server.ctx.instanceKeys.encryption,
    });
    const ana = await signedIn('carla@flash.example');
    const late = await flashes.put(ana, 'webhook-secret', { secret: 'whsec_late' });
    time.advance(FLASH_TTL_MS);
    expect(await flashes.take(ana, 'webhook-secret', late)).toBeNull();

    const ended = await flashes.put(ana, 'webhook-secret', { secret: 'whsec_ended' });
    await closeSession(server.ctx.db, ana);
    expect(await server.ctx.db.query('SELECT 1 FROM web_flashes WHERE id = $1', [ended])).toHaveLength(0);
  });
});
