/**
 * One HTTP attempt of a webhook: a POST to the endpoint URL that connects to the address checked beforehand
 * (the URL's host still names the server for the Host header and TLS), bounded by a timeout from connection
 * to the response headers, never following redirects. Only the status code matters; the response body is
 * discarded.
 *
 * Connections are kept alive between attempts to the same endpoint, as a partner's load balancer expects
 * of a steady sender: a new connection (and TLS handshake) per event cost both sides a round trip or more,
 * and left a closed socket waiting out TIME_WAIT for every event. Each origin and checked address has a
 * pool of its own, so a connection is only reused for the address its URL was checked against.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ResolvedAddress } from './url-safety.ts';

export type AttemptResult = { statusCode: number | null; latencyMs: number; error: string | null };

export type Post = (request: {
  url: URL;
  address: ResolvedAddress;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}) => Promise<AttemptResult>;

/** A `lookup` that answers the one address already checked, whatever name is asked. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}

/** How long an idle connection is kept (less when the receiver's `Keep-Alive: timeout` hint says so). */
const IDLE_MS = 4_000;
/**
 * Pools kept at most; beyond it the least recently used one is let go: its idle connections close at
 * once, and those still carrying an attempt when that attempt ends.
 */
const MAX_POOLS = 1_000;
const pools = new Map<string, http.Agent>();

function poolFor(url: URL, address: ResolvedAddress): http.Agent {
  const key = `${url.protocol}//${url.host} ${address.address}`;
  const found = pools.get(key);
  if (found) {
    // most recently used last
    pools.delete(key);
    pools.set(key, found);
    return found;
  }
  const options = { keepAlive: true, timeout: IDLE_MS, maxFreeSockets: 16 };
  const agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  pools.set(key, agent);
  if (pools.size > MAX_POOLS) {
    const [oldest, evicted] = pools.entries().next().value!;
    pools.delete(oldest);
    evicted.maxFreeSockets = 0;
    for (const sockets of Object.values(evicted.freeSockets))
      for (const socket of sockets ?? []) socket.destroy();
  }
  return agent;
}

/** Raised by the attempt's own timer. */
class AttemptTimeout extends Error {}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/**
 * What a partner is told about a failed attempt: a coarse class, never the socket's own message (which
 * can describe the network the server sits on).
 */
export function coarseError(error: unknown): string {
  if (error instanceof AttemptTimeout) return 'timeout';
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return 'connection failed';
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return 'timeout';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection reset';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'host unreachable';
  if (code === 'EPROTO' || TLS_CODE.test(code) || code.includes('CERT')) return 'TLS error';
  return 'connection failed';
}

export const postWebhook: Post = ({ url, address, headers, body, timeoutMs }) =>
  new Promise((resolve) => {
    const started = performance.now();
    const latency = () => Math.max(0, Math.round(performance.now() - started));
    let settled = false;
    const settle = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'POST',
      agent: poolFor(url, address),
      lookup: pinnedLookup(address),
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'Ponte-Webhooks/1.0',
      },
    });
    // Also bounds how long a response body is drained after its status has been taken.
    const timer = setTimeout(() => {
      request.destroy(new AttemptTimeout(`no response within ${timeoutMs} ms`));
    }, timeoutMs);
    request.on('close', () => clearTimeout(timer));
    request.on('response', (response: IncomingMessage) => {
      const statusCode = response.statusCode ?? null;
      settle({ statusCode, latencyMs: latency(), error: null });
      response.on('error', () => {});
      // The body is not needed: it is drained, and the connection goes back to its pool when it ends.
      response.resume();
    });
    request.on('error', (error) =>
      settle({ statusCode: null, latencyMs: latency(), error: coarseError(error) }),
    );
    request.end(body);
  });
