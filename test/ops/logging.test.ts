import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOperatorApp, buildPublicApp } from '../../src/app.ts';
import type { AppContext } from '../../src/context.ts';
import { processLogger, scrubSecrets } from '../../src/http/logger.ts';
import { openContext } from '../../src/runtime.ts';
import { pgliteCopy } from '../helpers/database.ts';
import { businessBody, individualBody, validCnpj, validCpf } from '../helpers/factories.ts';
import { client, testConfig } from '../helpers/server.ts';

/** Every log line the apps write, as text. */
const lines: string[] = [];
const capture = { write: (line: string) => void lines.push(line) };

let ctx: AppContext;
let production: FastifyInstance;
let sandbox: FastifyInstance;
let operator: FastifyInstance;
let operatorToken: string;

beforeAll(async () => {
  const setup = testConfig({ PONTE_LOG_LEVEL: 'trace' });
  operatorToken = setup.operatorToken;
  ctx = await openContext(setup.config, undefined, await pgliteCopy());
  const options = { logLevel: 'trace', logStream: capture };
  [production, sandbox, operator] = await Promise.all([
    buildPublicApp(ctx, 'production', options),
    buildPublicApp(ctx, 'sandbox', options),
    buildOperatorApp(ctx, options),
  ]);
});
afterAll(async () => {
  await Promise.all([production.close(), sandbox.close(), operator.close()]);
  await ctx.db.close();
});

const digits = (value: string) => value.replace(/[^0-9A-Z]/g, '');

