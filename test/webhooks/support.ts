/**
 * Webhook test support: real HTTP receivers on 127.0.0.1, a clock the test moves by hand, and a Ponte of
 * its own. Each webhook test file gets a database of its own, so dispatchers started by other test files
 * (with their own clocks and settings) never deliver this file's events.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../src/core/clock.ts';
import { createDispatcher, type DispatcherDeps } from '../../src/modules/webhooks/dispatcher.ts';
import {
  type Client,
  eventually,
  startTestServer,
  type TestServer,
  type TestServerOptions,
} from '../helpers/server.ts';

export type Received = {
  headers: IncomingHttpHeaders;
  body: string;
  json: {
    eventId: string;
    eventType: string;
    createdAt: string;
    environment: string;
    apiVersion: string;
    data: Record<string, unknown>;
  };
  /** The status this receiver answered. */
  status: number;
};

export type Receiver = {
  url: string;
  port: number;
  received: Received[];
  /** TCP connections the sender opened. */
  connections: number;
  /** Decides the answer to each request; 200 unless changed. */
  respond: (request: Omit<Received, 'status'>, index: number) => number;
  close(): Promise<void>;
};

export async function startReceiver(
  respond: Receiver['respond'] = () => 200,
  path = '/hooks',
): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    connections: 0,
    respond,
    close: async () => {},
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const incoming = { headers: request.headers, body, json: JSON.parse(body) };
      const status = receiver.respond(incoming, receiver.received.length);
      receiver.received.push({ ...incoming, status });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope');
    });
  });
  server.on('connection', () => {
    receiver.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.port = port;
  receiver.url = `http://127.0.0.1:${port}${path}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** A clock that stands still until the test moves it. */
export function manualClock(start = Date.now()) {
  let now = start;
  const clock: Clock = () => new Date(now);
  return {
    clock,
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
    set(at: Date | string) {
      now = Math.max(now, new Date(at).getTime());
    },
  };
}

/** A test server whose dispatcher polls often and whose sandbox accepts local receivers, on a database no other test file dispatches from. */
export function startWebhookServer(
  options: Omit<TestServerOptions, 'ownDatabase'> = {},
): Promise<TestServer> {
  return startTestServer({
    ...options,
    ownDatabase: true,
    env: {
      PONTE_WEBHOOK_DISPATCH_INTERVAL_MS: '20',
      // fake clocks move without a notification: an idle dispatcher looks again within 50 ms
      PONTE_WORKER_MAX_IDLE_MS: '50',
      // the receivers of these tests listen on 127.0.0.1, as a partner's local receiver would
      PONTE_SANDBOX_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      ...options.env,
    },
  });
}

/** A dispatcher of the test's own over `server`'s database and settings, silent, driven by the test. */
export function dispatcherOf(server: TestServer, extra: Partial<DispatcherDeps> = {}) {
  return createDispatcher({
    db: server.ctx.db,
    clock: server.ctx.clock,
    config: server.config.webhooks,
    encryptionKey: server.ctx.instanceKeys.encryption,
    log: { error() {} },
    ...extra,
  });
}

export type Endpoint = { id: string; url: string; secret: string; events: string[] | null; status: string };

export async function createEndpoint(api: Client, body: Record<string, unknown>): Promise<Endpoint> {
  const response = await api.post('/webhook-endpoints', body);
  if (response.statusCode !== 201)
    throw new Error(`create endpoint: ${response.statusCode} ${response.body}`);
  return response.json();
}

export type Delivery = {
  id: string;
  eventId: string;
  eventType: string;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  attempts: { at: string; statusCode: number | null; latencyMs: number; error: string | null }[];
  nextAttemptAt: string | null;
};

export async function deliveries(api: Client, endpointId: string, query = 'limit=50'): Promise<Delivery[]> {
  const response = await api.get(`/webhook-endpoints/${endpointId}/deliveries?${query}`);
  if (response.statusCode !== 200) throw new Error(`deliveries: ${response.statusCode} ${response.body}`);
  return response.json().data;
}

/** Starting a Ponte on the embedded database can be slow on a busy machine. */
export const STARTUP_TIMEOUT_MS = 180_000;

/** How long a test waits for the dispatcher: generous, since test machines may be busy. */
export const DISPATCH_WAIT_MS = 20_000;

/** `eventually` with the dispatcher's patience. */
export const waitFor = <T>(read: () => Promise<T>, done: (value: T) => boolean) =>
  eventually(read, done, DISPATCH_WAIT_MS);

/** Waits until the endpoint has `count` deliveries that all satisfy `done`. */
export function deliveriesWhere(
  api: Client,
  endpointId: string,
  count: number,
  done: (delivery: Delivery) => boolean,
) {
  return waitFor(
    () => deliveries(api, endpointId),
    (list) => list.length === count && list.every(done),
  );
}
