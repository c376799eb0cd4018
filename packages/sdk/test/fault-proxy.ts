/**
 * A TCP proxy between the SDK and a real Ponte listener that can break the next connection: reset it
 * once the server has answered (the request was processed, the answer is lost), or answer 503 in place
 * of the server, as a load balancer in front of it would.
 */
import { createServer, type Socket, connect as tcpConnect } from 'node:net';

export type Fault = 'reset-after-processing' | 'gateway-503';

export type FaultProxy = {
  url: string;
  connections: number;
  failNext(...faults: Fault[]): void;
  close(): Promise<void>;
};

const GATEWAY_503 = [
  'HTTP/1.1 503 Service Unavailable',
  'content-type: application/problem+json',
  'retry-after: 0',
  'connection: close',
  '',
  '',
].join('\r\n');

export async function startFaultProxy(target: URL): Promise<FaultProxy> {
  const faults: Fault[] = [];
  const sockets = new Set<Socket>();
  const state = { connections: 0 };
  const server = createServer((client) => {
    state.connections += 1;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const fault = faults.shift();
    if (fault === 'gateway-503') {
      const body = JSON.stringify({
        title: 'Service unavailable',
        status: 503,
        detail: 'upstream restarting',
      });
      client.once('data', () => {
        client.end(GATEWAY_503.replace('\r\n\r\n', `\r\ncontent-length: ${body.length}\r\n\r\n`) + body);
      });
      return;
    }
    const upstream = tcpConnect(Number(target.port), target.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.pipe(upstream);
    if (fault === 'reset-after-processing') {
      upstream.once('data', () => {
        client.resetAndDestroy();
        upstream.destroy();
      });
    } else {
      upstream.pipe(client);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return state.connections;
    },
    failNext(...next) {
      faults.push(...next);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
