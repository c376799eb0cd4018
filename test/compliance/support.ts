/** Helpers of the compliance suites: operator calls, hosted-page uploads, and walks of the state tables. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { VERIFICATION_TRANSITIONS, type VerificationStatus } from '../../src/modules/verifications/state.ts';
import { createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, type TestServer } from '../helpers/server.ts';
import { form, JPEG, PDF } from './files.ts';

/** A clock the test moves by hand, so that written timestamps can be compared exactly. */
export function manualClock(start = Date.parse('2026-03-02T12:00:00.000Z')) {
  let now = start;
  const clock = () => new Date(now);
  return Object.assign(clock, {
    /** Moves time forward and returns the new instant as the API writes it. */
    advance(ms = 1_000): string {
      now += ms;
      return new Date(now).toISOString();
    },
  });
}

/** A client of the operator API under the bootstrap token (or a given operator token). */
export const operatorClient = (server: TestServer, token = server.operatorToken): Client =>
  client(server.operator, token);

/** The shortest legal path from NOT_STARTED to `target` through VERIFICATION_TRANSITIONS. */
export function pathTo(target: VerificationStatus): VerificationStatus[] {
  const queue: VerificationStatus[][] = [['NOT_STARTED']];
  const seen = new Set<VerificationStatus>(['NOT_STARTED']);
  while (queue.length > 0) {
    const path = queue.shift()!;
    const last = path.at(-1)!;
    if (last === target) return path.slice(1);
    for (const next of VERIFICATION_TRANSITIONS[last]) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push([...path, next]);
    }
  }
  throw new Error(`${target} cannot be reached from NOT_STARTED`);
}

/** A sandbox customer whose verification the simulation leaves NOT_STARTED (taxId ending in 1). */
export const idleSandboxCustomer = (sandbox: Client, overrides: Record<string, unknown> = {}) =>
  createCustomer(sandbox, individualBody({ taxId: validCpf('1'), ...overrides }));

/** Forces a sandbox customer's verification through a legal path to `target`. */
export async function driveTo(sandbox: Client, customerId: string, target: VerificationStatus) {
  for (const status of pathTo(target)) {
    const response = await sandbox.post(`/sandbox/customers/${customerId}/verification`, { status });
    if (response.statusCode !== 200)
      throw new Error(`drive to ${status}: ${response.statusCode} ${response.body}`);
  }
}

/** The path part of a hosted-page link. */
export const linkPath = (link: string) => new URL(link).pathname;

/** Submits an identity document and a selfie on the hosted page (null leaves a file out). */
export function submitDocuments(
  app: FastifyInstance,
  link: string,
  files: { document?: Buffer | null; selfie?: Buffer | null; documentType?: string } = {},
): Promise<LightMyRequestResponse> {
  const parts: Record<string, { content: Buffer; name: string }> = {};
  if (files.document !== null) parts.document = { content: files.document ?? PDF, name: 'passport.pdf' };
  if (files.selfie !== null) parts.selfie = { content: files.selfie ?? JPEG, name: 'selfie.jpg' };
  return app.inject({
    method: 'POST',
    url: linkPath(link),
    payload: form(parts, { documentType: files.documentType ?? 'PASSPORT' }),
  }) as Promise<LightMyRequestResponse>;
}

export type StoredEvent = { type: string; resource_id: string; data: Record<string, unknown> };

export function eventsOf(server: TestServer, resourceId: string): Promise<StoredEvent[]> {
  return server.ctx.db.query<StoredEvent>(
    'SELECT type, resource_id, data FROM events WHERE resource_id = $1 ORDER BY seq',
    [resourceId],
  );
}

export type StoredAudit = {
  actor: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  before: unknown;
  after: unknown;
  created_at: Date;
};

export function auditOf(server: TestServer, resourceId: string): Promise<StoredAudit[]> {
  return server.ctx.db.query<StoredAudit>(
    `SELECT actor, action, resource_type, resource_id, before, after, created_at
       FROM audit_log WHERE resource_id = $1 ORDER BY created_at, id`,
    [resourceId],
  );
}
