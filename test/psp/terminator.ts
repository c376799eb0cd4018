/**
 * A TLS terminator in front of Ponte's webhook address, doing what the README's nginx and Caddy examples
 * do: HTTPS with the address's server certificate, a client certificate required and checked against the
 * PSP's chain (a request without one never completes its handshake), and only the registered path and
 * its `/pix` passed on to Ponte. Tests and `npm run psp-simulator` use it so that Efí's registration
 * check (dev.efipay.com.br/docs/api-pix/webhooks: a request without the certificate that must be refused,
 * then one with it that must get a 2xx) meets a real handshake.
 */
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { PspCertificates } from './certificates.ts';

/** Passes one request on to Ponte: its method, path and body; answers status and body. */
export type Upstream = (request: {
  method: string;
  path: string;
  contentType: string | undefined;
  body: Buffer;
}) => Promise<{ status: number; body: string }>;

export type Terminator = { url: string; port: number; close(): Promise<void> };

function read(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** `path` is the registered webhook path (`/rails/pix/webhook`); it and `path/pix` are passed on. */
export async function startTerminator(
  certificates: PspCertificates,
  path: string,
  upstream: Upstream,
  port = 0,
): Promise<Terminator> {
  const registered = path.replace(/\/+$/, '');
  const server = createServer(
    {
      key: certificates.serverKey,
      cert: certificates.serverCert,
      ca: certificates.ca,
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
    },
    async (req, res) => {
      const target = new URL(req.url ?? '/', 'https://terminator.invalid').pathname;
      if (req.method !== 'POST' || (target !== registered && target !== `${registered}/pix`)) {
        res.writeHead(404).end();
        return;
      }
      try {
        const body = await read(req);
        const answer = await upstream({
          method: 'POST',
          path: target,
          contentType: req.headers['content-type'],
          body,
        });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
      } catch {
        res.writeHead(502).end();
      }
    },
  );
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `https://localhost:${bound}${registered}`,
    port: bound,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
