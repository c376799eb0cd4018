/**
 * The KYB part of a verification's review page: what still stands between a business and APPROVED, and
 * its ownership tree with each party's share, verification state and documents; for a party's own
 * verification, whose party it is.
 */

import { type Html, html } from '../../../lib/html.ts';
import type { OwnershipNode } from '../../../modules/verification-review/ownership-tree.ts';
import type { OperatorVerificationView } from '../../../modules/verification-review/review.ts';
import { badge } from '../../kit/parts.ts';
import { table } from '../../kit/table.ts';

type Detail = OperatorVerificationView & { ownershipTree?: OwnershipNode[] };

const share = (value: number | null) => (value === null ? '—' : `${value.toFixed(2)}%`);

function partyRow(node: OwnershipNode): Html {
  const indent = node.depth > 0 ? `${'— '.repeat(node.depth)}` : '';
  const documents =
    node.documents.length > 0
      ? node.documents.map(
          (doc) =>
            html`<a href="/console/documents/${doc.id}/content">${doc.type.replaceAll('_', ' ')}${doc.side ? ` (${doc.side})` : ''}</a> `,
        )
      : [html`<span class="hint">none</span>`];
  const state = node.verification
    ? html`<a href="/console/reviews/verifications/${node.verification.id}">${badge(node.verification.status)}</a>`
    : html`<span class="hint">company: documents only</span>`;
  return html`<tr data-party="${node.id}"><td>${indent}${node.name}${node.ubo ? html` <strong>UBO</strong>` : html``}</td>
<td>${node.role}</td><td>${node.type}</td><td>${share(node.ownershipPercentage)}</td>
<td>${node.effectiveOwnership === null ? '—' : `${node.effectiveOwnership}%`}</td><td>${state}</td><td>${documents}</td></tr>`;
}

export function kybSections(v: Detail): Html {
  const party = v.associatedParty
    ? html`<section class="panel" id="associated-party"><h2>Associated party</h2><p>${v.associatedParty.name},
${v.associatedParty.role} of <strong>${v.customer.name}</strong> (<code>${v.customer.taxId}</code>).</p></section>`
    : html``;
  const missing =
    v.missing && v.missing.length > 0
      ? html`<section class="panel" id="missing"><h2>Waiting for</h2>
${v.reviewApproved ? html`<p>The customer's own documents are approved.</p>` : html``}
<ul>${v.missing.map((item) => html`<li>${item}</li>`)}</ul></section>`
      : html``;
  const tree = v.ownershipTree
    ? html`<h2 id="ownership">Ownership and control</h2>
${table(
  ['Party', 'Role', 'Type', 'Share', 'Effective', 'Verification', 'Documents'],
  v.ownershipTree.map(partyRow),
  'No associated parties declared.',
)}`
    : html``;
  return html`${party}${missing}${tree}`;
}
