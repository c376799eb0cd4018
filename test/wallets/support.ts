import type { Client } from '../helpers/server.ts';

export type Wallet = {
  blockchain: string;
  address: string;
  blockExplorerUrl: string;
  isDefault: boolean;
  balances: { currency: string; amount: string; updatedAt: string }[];
};

export async function walletsOf(api: Client, customerId: string): Promise<Wallet[]> {
  const response = await api.get(`/customers/${customerId}/wallets`);
  if (response.statusCode !== 200) throw new Error(`wallets: ${response.statusCode} ${response.body}`);
  return response.json().data;
}

export async function walletOn(api: Client, customerId: string, blockchain: string): Promise<Wallet> {
  return (await walletsOf(api, customerId)).find((w) => w.blockchain === blockchain)!;
}

export async function fund(
  api: Client,
  customerId: string,
  amount: string,
  blockchain = 'ETHEREUM',
  currency = 'USDC',
) {
  const wallet = await walletOn(api, customerId, blockchain);
  const response = await api.post(`/sandbox/wallets/${wallet.address}/deposit`, {
    currency,
    amount,
    blockchain,
  });
  if (response.statusCode !== 201) throw new Error(`deposit: ${response.statusCode} ${response.body}`);
  return response.json();
}

export async function totalOf(api: Client, customerId: string, currency: string): Promise<string> {
  const balances = (await api.get(`/customers/${customerId}/balances`)).json().balances;
  return balances.find((b: { currency: string }) => b.currency === currency).amount;
}

/** The sum of a currency over every wallet, as an exact string with six decimals. */
export async function walletsTotal(api: Client, customerId: string, currency: string): Promise<string> {
  let units = 0n;
  for (const wallet of await walletsOf(api, customerId)) {
    for (const balance of wallet.balances) {
      if (balance.currency === currency) units += BigInt(balance.amount.replace('.', ''));
    }
  }
  const text = units.toString().padStart(7, '0');
  return `${text.slice(0, -6)}.${text.slice(-6)}`;
}

export const transfer = (api: Client, body: Record<string, unknown>) =>
  api.post('/transactions/transfer', body);
