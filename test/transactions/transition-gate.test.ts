/**
 * The one gate every status change goes through takes the flow's own state machine: a transaction moved
 * by another flow's machine, or along a move its own does not allow, is refused and nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/types.ts';
import { OFF_RAMP_STATES } from '../../src/modules/off-ramp/state.ts';
import { moveOnRamp } from '../../src/modules/on-ramp/state.ts';
import { lockTransaction } from '../../src/modules/transactions/repo.ts';
import { transitionTransaction } from '../../src/modules/transactions/transition.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { startTestApi, type TestApi } from '../helpers/server.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.server.close());

describe('the transition gate', () => {
  it("refuses another flow's state machine and a move the flow's own does not allow", async () => {
    const customer = await approvedCustomer(api.sandbox);
    const onRamp = (
      await api.sandbox.post('/transactions/on-ramp', {
        customerId: customer.id,
        currency: 'BRL',
        amount: '15.00',
      })
    ).json();
    type Row = NonNullable<Awaited<ReturnType<typeof lockTransaction>>>;
    const move = (work: (tx: Executor, row: Row) => Promise<unknown>) =>
      api.server.ctx.db.transaction(async (tx) => work(tx, (await lockTransaction(tx, onRamp.id))!));

    await expect(
      move((tx, row) => transitionTransaction(tx, OFF_RAMP_STATES, row, 'TRADING', new Date())),
    ).rejects.toThrow('a ON_RAMP moved by the OFF_RAMP state machine');
    await expect(move((tx, row) => moveOnRamp(tx, row, 'SUCCESS', new Date()))).rejects.toMatchObject({
      code: 'invalid_state_transition',
    });
    const after = (await api.sandbox.get(`/transactions/${onRamp.id}`)).json();
    expect(after.status).toBe('AWAITING_FUNDS');
    expect(after.timeline).toHaveLength(1);
  });
});
