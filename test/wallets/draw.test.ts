import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawFromWallets } from '../../src/modules/wallets/draw.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { fund } from './support.ts';

let server: TestServer;
let sandbox: Client;

beforeAll(async () => {
  server = await startTestServer();
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(() => server.close());

describe('drawing an amount from the wallets', () => {
  it('takes the default chain first, then the others in order, and refuses more than they hold', async () => {
    const customer = await approvedCustomer(sandbox);
    await fund(sandbox, customer.id, '5', 'ETHEREUM');
    await fund(sandbox, customer.id, '2', 'BASE');
    await fund(sandbox, customer.id, '10', 'TRON');
    const draw = (amount: bigint) => drawFromWallets(server.ctx.db, customer.id, 'USDC', amount, 'ETHEREUM');
    expect(await draw(4_000_000n)).toEqual([{ blockchain: 'ETHEREUM', amount: 4_000_000n }]);
    expect(await draw(8_000_000n)).toEqual([
      { blockchain: 'ETHEREUM', amount: 5_000_000n },
      { blockchain: 'BASE', amount: 2_000_000n },
      { blockchain: 'TRON', amount: 1_000_000n },
    ]);
    await expect(draw(17_000_001n)).rejects.toMatchObject({ code: 'insufficient_funds' });
  });
});
