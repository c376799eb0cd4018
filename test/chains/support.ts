/**
 * A production Ponte over a real EVM node (anvil) reached through the fault-injecting JSON-RPC proxy,
 * with the workers off: each test runs the sender, the confirmation checker and the watcher itself.
 */
import type { Address } from 'viem';
import { expect } from 'vitest';
import { individualBody } from '../helpers/factories.ts';
import { type Client, client } from '../helpers/server.ts';
import { type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';
import type { Anvil } from './anvil.ts';
import { type RpcProxy, startRpcProxy } from './rpc-proxy.ts';

export const CONFIRMATIONS = 3;

export type ChainWorld = {
  node: Anvil;
  proxy: RpcProxy;
  server: IsolatedServer;
  production: Client;
  usdc: Address;
  treasury: string;
  close(): Promise<void>;
};

export async function chainWorld(node: Anvil, env: Record<string, string> = {}): Promise<ChainWorld> {
  const usdc = await node.deployToken('USD Coin (test)', 'USDC');
  const proxy = await startRpcProxy(node.url);
  const server = await startIsolatedServer({
    workers: false,
    env: {
      PONTE_CHAIN_ETHEREUM_RPC_URL: proxy.url,
      PONTE_CHAIN_ETHEREUM_TOKENS: `USDC=${usdc}`,
      PONTE_CHAIN_ETHEREUM_CONFIRMATIONS: String(CONFIRMATIONS),
      ...env,
    },
  });
  const production = client(server.production, (await server.newTenant()).productionKey);
  const treasury = server.ctx.chains.get('production', 'ETHEREUM').addressAt(0);
  await node.fundGas(treasury);
  await node.mint(usdc, treasury, 1_000_000_000_000n);
  return {
    node,
    proxy,
    server,
    production,
    usdc,
    treasury,
    async close() {
      await server.close();
      await proxy.close();
    },
  };
}

export async function approvedCustomer(world: ChainWorld) {
  const customer = (await world.production.post('/customers', individualBody())).json();
  await world.server.ctx.db.query("UPDATE verifications SET status = 'APPROVED' WHERE customer_id = $1", [
    customer.id,
  ]);
  const wallets = (await world.production.get(`/customers/${customer.id}/wallets`)).json().data;
  const wallet = wallets.find((w: { blockchain: string }) => w.blockchain === 'ETHEREUM');
  return { id: customer.id as string, address: wallet.address as string };
}

export async function usdcBalance(world: ChainWorld, customerId: string): Promise<string> {
  const response = await world.production.get(`/customers/${customerId}/balances`);
  expect(response.statusCode).toBe(200);
  return (
    response.json().balances.find((b: { currency: string }) => b.currency === 'USDC')?.amount ?? '0.000000'
  );
}

export async function transactionsOf(world: ChainWorld, customerId: string) {
  const response = await world.production.get(`/transactions?customerId=${customerId}`);
  expect(response.statusCode).toBe(200);
  return response.json().data as { id: string; type: string; status: string; [key: string]: unknown }[];
}
