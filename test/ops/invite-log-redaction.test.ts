/**
 * Invitation links grant access to the dashboard or the console until used or expired: their tokens
 * never reach a log line, whether the link is opened, used, or refused.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp, buildOperatorApp } from '../../src/app.ts';
import { scrubSecrets } from '../../src/http/logger.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const lines: string[] = [];
const capture = { write: (line: string) => void lines.push(line) };

let server: TestServer;
let dashboard: FastifyInstance;
let operator: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ workers: false });
  const options = { logLevel: 'trace', logStream: capture };
  [dashboard, operator] = await Promise.all([
    buildDashboardApp(server.ctx, options),
    buildOperatorApp(server.ctx, options),
  ]);
});
afterAll(async () => {
  await Promise.all([dashboard.close(), operator.close()]);
  await server.close();
});

const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

describe('invitation links in request logs', () => {
  it('redacts the token of /invite/<token> and /console/invite/<token> opened, used or unknown', async () => {
    const auth = { authorization: `Bearer ${server.operatorToken}` };
    const { projectId } = await server.newTenant('Invite logs');
    const invited = (
      await operator.inject({
        method: 'POST',
        url: `/operator/projects/${projectId}/users`,
        payload: { email: `invitee-${Date.now()}@partner.example`, role: 'admin' },
        headers: auth,
      })
    ).json();
    const account = (
      await operator.inject({
        method: 'POST',
        url: '/operator/operators',
        payload: { name: 'Ana' },
        headers: auth,
      })
    ).json();
    const consoleInvite = await operator.inject({
      method: 'POST',
      url: `/operator/operators/${account.id}/console-invite`,
      payload: { email: `operator-${Date.now()}@ponte.example` },
      headers: auth,
    });
    expect(consoleInvite.statusCode).toBe(201);
    const dashboardToken = tokenOf(invited.inviteUrl);
    const consoleToken = tokenOf(consoleInvite.json().inviteUrl);
    const unknown = 'Z'.repeat(43);

    lines.length = 0;
    expect((await dashboard.inject({ method: 'GET', url: `/invite/${dashboardToken}` })).statusCode).toBe(
      200,
    );
    expect((await dashboard.inject({ method: 'GET', url: `/invite/${unknown}` })).statusCode).toBe(404);
    expect(
      (await operator.inject({ method: 'GET', url: `/console/invite/${consoleToken}` })).statusCode,
    ).toBe(200);
    const used = await dashboard.inject({
      method: 'POST',
      url: `/invite/${dashboardToken}`,
      payload: 'password=a+long+enough+password',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(used.statusCode).toBe(303);

    const text = lines.join('');
    expect(text).toContain('/invite/[redacted]');
    expect(text).toContain('/console/invite/[redacted]');
    for (const token of [dashboardToken, consoleToken, unknown]) expect(text).not.toContain(token);
  });

  it('scrubs an invitation link wherever it appears in a line', () => {
    const token = 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V';
    const line = JSON.stringify({
      msg: `opened https://dash.example/invite/${token}?x=1`,
      url: `/console/invite/${token}`,
    });
    const scrubbed = scrubSecrets(line);
    expect(scrubbed).not.toContain(token);
    expect(JSON.parse(scrubbed)).toEqual({
      msg: 'opened https://dash.example/invite/[redacted]?x=1',
      url: '/console/invite/[redacted]',
    });
  });
});
