/**
 * Settlement's claim reads only what it can claim: on-ramps whose stablecoin is on its way (waiting for
 * the chain's confirmations) and off-ramps waiting for their payout stay out of its index, so a backlog of
 * them never slows the claim of the next due transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_IN_FLIGHT, claimInFlight } from '../../src/modules/transactions/repo.ts';
import type { TestServer } from '../helpers/server.ts';
import { startIsolatedServer } from './support.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startIsolatedServer({ workers: false });
});
afterAll(() => server.close());

type PlanNode = {
  'Node Type': string;
  'Index Name'?: string;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
};
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/** 300 on-ramps in `status`, written directly (their projects and customers left out). */
const onRamps = (status: string, chainSendId: string) => `
  INSERT INTO transactions (id, customer_id, project_id, environment, type, status, currency, amount,
    target_currency, rail, fee_basis_points, fee_flat, timeline, created_at, updated_at, limit_amount_brl,
    pix_txid, br_code, expires_at, deposit_amount, rate, fee, net_amount, target_amount, platform_fee,
    partner_fee, chain_send_id)
  SELECT gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'production', 'ON_RAMP', '${status}', 'BRL',
    10000, 'USDC', 'PIX', 0, 0, '[]', now(), now() - interval '1 hour' + g * interval '1 ms', 10000,
    'w' || g, 'x', now(), 10000, 5, 0, 10000, 2000, 0, 0, ${chainSendId}
  FROM generate_series(1, 300) g`;

describe('the settlement claim', () => {
  it('walks past no transaction waiting for a chain confirmation: its index holds only what it can claim', async () => {
    const plan = await server.ctx.db.transaction(async (tx) => {
      // rows without their customers: foreign keys and triggers off for this transaction only
      await tx.query('SET LOCAL session_replication_role = replica');
      await tx.query(onRamps('TRANSFERRING_STABLECOIN', 'gen_random_uuid()'));
      await tx.query('ANALYZE transactions');
      expect(await claimInFlight(tx)).toBeUndefined();
      const [row] = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${CLAIM_IN_FLIGHT}`,
      );
      return row!['QUERY PLAN'][0].Plan;
    });
    const all = nodes(plan);
    expect(all.map((node) => node['Index Name']).filter(Boolean)).toEqual(['transactions_settlement_due']);
    for (const node of all) expect(node['Rows Removed by Filter'] ?? 0, node['Node Type']).toBe(0);
  });
});
