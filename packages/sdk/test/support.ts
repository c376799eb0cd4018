/**
 * A real Ponte for SDK tests: the apps of the shared test server, the sandbox one listening on an
 * ephemeral port of 127.0.0.1, and a client of the SDK (from its source) with a new tenant's key.
 */
import { startTestServer, type TestServer } from '../../../test/helpers/server.ts';
import { type ClientOptions, Ponte } from '../src/index.ts';

export type SdkServer = TestServer & {
  url: string;
  sandboxKey: string;
  ponte(options?: Partial<ClientOptions>): Ponte;
};

type StartOptions = Parameters<typeof startTestServer>[0];

export async function startSdkServer(
  options: StartOptions = {},
  start: (options: StartOptions) => Promise<TestServer> = startTestServer,
): Promise<SdkServer> {
  const server = await start(options);
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
  const sent: { method: string; url: string; headers: Headers; answer?: Response }[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const request: (typeof sent)[number] = {
      method: init?.method ?? 'GET',
      url: String(input),
      headers: new Headers(init?.headers),
    };
    sent.push(request);
    request.answer = await fetch(input, init);
    return request.answer;
  };
  return { fetch: fetcher, sent };
}

/** Waits, by polling, until `done` holds for what `read` returns. */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`not reached within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Starting a Ponte on the embedded database can be slow on a busy machine. */
export const STARTUP_TIMEOUT_MS = 180_000;
