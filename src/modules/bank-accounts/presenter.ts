import type { BankAccountRow } from './repo.ts';

/** PIX: `{keyType, keyValue}`; ACH and WIRE: `{routingNumber, accountNumber, accountType}`. */
export function presentIdentifier(row: BankAccountRow) {
  return row.rail === 'PIX'
    ? { keyType: row.key_type!, keyValue: row.key_value! }
    : {
        routingNumber: row.routing_number!,
        accountNumber: row.account_number!,
        accountType: row.account_type!,
      };
}

/**
 * A bank account as the API answers it (seed 2.4); incorporationDate only when the holder has one, and
 * taxId only when the holder has one (always for PIX).
 */
export function presentBankAccount(row: BankAccountRow) {
  const address = row.holder_address;
  return {
    id: row.id,
    customerId: row.customer_id,
    name: row.name,
    type: row.type,
    rail: row.rail,
    currency: row.currency,
    identifier: presentIdentifier(row),
    holder: {
      type: row.holder_type,
      relationship: row.holder_relationship,
      legalName: row.holder_legal_name,
      ...(row.holder_tax_id !== null ? { taxId: row.holder_tax_id } : {}),
      ...(row.holder_incorporation_date ? { incorporationDate: row.holder_incorporation_date } : {}),
      email: row.holder_email,
      address: {
        line1: address.line1,
        city: address.city,
        state: address.state,
        postalCode: address.postalCode,
        country: address.country,
      },
      verification: { status: row.holder_verification_status, level: row.holder_verification_level },
    },
    metadata: row.metadata ?? {},
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export type BankAccountView = ReturnType<typeof presentBankAccount>;
