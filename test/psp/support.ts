/** The PSP simulator and the environment variables that point a Ponte at it. */
import type { FastifyInstance } from 'fastify';
import { afterEach, expect } from 'vitest';
import { makeCertificates, type PspCertificates } from './certificates.ts';
import { type Delivery, type PspSimulator, startPspSimulator } from './simulator.ts';

export const PIX_KEY = 'f3a9c1d2-4b5e-4f60-8a7b-9c0d1e2f3a4b';
export const WEBHOOK_URL = 'https://ponte.example.com/rails/pix/webhook';

let certificates: PspCertificates | undefined;
/** One set of certificates per test file (openssl takes a moment). */
export function testCertificates(): PspCertificates {
  certificates ??= makeCertificates();
  return certificates;
}

/**
 * The PSP's requests delivered into a Ponte listener (`app.inject`) through what the README's TLS
 * terminator does: a request without the PSP's client certificate is refused with nginx's answer to it
 * (`ssl_verify_client on`: 400 "No required SSL certificate was sent"); one with it is passed on. `app`
 * answers the listener of the moment (null: Ponte is down, and the PSP's request fails).
 */
export function terminatedDelivery(app: () => FastifyInstance | null | undefined): Delivery {
  return async (url, body, { clientCertificate }) => {
    if (!clientCertificate) return 400;
    const listener = app();
    if (!listener) return 503;
    const answer = await listener.inject({
      method: 'POST',
      url: new URL(url).pathname,
      payload: body as Record<string, unknown>,
    });
    return answer.statusCode;
  };
}

export async function startSimulator(
  options: {
    deliver?: Delivery;
    tokenSeconds?: number;
    maxPageSize?: number;
    scopes?: readonly string[];
  } = {},
): Promise<PspSimulator> {
  return startPspSimulator({ certificates: testCertificates(), ...options });
}

/** The production variables of a Ponte that uses `simulator` as its PSP. */
export function pspEnv(
  simulator: PspSimulator,
  overrides: NodeJS.ProcessEnv = {},
  prefix = 'PONTE_PIX_',
): NodeJS.ProcessEnv {
  const certs = testCertificates();
  return {
    [`${prefix}PSP`]: 'efi',
    [`${prefix}PSP_URL`]: simulator.url,
    [`${prefix}CLIENT_ID`]: simulator.clientId,
    [`${prefix}CLIENT_SECRET`]: simulator.clientSecret,
    [`${prefix}CERT`]: certs.clientP12Path,
    [`${prefix}CERT_PASSPHRASE`]: certs.passphrase,
    [`${prefix}PSP_CA`]: certs.caPath,
    [`${prefix}KEY`]: PIX_KEY,
    [`${prefix}WEBHOOK_URL`]: WEBHOOK_URL,
    ...overrides,
  };
}

/** Fails the test when Ponte sent the simulator a request the API Pix document (or Efí's shapes) refuses. */
export function expectNoViolations(simulator: () => PspSimulator | undefined): void {
  afterEach(() => {
    const found = simulator()?.violations.splice(0) ?? [];
    expect(found, 'requests that violate the API Pix document').toEqual([]);
  });
}
