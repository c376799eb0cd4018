/**
 * A real Ponte for SDK tests: the apps of the shared test server, the sandbox one listening on an
 * ephemeral port of 127.0.0.1, and a client of the SDK (from its source) with a new tenant's key.
 */
import { startTestServer, type TestServer } from '../../../test/helpers/server.ts';
import { type ClientOptions, Ponte } from '../src/index.ts';

export type SdkServer = TestServer & { url: string; sandboxKey: string; ponte(options?: Partial<ClientOptions>): Ponte };

export async function startSdkServer(options: Parameters<typeof startTestServer>[0] = {}): Promise<SdkServer> {
  const server = await startTestServer(options);
  const url = await server.sandbox.listen({ port: 0, host: '127.0.0.1' });
  const tenant = await server.newTenant('SDK partner');
  return {
    ...server,
    url,
    sandboxKey: tenant.sandboxKey,
    ponte: (overrides = {}) => new Ponte({ apiKey: tenant.sandboxKey, baseUrl: url, ...overrides }),
  };
}

/** A fetch that records every request it sends, so tests can count attempts and read their headers. */
export function recordingFetch() {
  const sent: { method: string; url: string; headers: Headers }[] = [];
  const fetcher: typeof fetch = (input, init) => {
    sent.push({
      method: init?.method ?? 'GET',
      url: String(input),
      headers: new Headers(init?.headers),
    });
    return fetch(input, init);
  };
  return { fetch: fetcher, sent };
}

/** Waits, by polling, until `done` holds for what `read` returns. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
