/**
 * What the end customer sees for each state of their verification: the upload form (NOT_STARTED), a
 * waiting note (UNDER_VERIFICATION), what to fix plus the form again (TEMPORARY_REJECTION), and a final
 * answer that accepts nothing more (APPROVED, FINAL_REJECTION).
 */
import type { FieldError } from '../../core/errors.ts';
import { layout, partnerName } from '../../lib/hosted-page.ts';
import { type Html, html } from '../../lib/html.ts';
import {
  COMPANY_DOCUMENT_TYPES,
  type CompanyDocumentType,
  IDENTITY_DOCUMENT_TYPES,
  type IdentityDocumentType,
} from '../documents/kinds.ts';
import { TERMS_SUMMARY } from '../terms/page.ts';
import type { StatusReason, VerificationStatus } from '../verifications/state.ts';
import type { PageVerificationRow } from './repo.ts';
import type { PageParty } from './service.ts';

const STATUS_LABEL: Record<VerificationStatus, string> = {
  NOT_STARTED: 'Not started',
  UNDER_VERIFICATION: 'Under review',
  APPROVED: 'Verified',
  TEMPORARY_REJECTION: 'Action needed',
  FINAL_REJECTION: 'Not verified',
};

const DOCUMENT_LABEL: Record<string, string> = {
  PASSPORT: 'Passport',
  ID_CARD: 'Identity card (RG or national ID)',
  DRIVERS_LICENSE: "Driver's license (CNH)",
  SELFIE: 'Selfie',
  ARTICLES_OF_INCORPORATION: 'Articles of incorporation (contrato social)',
  SHAREHOLDER_REGISTRY: 'Shareholder registry',
  PROOF_OF_ADDRESS: "Proof of the company's address",
  FINANCIAL_STATEMENT: 'Financial statement',
};

const ROLE_LABEL: Record<PageParty['roles'][number], string> = {
  UBO: 'beneficial owner',
  REPRESENTATIVE: 'legal representative',
};

/** Plain-language explanations of the reject labels compliance uses; others are shown as worded. */
const REASON_TEXT: Record<string, string> = {
  screenshot: 'A screenshot was uploaded. We need a photo or scan of the document itself.',
  unsatisfactory_photos: 'The photos were not clear enough for us to read.',
  badPhoto: 'A photo is blurred, too dark or cut off at the edges.',
  proofOfAddress_listOfDocs: 'The proof of address is not one of the documents we accept.',
  document_expired: 'The document has expired.',
  selfie_mismatch: 'The selfie does not match the photo on the document.',
};

