/**
 * The minimal write transaction (baseline of the on-ramp write path): BEGIN, lock the customer's row,
 * insert one transaction row, COMMIT, each statement named. No limit check, no BR Code, no outbox event,
 * no idempotency, no schema. The row is a valid on-ramp (every column the table requires, its BRL value
 * for the limits included), so every request commits. Its rows carry the BR Code `baseline`, so they can
 * be told from the service's.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';

const LOCK = 'SELECT id FROM customers WHERE id = $1 AND project_id = $2 AND environment = $3 FOR UPDATE';
const INSERT = `INSERT INTO transactions (id, customer_id, project_id, environment, type, status, currency, amount,
    target_currency, rail, pix_txid, br_code, expires_at, fee_basis_points, fee_flat, limit_amount_brl, blockchain,
    timeline, created_at, updated_at)
  VALUES ($1, $2, $3, $4, 'ON_RAMP', 'AWAITING_FUNDS', 'BRL', $5, 'USDC', 'PIX', $6, 'baseline', $7, 0, 0, $5,
    'ETHEREUM', $8, $9, $9)`;

export const BASELINE_BR_CODE = 'baseline';

export function openWrites(url: string, max: number) {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  return {
    async create(customerId: string, projectId: string, environment: string, amountCents: bigint) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const found = await client.query({
          name: 'lock',
          text: LOCK,
          values: [customerId, projectId, environment],
        });
        if (found.rowCount === 0) {
          await client.query('ROLLBACK');
          return undefined;
        }
        const now = new Date();
        const id = randomUUID();
        await client.query({
          name: 'insert',
          text: INSERT,
          values: [
            id,
            customerId,
            projectId,
            environment,
            amountCents.toString(),
            randomBytes(12).toString('hex'),
            new Date(now.getTime() + 30 * 60_000),
            JSON.stringify([{ status: 'AWAITING_FUNDS', at: now.toISOString() }]),
            now,
          ],
        });
        await client.query('COMMIT');
        return { id, status: 'AWAITING_FUNDS' };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