describe('logs', () => {
  it('never contain an API key, an operator token, a webhook secret or a full taxId over a full flow', async () => {
    const secrets: string[] = [operatorToken];
    const auth = { authorization: `Bearer ${operatorToken}` };
    const project = (
      await operator.inject({
        method: 'POST',
        url: '/operator/projects',
        payload: { name: 'Logs' },
        headers: auth,
      })
    ).json();
    const issue = async (environment: string) => {
      const issued = await operator.inject({
        method: 'POST',
        url: `/operator/projects/${project.id}/api-keys`,
        payload: { environment },
        headers: auth,
      });
      expect(issued.statusCode).toBe(201);
      return issued.json().key as string;
    };
    const liveKey = await issue('production');
    const sandboxKey = await issue('sandbox');
    secrets.push(liveKey, sandboxKey);

    const live = client(production, liveKey);
    const cpf = validCpf();
    const cnpj = validCnpj();
    const taxIds = [cpf, digits(cpf), cnpj, digits(cnpj)];
    expect((await live.post('/customers', individualBody({ taxId: digits(cpf) }))).statusCode).toBe(201);
    expect((await live.post('/customers', businessBody({ taxId: cnpj }))).statusCode).toBe(201);
    // the duplicate is refused by a unique index whose error names the taxId
    expect((await live.post('/customers', individualBody({ taxId: cpf }))).statusCode).toBe(409);
    await live.get('/customers');
    await live.post('/customers', individualBody({ taxId: `${digits(cpf).slice(0, 10)}0` }));

    // bad authentication of every kind, including a key sent where it does not belong
    const mistyped = `${liveKey.slice(0, -1)}${liveKey.endsWith('a') ? 'b' : 'a'}`;
    secrets.push(mistyped);
    for (const key of [mistyped, sandboxKey, 'sk_live_short', `${liveKey}x`]) {
      expect((await client(production, key).get('/customers')).statusCode).toBe(401);
    }
    await production.inject({ method: 'GET', url: `/customers?api_key=${liveKey}` });
    await production.inject({ method: 'GET', url: '/customers', headers: { 'x-api-key': liveKey } });
    await operator.inject({
      method: 'POST',
      url: '/operator/projects',
      payload: { name: 'x' },
      headers: { authorization: `Bearer ${operatorToken}x` },
    });

    if (sandbox.hasRoute({ method: 'POST', url: '/webhook-endpoints' })) {
      const hook = await client(sandbox, sandboxKey).post('/webhook-endpoints', {
        url: 'https://93.184.215.14/webhooks',
      });
      const found = JSON.stringify(hook.json()).match(/whsec_[A-Za-z0-9+/=]+/g) ?? [];
      expect(found.length, hook.body).toBeGreaterThan(0);
      secrets.push(...found);
    }

    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(20);
    for (const secret of [...secrets, ...taxIds]) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });

  it('carry the request id of the answer on every line of a request', async () => {
    lines.length = 0;
    const answers = await Promise.all([
      production.inject({ method: 'GET', url: '/customers' }),
      production.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'partner-trace-1' } }),
      operator.inject({ method: 'GET', url: '/readyz' }),
    ]);
    const ids = answers.map((answer) => answer.headers['x-request-id']);
    expect(ids[1]).toBe('partner-trace-1');
    const parsed = lines.map((line) => JSON.parse(line) as { requestId?: string });
    expect(parsed.length).toBeGreaterThanOrEqual(6);
    for (const line of parsed) expect(ids, JSON.stringify(line)).toContain(line.requestId);
    for (const id of ids) expect(parsed.filter((line) => line.requestId === id).length).toBeGreaterThan(1);
  });

  it('scrub secrets from database error details and from messages of the process logger', () => {
    lines.length = 0;
    const cpf = validCpf();
    const error = Object.assign(new Error(`duplicate key for ${cpf}`), {
      code: '23505',
      detail: `Key (project_id, environment, tax_id)=(p, production, ${cpf}) already exists.`,
    });
    production.log.error({ err: error }, 'unhandled error');
    const log = processLogger('info', capture);
    log.info(`issued sk_live_${'A'.repeat(38)} for the partner`);
    log.info({ data: { taxId: '12.ABC.345/01DE-35', secret: 'whsec_abc' } }, 'event');
    const text = lines.join('');
    expect(text).not.toContain(cpf);
    expect(text).not.toContain('A'.repeat(38));
    expect(text).not.toContain('12.ABC.345/01DE-35');
    expect(text).not.toContain('whsec_abc');
    expect(JSON.parse(lines[0]!).err.code).toBe('23505');
  });

  it('leave the values of a failed statement out of the log of a 500, on either database', async () => {
    const auth = { authorization: `Bearer ${operatorToken}` };
    const project = (
      await operator.inject({
        method: 'POST',
        url: '/operator/projects',
        payload: { name: 'Fail' },
        headers: auth,
      })
    ).json();
    const key = (
      await operator.inject({
        method: 'POST',
        url: `/operator/projects/${project.id}/api-keys`,
        payload: { environment: 'sandbox' },
        headers: auth,
      })
    ).json().key as string;
    // The database refuses this one customer (and no other: test files may share the database).
    const name = 'Zélia Quintanilha Refused';
    const email = 'zelia.quintanilha@example.com';
    await ctx.db.query(
      `CREATE OR REPLACE FUNCTION refuse_logging_probe() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF NEW.name = '${name}' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`,
    );
    await ctx.db.query(
      'CREATE TRIGGER refuse_logging_probe BEFORE INSERT ON customers FOR EACH ROW EXECUTE FUNCTION refuse_logging_probe()',
    );
    lines.length = 0;
    try {
      const answer = await client(sandbox, key).post('/customers', individualBody({ name, email }));
      expect(answer.statusCode, answer.body).toBe(500);
    } finally {
      await ctx.db.query('DROP TRIGGER refuse_logging_probe ON customers');
      await ctx.db.query('DROP FUNCTION refuse_logging_probe()');
    }
    const text = lines.join('');
    expect(text).toContain('unhandled error');
    expect(text).toContain('refused by the test');
    expect(text).not.toContain('Quintanilha');
    expect(text).not.toContain(email);
  });

  it('keep ordinary values intact', () => {
    const line = '{"time":1795274834820,"responseTime":12.5,"id":"0195f3c2-7d3e-7b6a-9c1e-2f4a5b6c7d8e"}';
    expect(scrubSecrets(line)).toBe(line);
  });
});
