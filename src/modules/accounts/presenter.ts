import type { AccountRow } from './repo.ts';

export type AccountView = ReturnType<typeof presentAccount>;

export function presentAccount(row: AccountRow) {
  const ready = row.routing_number !== null && row.account_number !== null && row.bank_name !== null;
  return {
    id: row.id,
    customerId: row.customer_id,
    currency: row.currency,
    status: row.status,
    depositInstructions: ready
      ? {
          rails: ['ACH', 'WIRE'] as ('ACH' | 'WIRE')[],
          bankName: row.bank_name as string,
          bankAddress: row.bank_address,
          routingNumber: row.routing_number as string,
          accountNumber: row.account_number as string,
          beneficiaryName: row.beneficiary_name,
        }
      : null,
    destinationCurrency: row.destination_currency,
    blockchain: row.blockchain,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    closedAt: row.closed_at?.toISOString() ?? null,
  };
}
