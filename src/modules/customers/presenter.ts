import type { Requirement } from '../verifications/kyb.ts';
import type { CustomerWithVerification } from './repo.ts';

/** Builds the hosted verification page address for a verification id. */
export type LinkMinter = (verificationId: string) => string;

/**
 * A customer as the API answers it, with its terms and requirements (business customers, KYB). One
 * object literal, its optional fields undefined when absent (never serialised): spreading a base answer
 * and optional parts into it cost three times as much, and a page presents many.
 */
export function presentCustomerWithRequirements(
  row: CustomerWithVerification,
  link: LinkMinter,
  requirements: Requirement[],
) {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    taxId: row.tax_id,
    country: row.country,
    email: row.email,
    birthDate: row.birth_date || undefined,
    incorporationDate: row.incorporation_date || undefined,
    verification: {
      id: row.verification_id,
      status: row.verification_status,
      level: row.verification_level,
      link: link(row.verification_id),
    },
    metadata: row.metadata ?? {},
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    tosAcceptedAt: row.tos_accepted_at ? row.tos_accepted_at.toISOString() : null,
    requirements,
  };
}

export type CustomerAnswer = ReturnType<typeof presentCustomerWithRequirements>;
