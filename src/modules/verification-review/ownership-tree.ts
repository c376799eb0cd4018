/**
 * A business customer's ownership tree as the operator reviews it, flattened depth first: each party
 * after its parent (the customer is the root, depth 0 parties are its direct ones), with its share, its
 * effective share, whether it is a UBO, its verification's state and its documents.
 */
import type { Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { listParties } from '../associated-parties/service.ts';
import { presentOperatorDocument } from '../documents/presenter.ts';
import type { DocumentRow } from '../documents/service.ts';
import { effectiveOwnership, formatOwnership, isUbo, type PartyFact } from '../verifications/kyb-rules.ts';

export type OwnershipNode = {
  id: string;
  type: string;
  role: string;
  name: string;
  taxId: string;
  ownershipPercentage: number | null;
  effectiveOwnership: string | null;
  ubo: boolean;
  verification: { id: string; status: string } | null;
  parentId: string | null;
  depth: number;
  documents: ReturnType<typeof presentOperatorDocument>[];
};

export async function ownershipTree(
  db: Executor,
  tenant: Tenant,
  customerId: string,
  documents: DocumentRow[],
): Promise<OwnershipNode[]> {
  const parties = await listParties(db, tenant, customerId);
  const facts = new Map<string, PartyFact>(
    parties.map((party) => [
      party.id,
      {
        id: party.id,
        type: party.type,
        role: party.role,
        name: party.name,
        parentId: party.parent_id,
        ownership: party.ownership === null ? null : Number(party.ownership),
        verification: null,
      },
    ]),
  );
  const out: OwnershipNode[] = [];
  const visit = (party: (typeof parties)[number], depth: number) => {
    const share = effectiveOwnership(facts.get(party.id)!, facts);
    out.push({
      id: party.id,
      type: party.type,
      role: party.role,
      name: party.name,
      taxId: party.tax_id,
      ownershipPercentage: party.ownership === null ? null : Number(party.ownership) / 100,
      effectiveOwnership: share ? formatOwnership(share) : null,
      ubo: isUbo(facts.get(party.id)!, facts),
      verification:
        party.verification_id && party.verification_status
          ? { id: party.verification_id, status: party.verification_status }
          : null,
      parentId: party.parent_id,
      depth,
      documents: documents.filter((doc) => doc.associated_party_id === party.id).map(presentOperatorDocument),
    });
    for (const child of parties.filter((item) => item.parent_id === party.id)) visit(child, depth + 1);
  };
  for (const root of parties.filter((party) => party.parent_id === null)) visit(root, 0);
  return out;
}