const humanize = (label: string) => {
  const words = label
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
const reasonText = (label: string) => REASON_TEXT[label] ?? humanize(label);
const documentLabel = (type: string) => DOCUMENT_LABEL[type] ?? humanize(type);

const FIELD_LABEL: Record<string, string> = {
  '/body/documentType': 'Document type',
  '/body/document': 'Identity document',
  '/body/selfie': 'Selfie',
  '/body/companyDocumentType': 'Company document type',
  '/body/companyDocument': 'Company document',
  '/body/proofOfAddress': 'Proof of address',
  '/body/financialStatement': 'Financial statement',
};

export type FormProblem = { detail: string; errors: FieldError[] };

function problemBox(problem: FormProblem | undefined): Html {
  if (!problem) return html``;
  const items =
    problem.errors.length > 0
      ? problem.errors.map(
          (error) => html`<li>${FIELD_LABEL[error.pointer] ?? 'Upload'}: ${error.message}</li>`,
        )
      : [html`<li>${problem.detail}</li>`];
  return html`<div class="box bad" role="alert" id="form-errors"><h2>Please check your upload</h2><ul>${items}</ul></div>`;
}

function uploadForm(action: string, submitLabel: string, problem: FormProblem | undefined): Html {
  const options = IDENTITY_DOCUMENT_TYPES.map(
    (type: IdentityDocumentType) => html`<option value="${type}">${documentLabel(type)}</option>`,
  );
  return html`${problemBox(problem)}
<form method="post" action="${action}" enctype="multipart/form-data">
  <label for="documentType">Document type</label>
  <select id="documentType" name="documentType">${options}</select>
  <label for="document">Identity document <span class="hint">PDF, JPEG or PNG, up to 3 MB</span></label>
  <input id="document" name="document" type="file" accept="application/pdf,image/jpeg,image/png" required>
  <label for="selfie">Selfie <span class="hint">a photo of your face, JPEG or PNG, up to 3 MB</span></label>
  <input id="selfie" name="selfie" type="file" accept="image/jpeg,image/png" required>
  <button type="submit">${submitLabel}</button>
</form>`;
}

const ACCEPTS = 'application/pdf,image/jpeg,image/png';

function companyForm(action: string, submitLabel: string, problem: FormProblem | undefined): Html {
  const options = COMPANY_DOCUMENT_TYPES.map(
    (type: CompanyDocumentType) => html`<option value="${type}">${documentLabel(type)}</option>`,
  );
  return html`${problemBox(problem)}
<form method="post" action="${action}" enctype="multipart/form-data">
  <label for="companyDocumentType">Company document</label>
  <select id="companyDocumentType" name="companyDocumentType">${options}</select>
  <label for="companyDocument">The document <span class="hint">PDF, JPEG or PNG, up to 3 MB</span></label>
  <input id="companyDocument" name="companyDocument" type="file" accept="${ACCEPTS}" required>
  <label for="proofOfAddress">Proof of the company's address <span class="hint">optional: a recent utility bill or bank statement</span></label>
  <input id="proofOfAddress" name="proofOfAddress" type="file" accept="${ACCEPTS}">
  <label for="financialStatement">Latest financial statement <span class="hint">optional</span></label>
  <input id="financialStatement" name="financialStatement" type="file" accept="${ACCEPTS}">
  <button type="submit">${submitLabel}</button>
</form>`;
}

/** The people a company's verification waits for, each sent to their own link. */
function partiesBox(partner: string | null, parties: readonly PageParty[]): Html {
  if (parties.length === 0) {
    return html`<div class="box" id="parties"><h2>The people behind the company</h2>
<p>No beneficial owner or legal representative is declared yet. ${partnerName(partner, true)} adds them, and each person
verifies their own identity on their own link.</p></div>`;
  }
  const items = parties.map(
    (party) => html`<li data-party-status="${party.status}"><strong>${party.name}</strong>
(${party.roles.map((role) => ROLE_LABEL[role]).join(', ')}): ${STATUS_LABEL[party.status]}${
      party.link
        ? html`<br><span class="hint">Send this link to ${party.name} only:</span>
<a class="link" href="${party.link}">${party.link}</a>`
        : html``
    }</li>`,
  );
  return html`<div class="box" id="parties"><h2>The people behind the company</h2>
<p>Each of them verifies their own identity, with their own document and selfie, on their own link.
The company is verified once they are.</p>
<ul>${items}</ul></div>`;
}

function reasons(reason: StatusReason): Html {
  const labels = [...reason.rejectLabels, ...reason.rejectSubLabels];
  const general = labels.map((label) => html`<li data-label="${label}">${reasonText(label)}</li>`);
  const documents = reason.documents.map(
    (document) =>
      html`<li data-document="${document.type}"><strong>${documentLabel(document.type)}:</strong> ${document.comment}</li>`,
  );
  return html`<div class="box warn" id="reasons"><h2>What needs fixing</h2><ul>${general}${documents}</ul></div>`;
}

/** The terms come first while the customer has not accepted them: submitting the form accepts them. */
function termsFirst(row: PageVerificationRow): Html {
  if (!row.terms_pending) return html``;
  return html`${TERMS_SUMMARY}
<p id="terms-acceptance"><strong>By submitting your documents you accept these terms of service.</strong></p>`;
}

function body(row: PageVerificationRow, action: string, problem: FormProblem | undefined): Html {
  const partner = partnerName(row.project_name);
  const Partner = partnerName(row.project_name, true);
  switch (row.status) {
    case 'NOT_STARTED':
      return html`<h1>Verify your identity</h1>
<p>${Partner} needs to confirm who you are. Upload a photo or scan of an identity document and a selfie.
It takes about two minutes.</p>
${termsFirst(row)}
${uploadForm(action, 'Submit for review', problem)}`;
    case 'UNDER_VERIFICATION':
      return html`<h1>Thank you, we are reviewing your documents</h1>
<p>Your documents were received and are being reviewed. There is nothing more to do for now;
${partner} will let you know the outcome.</p>`;
    case 'TEMPORARY_REJECTION':
      return html`<h1>We need new documents</h1>
<p>We could not complete the review with the documents you sent. Please fix the points below and upload
them again.</p>
${reasons(row.status_reason)}
${termsFirst(row)}
${uploadForm(action, 'Submit again', problem)}`;
    case 'APPROVED':
      return html`<h1>You are verified</h1>
<p>Your identity has been confirmed. You can close this page and return to ${partner}.</p>`;
    case 'FINAL_REJECTION':
      return html`<h1>We could not verify your identity</h1>
<div class="box bad"><p>The verification is closed and this page accepts no more documents.
Please contact ${partner} for help.</p></div>`;
  }
}

function companyBody(
  row: PageVerificationRow,
  action: string,
  problem: FormProblem | undefined,
  parties: readonly PageParty[],
): Html {
  const partner = partnerName(row.project_name);
  const Partner = partnerName(row.project_name, true);
  switch (row.status) {
    case 'NOT_STARTED':
      return html`<h1>Verify your company</h1>
<p>${Partner} needs to confirm who your company is. Upload its articles of incorporation (contrato social)
or its shareholder registry; a proof of its address and its latest financial statement help the review.</p>
${termsFirst(row)}
${companyForm(action, 'Submit for review', problem)}
${partiesBox(row.project_name, parties)}`;
    case 'UNDER_VERIFICATION':
      return html`<h1>Thank you, we are reviewing your company</h1>
<p>The company's documents were received. ${Partner} will let you know the outcome.</p>
${partiesBox(row.project_name, parties)}`;
    case 'TEMPORARY_REJECTION':
      return html`<h1>We need more from your company</h1>
<p>We could not complete the review. Please fix the points below and upload the documents again.</p>
${reasons(row.status_reason)}
${termsFirst(row)}
${companyForm(action, 'Submit again', problem)}
${partiesBox(row.project_name, parties)}`;
    case 'APPROVED':
      return html`<h1>Your company is verified</h1>
<p>The company and the people behind it are confirmed. You can close this page and return to ${partner}.</p>`;
    case 'FINAL_REJECTION':
      return html`<h1>We could not verify your company</h1>
<div class="box bad"><p>The verification is closed and this page accepts no more documents.
Please contact ${partner} for help.</p></div>`;
  }
}

/** The page for a verification in its current state; `problem` lists what was wrong with an upload. */
export function verificationPage(
  row: PageVerificationRow,
  action: string,
  problem?: FormProblem,
  parties: readonly PageParty[] = [],
): string {
  const company = row.customer_type === 'BUSINESS' && !row.associated_party_id;
  const greeting = company ? row.customer_name.trim() : (row.customer_name.trim().split(/\s+/)[0] ?? '');
  return layout(
    company ? 'Company verification' : 'Identity verification',
    html`<main data-status="${row.status}">
<p class="brand">Ponte · ${company ? 'Company verification' : 'Identity verification'}</p>
${row.environment === 'sandbox' ? html`<p class="sandbox">Sandbox: no real verification takes place.</p>` : html``}
<p>Hello, ${greeting}</p>
<p>Status: <span class="status ${row.status}" id="status">${STATUS_LABEL[row.status]}</span></p>
${company ? companyBody(row, action, problem, parties) : body(row, action, problem)}
<footer>Your documents are sent securely and used only to verify ${company ? 'the company' : 'your identity'}.</footer>
</main>`,
  );
}

/** The answer to a link that is forged, expired, or does not exist. */
export function invalidLinkPage(): string {
  return layout(
    'Link not valid',
    html`<main data-status="INVALID_LINK">
<p class="brand">Ponte · Identity verification</p>
<h1>This link is not valid</h1>
<p>The verification link is incorrect or has expired. Please ask for a new link from the service that sent it
to you.</p>
</main>`,
  );
}

/** A failure that is not about the upload itself. */
export function errorPage(title: string, message: string): string {
  return layout(
    title,
    html`<main data-status="ERROR">
<p class="brand">Ponte · Identity verification</p>
<h1>${title}</h1>
<p>${message}</p>
</main>`,
  );
}
