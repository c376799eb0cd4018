import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueTransactions } from '../../src/modules/on-ramp/expiry.ts';
import { type Client, client, eventually } from '../helpers/server.ts';
import {
  approvedIndividual,
  createOnRamp,
  type IsolatedServer,
  onRamp,
  startIsolatedServer,
} from '../transactions/support.ts';

// A clock the tests move forward; a database of its own, so that moving time expires nobody else's charges.
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const advance = (minutes: number) => {
  offsetMs += minutes * 60_000;
};

let server: IsolatedServer;
let sandbox: Client;

beforeAll(async () => {
  server = await startIsolatedServer({ clock });
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(async () => {
  await server.close();
});

const read = (id: string) => sandbox.get(`/transactions/${id}`).then((r) => r.json());

describe('expiry', () => {
  it('EXPIRES a charge whose deposit has not arrived by expiresAt, with its event', async () => {
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '10.00');
    advance(29);
    await expireDueTransactions(server.ctx.db, clock);
    expect((await read(created.id)).status).toBe('AWAITING_FUNDS');
    advance(2);
    const expired = await eventually(
      () => read(created.id),
      (t) => t.status === 'EXPIRED',
    );
    expect(expired.timeline.map((s: { status: string }) => s.status)).toEqual(['AWAITING_FUNDS', 'EXPIRED']);
    expect(expired.failureReason).toBe(`No deposit arrived before ${created.depositInstructions.expiresAt}`);
    const events = await server.ctx.db.query<{ data: { status: string } }>(
      'SELECT data FROM events WHERE resource_id = $1 ORDER BY seq',
      [created.id],
    );
    expect(events.map((e) => e.data.status)).toEqual(['AWAITING_FUNDS', 'EXPIRED']);
  });

  it('refuses a sandbox deposit after expiresAt, even before the sweeper ran', async () => {
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '10.00');
    advance(31);
    const response = await sandbox.post(`/sandbox/transactions/${created.id}/deposit`, {});
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('invalid_state_transition');
  });

  it('expires each charge exactly once with several sweepers at work', async () => {
    const customer = await approvedIndividual(sandbox);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await createOnRamp(sandbox, customer.id, '1.00')).id);
    advance(31);
    await Promise.all(Array.from({ length: 4 }, () => expireDueTransactions(server.ctx.db, clock, 2)));
    await eventually(
      () => Promise.all(ids.map(read)),
      (all) => all.every((t) => t.status === 'EXPIRED'),
    );
    const rows = await server.ctx.db.query<{ id: string; n: bigint }>(
      `SELECT resource_id AS id, count(*) AS n FROM events
        WHERE resource_id = ANY($1::uuid[]) AND data->>'status' = 'EXPIRED' GROUP BY resource_id`,
      [ids],
    );
    expect(rows.map((r) => Number(r.n))).toEqual(Array(6).fill(1));
  });

  it('an EXPIRED charge no longer counts against the limits', async () => {
    const customer = await approvedIndividual(sandbox);
    await createOnRamp(sandbox, customer.id, '7500.00');
    await createOnRamp(sandbox, customer.id, '7500.00');
    expect((await onRamp(sandbox, customer.id, '1.00')).statusCode).toBe(422);
    advance(31);
    await expireDueTransactions(server.ctx.db, clock);
    expect((await onRamp(sandbox, customer.id, '7500.00')).statusCode).toBe(201);
  });
});
