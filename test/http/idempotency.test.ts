import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAnswer } from '../../src/db/commit-hooks.ts';
import { registerIdempotency } from '../../src/http/idempotency.ts';
import {
  claimKey,
  deleteExpiredKeys,
  IDEMPOTENCY_LOCK_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
} from '../../src/http/idempotency-repo.ts';
import { registerProblemHandlers } from '../../src/http/problem.ts';
import { Problem } from '../../src/http/schemas.ts';
import { validatorCompiler } from '../../src/http/validation.ts';
import type { Tenant } from '../../src/lib/environment.ts';
import { individualBody } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let api: Client;
let projectId: string;
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

const key = () => `key-${randomUUID()}`;
const withKey = (value: string) => ({ 'idempotency-key': value });

async function customerCount(id = projectId): Promise<number> {
  const rows = await server.ctx.db.query<{ n: bigint }>(
    `SELECT count(*) AS n FROM customers WHERE project_id = $1 AND environment = 'production'`,
    [id],
  );
  return Number(rows[0]!.n);
}

beforeAll(async () => {
  server = await startTestServer({ clock, workers: false });
  const tenant = await server.newTenant();
  projectId = tenant.projectId;
  api = client(server.production, tenant.productionKey);
});
afterAll(() => server.close());

describe('Idempotency-Key on POST', () => {
  it('replays the first answer with Idempotent-Replayed: true and creates one customer', async () => {
    const body = individualBody();
    const idem = key();
    const before = await customerCount();
    const first = await api.post('/customers', body, withKey(idem));
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await api.post('/customers', body, withKey(idem));
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await customerCount()).toBe(before + 1);
  });

  it('treats the same JSON with its fields in another order as the same request', async () => {
    const body = individualBody();
    const idem = key();
    const first = await api.post('/customers', body, withKey(idem));
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await api.post('/customers', reordered, withKey(idem));
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
  });

  it('refuses the same key with another body with 422 idempotency_key_reused, writing nothing', async () => {
    const idem = key();
    await api.post('/customers', individualBody(), withKey(idem));
    const before = await customerCount();
    const other = await api.post('/customers', individualBody(), withKey(idem));
    expect(other.statusCode).toBe(422);
    expect(other.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(other.json()).toMatchObject({ code: 'idempotency_key_reused', status: 422 });
    expect(await customerCount()).toBe(before);
  });

  it('creates exactly one customer from ten concurrent identical requests with one key', async () => {
    const body = individualBody();
    const idem = key();
    const before = await customerCount();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.post('/customers', body, withKey(idem))),
    );
    const created = answers.filter((a) => a.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) {
      expect([201, 409]).toContain(answer.statusCode);
      if (answer.statusCode === 409) expect(answer.json().code).toBe('conflict');
    }
    expect(new Set(created.map((a) => a.json().id)).size).toBe(1);
    expect(created.filter((a) => a.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await customerCount()).toBe(before + 1);
    const after = await api.post('/customers', body, withKey(idem));
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(after.json().id).toBe(created[0]!.json().id);
  });

  it('answers 409 while the first request with the key is in flight, and lets a retry take over once its lease is over', async () => {
    const body = individualBody();
    const idem = key();
    const tenant: Tenant = { projectId, environment: 'production' };
    // The fingerprint of this request, as recorded by a first use of it under another key.
    const probe = await api.post('/customers', body, withKey(idem));
    expect(probe.statusCode).toBe(201);
    const other = key();
    const scope = { ...tenant, method: 'POST', route: '/customers', key: other };
    const fingerprint = (
      await server.ctx.db.query<{ fingerprint: string }>(
        'SELECT fingerprint FROM idempotency_keys WHERE project_id = $1 AND key = $2',
        [projectId, idem],
      )
    )[0]!.fingerprint;
    // Another process claimed `other` for the same request and has not answered (yet, or ever).
    expect(await claimKey(server.ctx.db, scope, fingerprint, randomUUID(), clock())).toBe(true);
    const inFlight = await api.post('/customers', body, withKey(other));
    expect(inFlight.statusCode).toBe(409);
    expect(inFlight.json().code).toBe('conflict');
    expect(inFlight.headers['retry-after']).toBe('1');
    offsetMs += IDEMPOTENCY_LOCK_LEASE_MS + 1;
    // The abandoned request never answered; the retry runs (this taxId now exists: 409 customer_exists).
    const takeover = await api.post('/customers', body, withKey(other));
    expect(takeover.statusCode).toBe(409);
    expect(takeover.json().code).toBe('customer_exists');
    expect(takeover.headers['idempotent-replayed']).toBeUndefined();
  });

  it('forgets a key after 24 hours', async () => {
    const idem = key();
    const first = await api.post('/customers', individualBody(), withKey(idem));
    expect(first.statusCode).toBe(201);
    offsetMs += IDEMPOTENCY_TTL_MS - 1000;
    const stillKept = await api.post('/customers', individualBody(), withKey(idem));
    expect(stillKept.statusCode).toBe(422);
    offsetMs += 1001;
    const fresh = await api.post('/customers', individualBody(), withKey(idem));
    expect(fresh.statusCode).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
  });

  it('scopes keys to the project and the environment', async () => {
    const idem = key();
    const other = await server.newTenant();
    const answers = [
      await api.post('/customers', individualBody(), withKey(idem)),
      await client(server.sandbox, (await server.newTenant()).sandboxKey).post(
        '/customers',
        individualBody(),
        withKey(idem),
      ),
      await client(server.production, other.productionKey).post(
        '/customers',
        individualBody(),
        withKey(idem),
      ),
      await client(server.sandbox, other.sandboxKey).post('/customers', individualBody(), withKey(idem)),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(201);
      expect(answer.headers['idempotent-replayed']).toBeUndefined();
    }
  });

  it('scopes keys to the route: the same key on another POST route is a separate request', async () => {
    const idem = key();
    const customer = (await api.post('/customers', individualBody(), withKey(idem))).json();
    const body = { requested: { single: '1000.00' } };
    const other = await api.post(`/customers/${customer.id}/limit-requests`, body, withKey(idem));
    expect(other.json().code).not.toBe('idempotency_key_reused');
    const replay = await api.post(`/customers/${customer.id}/limit-requests`, body, withKey(idem));
    expect(replay.statusCode).toBe(other.statusCode);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('keeps 4xx answers: a refused request replays the same refusal', async () => {
    const body = individualBody();
    await api.post('/customers', body);
    const idem = key();
    const refused = await api.post('/customers', body, withKey(idem));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('customer_exists');
    const again = await api.post('/customers', body, withKey(idem));
    expect(again.statusCode).toBe(409);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(again.json()).toEqual(refused.json());
  });

  it('refuses an Idempotency-Key that is empty or longer than 255 characters', async () => {
    for (const bad of ['', 'k'.repeat(256)]) {
      const answer = await api.post('/customers', individualBody(), withKey(bad));
      expect(answer.statusCode).toBe(400);
      expect(answer.json().errors).toEqual([
        { pointer: '/headers/idempotency-key', message: expect.any(String) },
      ]);
    }
    const longest = await api.post('/customers', individualBody(), withKey('k'.repeat(255)));
    expect(longest.statusCode).toBe(201);
  });

  it('documents the Idempotency-Key header and its 409 and 422 answers on every POST operation', async () => {
    const doc = (await server.production.inject({ method: 'GET', url: '/openapi.json' })).json();
    const posts = Object.entries(doc.paths as Record<string, Record<string, unknown>>).filter(
      ([, ops]) => ops.post,
    );
    expect(posts.length).toBeGreaterThan(0);
    for (const [path, ops] of posts) {
      const post = ops.post as { parameters?: { in: string; name: string }[]; responses: object };
      expect(
        (post.parameters ?? []).some((p) => p.in === 'header' && p.name === 'idempotency-key'),
        path,
      ).toBe(true);
      expect(Object.keys(post.responses), path).toEqual(expect.arrayContaining(['409', '422']));
    }
  });
});

describe('Idempotency-Key expiry', () => {
  it('sweeps keys past their 24 hours out of the database', async () => {
    const scope = { projectId, environment: 'production' as const, method: 'POST', route: '/customers' };
    const longAgo = new Date(Date.now() - 2 * IDEMPOTENCY_TTL_MS);
    const stale = key();
    expect(await claimKey(server.ctx.db, { ...scope, key: stale }, 'f', randomUUID(), longAgo)).toBe(true);
    const live = key();
    expect(await claimKey(server.ctx.db, { ...scope, key: live }, 'f', randomUUID(), new Date())).toBe(true);
    expect(await deleteExpiredKeys(server.ctx.db, new Date())).toBeGreaterThanOrEqual(1);
    const left = await server.ctx.db.query<{ key: string }>(
      'SELECT key FROM idempotency_keys WHERE project_id = $1 AND key IN ($2, $3)',
      [projectId, stale, live],
    );
    expect(left.map((row) => row.key)).toEqual([live]);
  });
});

describe('Idempotency-Key and failures on our side', () => {
  /** A bare app of `environment`'s tenant with the idempotency hooks, for answers no real route gives. */
  function bareApp(environment: Tenant['environment']) {
    const tenant: Tenant = { projectId, environment };
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.addSchema(Problem);
    registerProblemHandlers(app);
    app.decorateRequest('tenant', null as unknown as Tenant);
    app.addHook('onRequest', async (request) => {
      request.tenant = tenant;
    });
    registerIdempotency(app, server.ctx);
    return app;
  }

  it('does not keep a 5xx: the key is released and a retry runs the request again', async () => {
    const app = bareApp('sandbox');
    let runs = 0;
    app.post('/flaky', async (_request, reply) => {
      runs += 1;
      if (runs === 1) throw new Error('the ledger did not answer');
      return reply.code(201).send({ run: runs });
    });
    const idem = key();
    const post = () =>
      app.inject({ method: 'POST', url: '/flaky', payload: { a: 1 }, headers: withKey(idem) });
    const failed = await post();
    expect(failed.statusCode).toBe(500);
    const retried = await post();
    expect(retried.statusCode).toBe(201);
    expect(retried.json()).toEqual({ run: 2 });
    const replayed = await post();
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json()).toEqual({ run: 2 });
    expect(runs).toBe(2);
    await app.close();
  });

  /** A bare production app with the idempotency hooks and one route. */
  async function appWith(handler: (reply: import('fastify').FastifyReply) => Promise<unknown>) {
    const app = bareApp('production');
    app.post(
      '/change',
      {
        schema: {
          response: {
            201: {
              type: 'object',
              properties: { id: { type: 'string' }, run: { type: 'integer' } },
              required: ['id', 'run'],
            },
          },
        },
      },
      async (_request, reply) => handler(reply),
    );
    return app;
  }

  it('writes the answer in the transaction of the change, as it will be serialised', async () => {
    const idem = key();
    let inTransaction: unknown[] = [];
    const app = await appWith(async (reply) => {
      const answer = await server.ctx.db.transaction(async () => ({
        id: 'abc',
        run: 1,
        extra: 'not in the schema',
      }));
      // committed: the stored answer is already there, before anything is sent
      inTransaction = await server.ctx.db.query(
        'SELECT response_status, response_body FROM idempotency_keys WHERE project_id = $1 AND key = $2',
        [projectId, idem],
      );
      return reply.code(201).send(answer);
    });
    const first = await app.inject({ method: 'POST', url: '/change', payload: {}, headers: withKey(idem) });
    expect(first.statusCode).toBe(201);
    expect(first.body).toBe('{"id":"abc","run":1}');
    expect(inTransaction).toEqual([{ response_status: 201, response_body: expect.stringMatching(/^v1\./) }]);
    const replayed = await app.inject({
      method: 'POST',
      url: '/change',
      payload: {},
      headers: withKey(idem),
    });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(first.body);
    expect(replayed.headers['content-type']).toBe(first.headers['content-type']);
    await app.close();
  });

  it('writes the answer a transaction names with withAnswer when its value is not the answer', async () => {
    const idem = key();
    const app = await appWith(async (reply) => {
      const { rowId } = await server.ctx.db.transaction(async () =>
        withAnswer({ rowId: 'abc' }, { id: 'abc', run: 7 }),
      );
      // a crash here leaves the named answer for a retry
      const stored = await server.ctx.db.query<{ response_status: number }>(
        'SELECT response_status FROM idempotency_keys WHERE project_id = $1 AND key = $2',
        [projectId, idem],
      );
      expect(stored).toEqual([{ response_status: 201 }]);
      return reply.code(201).send({ id: rowId, run: 7 });
    });
    const first = await app.inject({ method: 'POST', url: '/change', payload: {}, headers: withKey(idem) });
    expect(first.statusCode, first.body).toBe(201);
    const replayed = await app.inject({
      method: 'POST',
      url: '/change',
      payload: {},
      headers: withKey(idem),
    });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe('{"id":"abc","run":7}');
    await app.close();
  });

  it('keeps the answer committed with a change when the request then fails with a 5xx: a retry replays it, never runs it again', async () => {
    const idem = key();
    let runs = 0;
    const app = await appWith(async () => {
      runs += 1;
      await server.ctx.db.transaction(async () => ({ id: 'abc', run: runs }));
      throw new Error('failed after the change committed');
    });
    const post = () => app.inject({ method: 'POST', url: '/change', payload: {}, headers: withKey(idem) });
    expect((await post()).statusCode).toBe(500);
    const retried = await post();
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.json()).toEqual({ id: 'abc', run: 1 });
    expect(runs).toBe(1);
    await app.close();
  });

  it('keeps stored answers encrypted at rest', async () => {
    const idem = key();
    const body = individualBody();
    await api.post('/customers', body, withKey(idem));
    const rows = await server.ctx.db.query<{ response_body: string }>(
      'SELECT response_body FROM idempotency_keys WHERE project_id = $1 AND key = $2',
      [projectId, idem],
    );
    expect(rows[0]!.response_body).toMatch(/^v1\./);
    expect(rows[0]!.response_body).not.toContain(body.taxId as string);
    expect(rows[0]!.response_body).not.toContain('Ana Souza');
  });
});
