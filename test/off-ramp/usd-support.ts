/** Helpers for USD payouts: a customer's own US bank account, over ACH or wire. */
import type { CustomerView } from '../helpers/factories.ts';
import type { Client } from '../helpers/server.ts';

/** JPMorgan Chase's routing number (a valid ABA check digit). */
export const CHASE = '021000021';

/** A SELF US bank account of the customer (its holder approved with the customer). */
export function usAccountBody(customer: CustomerView, rail: 'ACH' | 'WIRE' = 'ACH') {
  return {
    customerId: customer.id,
    name: `Own ${rail} account`,
    rail,
    currency: 'USD',
    identifier: { routingNumber: CHASE, accountNumber: '000123456789', accountType: 'CHECKING' },
    holder: {
      type: customer.type,
      relationship: 'SELF',
      legalName: customer.name,
      email: customer.email,
      address: {
        line1: '350 Fifth Avenue',
        city: 'New York',
        state: 'NY',
        postalCode: '10118',
        country: 'USA',
      },
    },
  };
}

export async function usAccount(api: Client, customer: CustomerView, rail: 'ACH' | 'WIRE' = 'ACH') {
  const response = await api.post('/bank-accounts', usAccountBody(customer, rail));
  if (response.statusCode !== 201) throw new Error(`US account: ${response.statusCode} ${response.body}`);
  return response.json().id as string;
}
