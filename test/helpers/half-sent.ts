import { Agent, request } from 'node:http';
import { individualBody } from './factories.ts';

/**
 * Starts POST /customers and sends only half of its body, so the request is in flight on the server
 * (its "incoming request" line is logged) until `finish()` sends the rest. Its connection is kept alive
 * for a minute after the answer, as a load balancer's would be.
 */
export function halfSentCustomer(url: string, key: string) {
  const body = Buffer.from(JSON.stringify(individualBody()));
  const split = Math.floor(body.length / 2);
  const req = request(`${url}/customers`, {
    agent: new Agent({ keepAlive: true, timeout: 60_000 }),
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'content-length': String(body.length),
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.subarray(0, split));
  return { answer, finish: () => req.end(body.subarray(split)), abort: () => req.destroy() };
}
