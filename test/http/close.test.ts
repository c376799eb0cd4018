/**
 * Closing the apps finishes the request in flight and does not wait on the connection its client keeps
 * alive afterwards (Node's `server.close()` alone waits until the client lets it go: minutes, for a load
 * balancer or `fetch`'s pool).
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { halfSentCustomer } from '../helpers/half-sent.ts';
import { startTestApi } from '../helpers/server.ts';

describe('closing the apps', () => {
  it('finishes the request in flight and closes its kept-alive connection once answered', async () => {
    const { server, tenant } = await startTestApi({ workers: false });
    await server.sandbox.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(server.sandbox.server.address() as AddressInfo).port}`;
    const received = new Promise((resolve) => server.sandbox.server.once('request', resolve));
    const inFlight = halfSentCustomer(url, tenant.sandboxKey);
    await received;

    // the client keeps the connection for a minute after the answer; the close must not wait that long
    const closed = server.close();
    inFlight.finish();
    const answer = await inFlight.answer;
    expect(answer.status).toBe(201);
    await closed;
    expect(server.sandbox.server.listening).toBe(false);
  });
});
