/**
 * Baseline of the write benches: the smallest honest write transaction a money-moving request needs. One
 * Fastify route, the API key from an in-memory map, and one PostgreSQL transaction that locks the
 * customer's row and inserts one row (`BEGIN; SELECT ... FOR UPDATE; INSERT; COMMIT`). No schema, no
 * limits, no ledger, no event.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const port = Number(process.env.BENCH_PORT);
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL!,
  max: Number(process.env.BENCH_POOL_SIZE ?? 20),
});
const key = `Bearer ${process.env.BENCH_API_KEY}`;
const projectId = process.env.BENCH_PROJECT_ID!;

await pool.query(
  'CREATE TABLE IF NOT EXISTS bench_writes (id uuid PRIMARY KEY, customer_id uuid NOT NULL, created_at timestamptz NOT NULL)',
);

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
app.post<{ Body: { customerId: string } }>('/writes', async (request, reply) => {
  if (request.headers.authorization !== key) return reply.code(401).send({ code: 'unauthorized' });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const found = await client.query(
      'SELECT id FROM customers WHERE id = $1 AND project_id = $2 FOR UPDATE',
      [request.body.customerId, projectId],
    );
    if (found.rowCount === 0) {
      await client.query('ROLLBACK');
      return reply.code(404).send({ code: 'not_found' });
    }
    const id = randomUUID();
    await client.query('INSERT INTO bench_writes (id, customer_id, created_at) VALUES ($1, $2, now())', [
      id,
      request.body.customerId,
    ]);
    await client.query('COMMIT');
    return reply.code(201).send({ id });
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
});

await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});
