/**
 * The customer page's KYB sections: what compliance still needs (requirements), the associated parties of
 * a business with each one's verification, and the documents uploaded through the API.
 */

import { type Html, html } from '../../../lib/html.ts';
import type { PartyView } from '../../../modules/associated-parties/presenter.ts';
import type { CustomerAnswer } from '../../../modules/customers/service.ts';
import type { DocumentView } from '../../../modules/documents/presenter.ts';
import { badge, dateTime } from '../../kit/parts.ts';
import { table } from '../../kit/table.ts';

const label = (value: string) => value.replaceAll('_', ' ').toLowerCase();

export function kybSections(
  env: string,
  customer: CustomerAnswer,
  parties: PartyView[],
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
      ? html`<section aria-labelledby="parties"><h2 id="parties">Associated parties</h2>
${table(
  ['Name', 'Role', 'Type', 'Ownership', 'Effective', 'Verification'],
  parties.map(
    (party) => html`<tr><td>${party.name}</td><td>${party.role}</td><td>${party.type}</td>
<td>${party.ownershipPercentage === undefined ? '—' : `${party.ownershipPercentage.toFixed(2)}%`}</td>
<td>${party.effectiveOwnership ? `${party.effectiveOwnership}%` : '—'}</td>
<td>${party.verification ? html`${badge(party.verification.status)} <a href="${party.verification.link}">Hosted page</a>` : html`<span class="hint">documents only</span>`}</td></tr>`,
  ),
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
