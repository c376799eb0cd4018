/**
 * The customer page's KYB sections: what compliance still needs (requirements), the associated parties of
 * a business as its ownership tree (indirect UBOs marked) with each one's verification, and the documents uploaded through the API.
 */

import { type Html, html } from '../../../lib/html.ts';
import type { PartyView } from '../../../modules/associated-parties/presenter.ts';
import type { CustomerAnswer } from '../../../modules/customers/service.ts';
import type { DocumentView } from '../../../modules/documents/presenter.ts';
import type { OwnershipNode } from '../../../modules/verification-review/ownership-tree.ts';
import { badge, dateTime } from '../../kit/parts.ts';
import { table } from '../../kit/table.ts';

const label = (value: string) => value.replaceAll('_', ' ').toLowerCase();

/** A party in the ownership tree: indented under its parent, a UBO marked (and how it holds). */
function partyRow(node: OwnershipNode, parties: PartyView[], tree: OwnershipNode[]): Html {
  const party = parties.find((p) => p.id === node.id);
  const parent = node.parentId ? tree.find((p) => p.id === node.parentId) : undefined;
  const ubo = node.ubo
    ? parent
      ? html` <span class="badge warn" data-ubo="indirect">indirect UBO</span> <span class="hint">through ${parent.name}</span>`
      : html` <span class="badge warn" data-ubo="direct">UBO</span>`
    : html``;
  const share = node.ownershipPercentage === null ? '—' : `${node.ownershipPercentage.toFixed(2)}%`;
  return html`<tr data-party="${node.id}" data-depth="${String(Math.min(node.depth, 3))}"><td><span class="tree">${node.depth > 0 ? html`<span aria-hidden="true">└ </span>` : html``}${node.name}</span>${ubo}</td>
<td>${node.role}</td><td>${node.type}</td><td>${share}${parent ? html` <span class="hint">of ${parent.name}</span>` : html``}</td>
<td>${node.effectiveOwnership ? `${node.effectiveOwnership}%` : '—'}</td>
<td>${party?.verification ? html`${badge(party.verification.status)} <a href="${party.verification.link}">Hosted page</a>` : html`<span class="hint">documents only</span>`}</td></tr>`;
}

export function kybSections(
  env: string,
  customer: CustomerAnswer,
  parties: PartyView[],
  tree: OwnershipNode[],
  documents: DocumentView[],
): Html {
  const names = new Map(parties.map((party) => [party.id, party.name]));
  const requirements = table(
    ['Requirement', 'For', 'Status'],
    customer.requirements.map(
      (item) =>
        html`<tr><td>${label(item.name)}</td><td>${
          item.associatedPartyId
            ? (names.get(item.associatedPartyId) ?? item.associatedPartyId)
            : customer.name
        }</td><td>${badge(item.status)}</td></tr>`,
    ),
    'Nothing required.',
  );
  const terms = customer.tosAcceptedAt
    ? html`<p>Terms of service accepted ${dateTime(customer.tosAcceptedAt)}.</p>`
    : html`<p>Terms of service not accepted yet.</p>`;
  const partyTable =
    customer.type === 'BUSINESS'
      ? html`<section aria-labelledby="parties"><h2 id="parties">Ownership and control</h2>
<p class="hint">Each party under the one that owns it; a UBO owns 25% or more of the company, directly or through a holding.</p>
${table(
  ['Party', 'Role', 'Type', 'Share of parent', 'Effective', 'Verification'],
  tree.map((node) => partyRow(node, parties, tree)),
  'No associated parties yet.',
)}</section>`
      : html``;
  const documentTable = table(
    ['Document', 'Side', 'For', 'File', 'Uploaded'],
    documents.map(
      (doc) => html`<tr><td>${label(doc.type)}</td><td>${doc.side ?? '—'}</td>
<td>${doc.associatedPartyId ? (names.get(doc.associatedPartyId) ?? doc.associatedPartyId) : customer.name}</td>
<td>${doc.fileName}</td><td>${dateTime(doc.createdAt)}</td></tr>`,
    ),
    'No documents uploaded through the API.',
  );
  return html`<section aria-labelledby="requirements"><h2 id="requirements">Requirements</h2>
${terms}
${requirements}</section>
${partyTable}
<section aria-labelledby="documents"><h2 id="documents">Documents</h2>
${documentTable}
<p class="hint">Documents sent on the hosted verification page (${env}) are reviewed with the verification.</p></section>`;
}
