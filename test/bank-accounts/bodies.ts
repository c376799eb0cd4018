/** Request bodies for bank accounts: a valid account of a third-party individual, with nested overrides. */
import { validCpf } from '../helpers/factories.ts';

type Overrides = {
  identifier?: Record<string, unknown>;
  holder?: Record<string, unknown>;
  address?: Record<string, unknown>;
  [field: string]: unknown;
};

export function accountBody(customerId: string, overrides: Overrides = {}) {
  const { identifier, holder, address, ...top } = overrides;
  const holderTaxId = validCpf();
  return {
    customerId,
    name: 'Conta principal',
    rail: 'PIX',
    currency: 'BRL',
    identifier: { keyType: 'CPF', keyValue: holderTaxId, ...identifier },
    holder: {
      type: 'INDIVIDUAL',
      relationship: 'THIRD_PARTY',
      legalName: 'Bruno Lima',
      taxId: holderTaxId,
      email: 'bruno@example.com',
      address: {
        line1: 'Avenida Paulista, 1000',
        city: 'São Paulo',
        state: 'SP',
        postalCode: '01310-100',
        country: 'BRA',
        ...address,
      },
      ...holder,
    },
    ...top,
  };
}

/** A body for the customer's own account (SELF), with the holder taken from the customer. */
export function selfBody(
  customer: { id: string; type: string; name?: unknown; taxId: string; email?: unknown },
  overrides: Overrides = {},
) {
  const business = customer.type === 'BUSINESS';
  return accountBody(customer.id, {
    ...overrides,
    identifier: { keyType: business ? 'CNPJ' : 'CPF', keyValue: customer.taxId, ...overrides.identifier },
    holder: {
      type: customer.type,
      relationship: 'SELF',
      legalName: customer.name,
      taxId: customer.taxId,
      email: customer.email,
      ...(business ? { incorporationDate: '2019-05-14' } : {}),
      ...overrides.holder,
    },
  });
}

/** The fields a bank account answer carries (seed 2.4), for exact key comparisons. */
export const ACCOUNT_KEYS = [
  'createdAt',
  'currency',
  'customerId',
  'holder',
  'id',
  'identifier',
  'metadata',
  'name',
  'rail',
  'type',
  'updatedAt',
];
