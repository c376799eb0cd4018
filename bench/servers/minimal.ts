/**
 * Baseline (b) and the driver comparison: a minimal Fastify route doing the bank account's primary-key
 * SELECT and answering the row as JSON. The API key is resolved from an in-memory map; there is no
 * schema, no presenter, no hook and no other logic. One route per driver:
 *   /bank-accounts/:id            the first driver of BENCH_DRIVERS (pg for the baseline)
 *   /<driver>/bank-accounts/:id   each driver of BENCH_DRIVERS (pg, postgres, postgres-unprepared)
 * and the list baselines, each the service's page SELECT alone (no total), a named pg statement:
 *   /customers/:id/limit-requests?limit=N, /customers?limit=N, /transactions?limit=N[&customerId=...]
 * and the minimal write transaction, POST /transactions/on-ramp (see write.ts).
 */
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { type Driver, openDriver } from './drivers.ts';
import { openPages } from './pages.ts';
import { openWrites } from './write.ts';

const port = Number(process.env.BENCH_PORT);
const url = process.env.DATABASE_URL!;
const poolSize = Number(process.env.BENCH_POOL_SIZE ?? 20);
const drivers = (process.env.BENCH_DRIVERS ?? 'pg').split(',') as Driver[];
const tenants = new Map([
  [
    `Bearer ${process.env.BENCH_API_KEY}`,
    { projectId: process.env.BENCH_PROJECT_ID!, environment: process.env.BENCH_ENVIRONMENT! },
  ],
]);

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));

const closers: (() => Promise<void>)[] = [];
for (const [index, driver] of drivers.entries()) {
  const db = openDriver(driver, url, poolSize);
  closers.push(db.close);
  const handler = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const tenant = tenants.get(request.headers.authorization ?? '');
    if (!tenant) return reply.code(401).send({ code: 'unauthorized' });
    const row = await db.findBankAccount(request.params.id, tenant.projectId, tenant.environment);
    if (!row) return reply.code(404).send({ code: 'not_found' });
    return row;
  };
  if (index === 0) app.get('/bank-accounts/:id', handler);
  app.get(`/${driver}/bank-accounts/:id`, handler);
}

const pages = openPages(url, poolSize);
closers.push(pages.close);
const pageSize = (request: FastifyRequest) => Number((request.query as { limit?: string }).limit ?? 20);
app.get(
  '/customers/:id/limit-requests',
  async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const tenant = tenants.get(request.headers.authorization ?? '');
    if (!tenant) return reply.code(401).send({ code: 'unauthorized' });
    const data = await pages.limitRequests(
      request.params.id,
      tenant.projectId,
      tenant.environment,
      pageSize(request),
    );
    return { data };
  },
);
app.get('/customers', async (request: FastifyRequest, reply: FastifyReply) => {
  const tenant = tenants.get(request.headers.authorization ?? '');
  if (!tenant) return reply.code(401).send({ code: 'unauthorized' });
  return { data: await pages.customers(tenant.projectId, tenant.environment, pageSize(request)) };
});

app.get('/transactions', async (request: FastifyRequest, reply: FastifyReply) => {
  const tenant = tenants.get(request.headers.authorization ?? '');
  if (!tenant) return reply.code(401).send({ code: 'unauthorized' });
  const { customerId } = request.query as { customerId?: string };
  return {
    data: await pages.transactions(tenant.projectId, tenant.environment, pageSize(request), customerId),
  };
});

const writes = openWrites(url, poolSize);
closers.push(writes.close);
app.post(
  '/transactions/on-ramp',
  async (request: FastifyRequest<{ Body: { customerId: string; amount: string } }>, reply: FastifyReply) => {
    const tenant = tenants.get(request.headers.authorization ?? '');
    if (!tenant) return reply.code(401).send({ code: 'unauthorized' });
    const cents = BigInt(request.body.amount.replace('.', ''));
    const created = await writes.create(request.body.customerId, tenant.projectId, tenant.environment, cents);
    if (!created) return reply.code(404).send({ code: 'not_found' });
    return reply.code(201).send(created);
  },
);

await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', async () => {
  await app.close();
  await Promise.all(closers.map((close) => close()));
  process.exit(0);
});
