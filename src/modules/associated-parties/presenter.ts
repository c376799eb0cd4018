import type { LinkMinter } from '../customers/service.ts';
import { effectiveOwnership, formatOwnership, type PartyFact } from '../verifications/kyb-rules.ts';
import type { PartyRow, PartyWithVerification } from './repo.ts';

/** A party as the KYB rules see it (its verification left out). */
export const partyFact = (row: PartyRow): PartyFact => ({
  id: row.id,
  type: row.type,
  role: row.role,
  name: row.name,
  parentId: row.parent_id,
  ownership: row.ownership === null ? null : Number(row.ownership),
  verification: null,
});

/** An associated party as the API answers it; `all` are the customer's parties, for its effective share. */
export function presentParty(row: PartyWithVerification, all: readonly PartyRow[], link: LinkMinter) {
  const byId = new Map(all.map((party) => [party.id, partyFact(party)]));
  const share = effectiveOwnership(partyFact(row), byId);
  const ownership = row.ownership === null ? null : Number(row.ownership);
  return {
    id: row.id,
    customerId: row.customer_id,
    type: row.type,
    role: row.role,
    name: row.name,
    taxId: row.tax_id,
    ...(row.birth_date ? { birthDate: row.birth_date } : {}),
    ...(row.incorporation_date ? { incorporationDate: row.incorporation_date } : {}),
    email: row.email,
    address: row.address,
    ...(ownership !== null ? { ownershipPercentage: ownership / 100 } : {}),
    ...(share ? { effectiveOwnership: formatOwnership(share) } : {}),
    ...(row.parent_id ? { parentId: row.parent_id } : {}),
    ...(row.verification_id && row.verification_status
      ? {
          verification: {
            id: row.verification_id,
            status: row.verification_status,
            level: 'STANDARD' as const,
            link: link(row.verification_id),
          },
        }
      : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export type PartyView = ReturnType<typeof presentParty>;
